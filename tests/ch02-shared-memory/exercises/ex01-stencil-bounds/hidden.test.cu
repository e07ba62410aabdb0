// Exercise 2.1, the stencil at the ends of the array: the hidden test set
// (tools/grade runs it; the student bundle and the reader's edition leave it
// out). Edge cases the visible set does not name: a radius larger than the
// block (the halo no longer fits one load per thread), the largest radius, a
// radius of 0, a large array, and signed values.
#include <catch2/catch.hpp>

#include <stdexcept>
#include <vector>

#include "stencil_bounds.cuh"
#include "stencil_check.cuh"

using namespace ex01_check;

TEST_CASE("a radius larger than the block", "[ch02][exercise][ex01][gpu][hidden]") {
    // The halo on each side is wider than the block's 256 threads: each thread
    // must load more than one halo entry.
    const int radius = GENERATE(256, 300, ex01::kMaxRadius);
    const int n = GENERATE(3, 1000, 3000);
    CAPTURE(n, radius);
    const auto in = whole_numbers(static_cast<std::size_t>(n), 17u + static_cast<unsigned>(n));
    const guarded_run r = run_guarded(in, radius);
    CHECK(first_difference(r.out, clamped_reference(in, radius)) == "");
    CHECK(r.guard_writes == 0);
}

TEST_CASE("radius 0 copies the input", "[ch02][exercise][ex01][gpu][hidden]") {
    const auto in = whole_numbers(1000, 23u);
    const auto out = ex01::stencil_on_gpu(in, 0);
    CHECK(out == in);
}

TEST_CASE("a large array with signed values", "[ch02][exercise][ex01][gpu][hidden]") {
    const int n = (1 << 22) + 3;
    const auto in = whole_numbers(static_cast<std::size_t>(n), 29u, -1000, 1000);
    CHECK(first_difference(ex01::stencil_on_gpu(in, 5), clamped_reference(in, 5)) == "");
    const auto small = whole_numbers(777, 31u, -1000, 1000);
    const guarded_run r = run_guarded(small, 40);
    CHECK(first_difference(r.out, clamped_reference(small, 40)) == "");
    CHECK(r.guard_writes == 0);
}

TEST_CASE("a radius outside [0, kMaxRadius] is refused", "[ch02][exercise][ex01][gpu][hidden]") {
    const std::vector<float> in(10, 1.0f);
    CHECK_THROWS_AS(ex01::stencil_on_gpu(in, -1), std::invalid_argument);
    CHECK_THROWS_AS(ex01::stencil_on_gpu(in, ex01::kMaxRadius + 1), std::invalid_argument);
}
