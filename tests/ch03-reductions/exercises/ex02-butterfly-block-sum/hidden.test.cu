// Exercise 3.2, a block sum in every thread: the hidden test set (tools/grade
// runs it; the student bundle and the reader's edition leave it out). Edge
// cases the visible set does not name: block sizes that are not powers of
// two (3 and 31 warps: the lanes past the last warp's sum must add 0), a
// block of one warp, a last block with a single element, and many blocks
// calling the sum twice in a row.
#include <catch2/catch.hpp>

#include <cstddef>
#include <random>
#include <string>
#include <vector>

#include "block_sum_all.cuh"
#include "block_sum_check.cuh"

namespace {

using ch03ex2test::block_sums;
using ch03ex2test::first_difference;
using ch03ex2test::plain;
using ch03ex2test::small_whole_numbers;
using ch03ex2test::square;

}  // namespace

TEST_CASE("blocks of 3 and 31 warps", "[ch03][exercise][ex02][gpu][hidden]") {
    const int threads = GENERATE(96, 992);
    CAPTURE(threads);
    const auto x = small_whole_numbers(5000, 11u);
    CHECK(first_difference(ch03ex2::sums_on_gpu(x, threads), block_sums(x, threads, plain)) == "");
}

TEST_CASE("one warp per block, and a last block of one element",
          "[ch03][exercise][ex02][gpu][hidden]") {
    const auto x = small_whole_numbers(32 * 5 + 1, 12u);
    CHECK(first_difference(ch03ex2::sums_on_gpu(x, 32), block_sums(x, 32, plain)) == "");
    const auto y = small_whole_numbers(1024 + 1, 13u);
    CHECK(first_difference(ch03ex2::sums_on_gpu(y, 1024), block_sums(y, 1024, plain)) == "");
}

TEST_CASE("many blocks, two sums in a row", "[ch03][exercise][ex02][gpu][hidden]") {
    // A missing barrier between two calls shows only now and then: many blocks
    // of many warps give it many chances.
    const int threads = GENERATE(1024, 160);
    CAPTURE(threads);
    const auto x = small_whole_numbers(1 << 20, 14u);
    const auto got = ch03ex2::two_sums_on_gpu(x, threads);
    REQUIRE(got.size() == 2);
    CHECK(first_difference(got[0], block_sums(x, threads, plain)) == "");
    CHECK(first_difference(got[1], block_sums(x, threads, square)) == "");
}

TEST_CASE("the kernels themselves, on more sizes and launches",
          "[ch03][exercise][ex02][gpu][hidden]") {
    // Drawn each run (--rng-seed): the sums must come from the kernels, on the device.
    CHECK(ch03ex2test::check_launches(Catch::rngSeed() + 53u) == "");
}
