// Exercise 2.5, a stencil at the speed of the copy
// (exercises/ch02-shared-memory/ex05-fast-stencil): stencil() against the CPU's, at
// every output, and nothing written past the end. A GPU test: its main exits 77,
// "skipped", where no GPU is. The visible test set: shipped to students. Its speed
// is graded by tools/grade (the bridge's timed harness), not here.
#include <catch2/catch.hpp>

#include <cstddef>
#include <vector>

#include "fast_stencil.cuh"
#include "stencil_check.cuh"

TEST_CASE("ch02ex5: every output of every size from 1 to 2^22 + 5 values", "[ch02ex5]") {
    for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{7},
                          std::size_t{100}, std::size_t{2047}, std::size_t{2048}, std::size_t{2049},
                          std::size_t{2056}, std::size_t{65537}, (std::size_t{1} << 22) + 5}) {
        const auto in = ch02ex5test::whole_values(n, static_cast<unsigned>(n) + 3u);
        INFO("n = " << n);
        CHECK(ch02ex5test::check(in, ch02ex5test::stencil_of(in)) == "");
    }
}

TEST_CASE("ch02ex5: nothing is written for no values", "[ch02ex5]") {
    const std::vector<float> none;
    CHECK(ch02ex5test::check(none, ch02ex5test::stencil_of(none)) == "");
}

TEST_CASE("ch02ex5: stencils in a row do not depend on each other", "[ch02ex5]") {
    for (unsigned seed = 1; seed <= 3; ++seed) {
        const auto in = ch02ex5test::whole_values(300001, seed);
        CHECK(ch02ex5test::check(in, ch02ex5test::stencil_of(in)) == "");
    }
}
