// Exercise 2.4, two steps per trip to memory: the hidden test set (tools/grade
// runs it; the student bundle and the reader's edition leave it out). Edge cases
// the visible set does not name: a large array, sizes at and around multiples of
// the block, inputs that are nonzero only at the ends (they catch a first step
// that is not 0 outside the array), single inputs at every distance up to 2R
// from a block boundary (they catch a halo of R instead of 2R), and signed values.
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "two_steps.cuh"
#include "two_steps_check.cuh"

using namespace ex04_check;

TEST_CASE("two steps of a large array with signed values", "[ch02][exercise][ex04][gpu][hidden]") {
    const int n = (1 << 20) + 3;
    const auto in = whole_numbers(static_cast<std::size_t>(n), 29u, -1000, 1000);
    CHECK(first_difference(ex04::two_steps_on_gpu(in), two_steps_reference(in)) == "");
}

TEST_CASE("two steps at and around multiples of the block", "[ch02][exercise][ex04][gpu][hidden]") {
    const int n =
        GENERATE(2, 3, 4, 8, 11, 13, 250, 251, 262, 511, 512, 513, 518, 519, 767, 768, 769, 2053);
    CAPTURE(n);
    const auto in =
        whole_numbers(static_cast<std::size_t>(n), 41u + static_cast<unsigned>(n), -100, 100);
    const guarded_run r = run_guarded(in);
    CHECK(first_difference(r.out, two_steps_reference(in)) == "");
    CHECK(r.guard_writes == 0);
}

TEST_CASE("inputs nonzero only at the ends", "[ch02][exercise][ex04][gpu][hidden]") {
    // The first step's values just outside the array would be nonzero sums of
    // these inputs; with the zero boundary at every step they are 0.
    const int n = GENERATE(1, 2, 7, 13, 256, 300, 1000);
    const int at = GENERATE(0, 1, 2, 3);
    const bool right = GENERATE(false, true);
    const int pos = right ? n - 1 - std::min(at, n - 1) : std::min(at, n - 1);
    CAPTURE(n, pos);
    std::vector<float> in(static_cast<std::size_t>(n), 0.0f);
    in[static_cast<std::size_t>(pos)] = 5.0f;
    CHECK(first_difference(ex04::two_steps_on_gpu(in), two_steps_reference(in)) == "");
}

TEST_CASE("single inputs within 2R of a block boundary", "[ch02][exercise][ex04][gpu][hidden]") {
    // An input at distance R + 1 ... 2R from the boundary reaches the other
    // block's outputs only through the first step's halo: a tile with a halo of
    // R instead of 2R misses it.
    const int boundary = GENERATE(256, 512, 768);
    const int offset = GENERATE(-6, -5, -4, -3, -1, 0, 2, 3, 4, 5);
    CAPTURE(boundary, offset);
    std::vector<float> in(1000, 0.0f);
    in[static_cast<std::size_t>(boundary + offset)] = 3.0f;
    const guarded_run r = run_guarded(in);
    CHECK(first_difference(r.out, two_steps_reference(in)) == "");
    CHECK(r.guard_writes == 0);
}
