// Exercise 2.2, the 5-point stencil with a tile and halo: the hidden test set
// (tools/grade runs it; the student bundle and the reader's edition leave it
// out). Edge cases the visible set does not name: a single cell, a single row
// and a single column (the halo on two or four sides lies outside the grid),
// a grid one cell wider or taller than a whole number of tiles, a large grid,
// and sizes that are refused.
#include <catch2/catch.hpp>

#include <stdexcept>
#include <utility>
#include <vector>

#include "stencil_2d.cuh"
#include "stencil_check.cuh"

using namespace ex02_check;

// The inputs here are signed, -16..16 (the visible set's are 1..16).
constexpr int kLow = -16, kHigh = 16;

TEST_CASE("a single cell, a single row, a single column", "[ch02][exercise][ex02][gpu][hidden]") {
    const auto [width, height] = GENERATE(std::pair{1, 1}, std::pair{1000, 1}, std::pair{1, 1000},
                                          std::pair{2, 1}, std::pair{1, 9});
    CAPTURE(width, height);
    const auto in =
        whole_numbers(static_cast<std::size_t>(width) * height, 13u + width, kLow, kHigh);
    const guarded_run r = run_guarded(in, width, height);
    CHECK(first_difference(r.out, reference(in, width, height), width) == "");
    CHECK(r.guard_writes == 0);
}

TEST_CASE("one cell past a whole number of tiles", "[ch02][exercise][ex02][gpu][hidden]") {
    // The last column (or row) of blocks holds one cell of the grid: all its
    // other threads lie outside and must still take part in the barrier.
    const auto [width, height] =
        GENERATE(std::pair{33, 8}, std::pair{32, 9}, std::pair{33, 9}, std::pair{129, 65});
    CAPTURE(width, height);
    const auto in =
        whole_numbers(static_cast<std::size_t>(width) * height, 19u + height, kLow, kHigh);
    const guarded_run r = run_guarded(in, width, height);
    CHECK(first_difference(r.out, reference(in, width, height), width) == "");
    CHECK(r.guard_writes == 0);
}

TEST_CASE("a large grid with signed values", "[ch02][exercise][ex02][gpu][hidden]") {
    const int width = 2053, height = 1031;
    const auto in = whole_numbers(static_cast<std::size_t>(width) * height, 23u, kLow, kHigh);
    CHECK(first_difference(ex02::stencil5_on_gpu(in, width, height), reference(in, width, height),
                           width) == "");
}

TEST_CASE("sizes that are no grid are refused", "[ch02][exercise][ex02][gpu][hidden]") {
    CHECK_THROWS_AS(ex02::stencil5_on_gpu({}, -1, 0), std::invalid_argument);
    CHECK_THROWS_AS(ex02::stencil5_on_gpu(std::vector<float>(6), 2, 2), std::invalid_argument);
}
