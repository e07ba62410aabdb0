// Exercise 3.1, the largest value in a warp and where it is: the hidden test
// set (tools/grade runs it; the student bundle and the reader's edition leave
// it out). Edge cases the visible set does not name: values that are all
// negative, warps of -infinity (a lane past the end must not win even then),
// ties at the ends of a warp and in a partial warp, and the extreme floats.
#include <catch2/catch.hpp>

#include <cfloat>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "argmax_check.cuh"
#include "warp_argmax.cuh"

namespace {

using ch03ex1::value_index;
using ch03ex1test::first_difference;

}  // namespace

TEST_CASE("every value negative", "[ch03][exercise][ex01][gpu][hidden]") {
    // A start of 0 (or padding of 0) would win here.
    std::vector<float> x(40);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = -1.0f - static_cast<float>(i % 13);
    CHECK(first_difference(ch03ex1::arg_max_on_gpu(x), {{-1.0f, 0}, {-1.0f, 39}}) == "");
}

TEST_CASE("warps of -infinity, full and partial", "[ch03][exercise][ex01][gpu][hidden]") {
    // Lanes past the end must lose even to -infinity: the answer is the first
    // real index.
    const std::vector<float> x(45, -INFINITY);
    CHECK(first_difference(ch03ex1::arg_max_on_gpu(x), {{-INFINITY, 0}, {-INFINITY, 32}}) == "");
    std::vector<float> y(33, -INFINITY);
    y[32] = -FLT_MAX;
    CHECK(first_difference(ch03ex1::arg_max_on_gpu(y), {{-INFINITY, 0}, {-FLT_MAX, 32}}) == "");
}

TEST_CASE("ties at the ends of a warp and in a partial warp",
          "[ch03][exercise][ex01][gpu][hidden]") {
    std::vector<float> x(37, 0.5f);
    x[31] = x[0] = 7.0f;   // warp 0: lanes 0 and 31
    x[36] = x[33] = 7.0f;  // warp 1 (5 elements): lanes 1 and 4
    CHECK(first_difference(ch03ex1::arg_max_on_gpu(x), {{7.0f, 0}, {7.0f, 33}}) == "");
    std::vector<float> z(32, 0.0f);
    z[16] = z[15] = 1.0f;  // the two halves of the first shuffle step
    CHECK(first_difference(ch03ex1::arg_max_on_gpu(z), {{1.0f, 15}}) == "");
    std::vector<float> s(32, -3.0f);
    s[30] = 0.0f;
    s[29] = -0.0f;  // -0 == +0: the smaller index wins
    const auto got = ch03ex1::arg_max_on_gpu(s);
    REQUIRE(got.size() == 1);
    CHECK(got[0].index == 29);
    CHECK(got[0].value == 0.0f);
}

TEST_CASE("the extreme floats", "[ch03][exercise][ex01][gpu][hidden]") {
    std::vector<float> x(64, FLT_MIN);
    x[5] = INFINITY;
    x[6] = FLT_MAX;
    x[40] = FLT_MAX;
    x[41] = -INFINITY;
    CHECK(first_difference(ch03ex1::arg_max_on_gpu(x), {{INFINITY, 5}, {FLT_MAX, 40}}) == "");
}

TEST_CASE("arg_max_per_warp itself, on more sizes and launches",
          "[ch03][exercise][ex01][gpu][hidden]") {
    // Drawn each run (--rng-seed): the results must come from the kernel, on the device.
    CHECK(ch03ex1test::check_launches(Catch::rngSeed() + 43u) == "");
}
