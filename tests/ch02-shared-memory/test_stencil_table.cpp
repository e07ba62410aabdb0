// The lookup in chapter 2's table of stencil kernels (code/ch02-shared-memory/stencil_table.hpp).
#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "stencil_table.hpp"

namespace {

void launch_a(const float*, float*, long long, int) {}
void launch_b(const float*, float*, long long, int) {}

// Made on demand, like stencil_kernels(R): every call returns a new table.
std::vector<ch02::kernel_info> make_table() {
    return {{"a", "the first", 1, 4, 1.0, false, launch_a},
            {"b", "the second", 4, 16, 0.75, false, launch_b}};
}

}  // namespace

TEST_CASE("find_kernel returns a copy, so a temporary table cannot leave it dangling",
          "[ch02][stencil-table]") {
    // The first version returned a reference into the table, and the benchmark
    // kept one into a temporary table: a use after free, which crashed it on
    // the H200. A copy cannot dangle.
    static_assert(
        std::is_same_v<decltype(ch02::find_kernel(make_table(), "a")), ch02::kernel_info>);
    const ch02::kernel_info k = ch02::find_kernel(make_table(), "b");
    CHECK(k.name == "b");
    CHECK(k.launch == &launch_b);
    CHECK(k.outputs_per_thread == 4);
}

TEST_CASE("find_kernel names the choices when the name is unknown", "[ch02][stencil-table]") {
    CHECK_THROWS_AS(ch02::find_kernel(make_table(), "c"), std::invalid_argument);
    CHECK_THROWS_WITH(ch02::find_kernel(make_table(), "c"),
                      "no kernel called 'c'; there are: a, b");
    CHECK_THROWS_WITH(ch02::find_kernel({}, "a"), Catch::Contains("no kernel called 'a'"));
}
