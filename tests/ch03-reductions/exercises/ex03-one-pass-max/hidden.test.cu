// Exercise 3.3, the maximum in one launch: the hidden test set (tools/grade
// runs it; the student bundle and the reader's edition leave it out). Edge
// cases the visible set does not name: values that are all negative, an empty
// array (-infinity), infinities, more blocks than elements (blocks with
// nothing to look at still take a ticket and still publish -infinity), a grid
// of one block (it is its own last block), more partial results than threads
// in the last block, and many calls of one finder on sizes that jump up and down.
#include <catch2/catch.hpp>

#include <cfloat>
#include <cmath>
#include <cstddef>
#include <random>
#include <vector>

#include "max_check.cuh"
#include "one_pass_max.cuh"

namespace {

std::vector<float> negative_values(std::size_t n, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> value(-1e6f, -1.0f);
    std::vector<float> x(n);
    for (float& v : x) v = value(gen);
    return x;
}

float cpu_max(const std::vector<float>& x) {
    float m = -INFINITY;
    for (float v : x) m = v > m ? v : m;
    return m;
}

}  // namespace

TEST_CASE("every value negative", "[ch03][exercise][ex03][gpu][hidden]") {
    ch03ex3::one_pass_max finder(100);
    for (std::size_t n : {std::size_t{1}, std::size_t{77}, std::size_t{300000}}) {
        CAPTURE(n);
        const auto x = negative_values(n, 3u + static_cast<unsigned>(n));
        CHECK(finder.max(x) == cpu_max(x));
    }
}

TEST_CASE("an empty array, and infinities", "[ch03][exercise][ex03][gpu][hidden]") {
    ch03ex3::one_pass_max finder(40);
    CHECK(finder.max({}) == -INFINITY);
    CHECK(finder.max({}) == -INFINITY);
    CHECK(finder.max(std::vector<float>(1000, -INFINITY)) == -INFINITY);
    std::vector<float> x(5000, -FLT_MAX);
    CHECK(finder.max(x) == -FLT_MAX);
    x[4321] = INFINITY;
    CHECK(finder.max(x) == INFINITY);
}

TEST_CASE("more blocks than elements", "[ch03][exercise][ex03][gpu][hidden]") {
    ch03ex3::one_pass_max finder(1000);  // 256,000 threads
    for (std::size_t n : {std::size_t{1}, std::size_t{3}, std::size_t{999}, std::size_t{1001}}) {
        CAPTURE(n);
        const auto x = negative_values(n, 60u + static_cast<unsigned>(n));
        CHECK(finder.max(x) == cpu_max(x));
    }
}

TEST_CASE("one block is its own last block", "[ch03][exercise][ex03][gpu][hidden]") {
    ch03ex3::one_pass_max finder(1);
    for (std::size_t n : {std::size_t{5}, std::size_t{70000}}) {
        CAPTURE(n);
        const auto x = negative_values(n, 70u + static_cast<unsigned>(n));
        CHECK(finder.max(x) == cpu_max(x));
        CHECK(finder.max(x) == cpu_max(x));
    }
}

TEST_CASE("more partial results than threads in a block", "[ch03][exercise][ex03][gpu][hidden]") {
    ch03ex3::one_pass_max finder(4 * ch03ex3::kThreads + 3);
    auto x = negative_values(3000000, 80u);
    x[2999999] = 5.0f;  // in the last block's share
    CHECK(finder.max(x) == 5.0f);
}

TEST_CASE("sizes that jump up and down, one finder", "[ch03][exercise][ex03][gpu][hidden]") {
    ch03ex3::one_pass_max finder(300);
    for (std::size_t n : {std::size_t{1} << 20, std::size_t{2}, std::size_t{77777}, std::size_t{0},
                          std::size_t{300 * 256 - 1}, std::size_t{1}}) {
        CAPTURE(n);
        const auto x = negative_values(n, 90u + static_cast<unsigned>(n));
        CHECK(finder.max(x) == cpu_max(x));
    }
}

TEST_CASE("max_one_pass itself, on more sizes and launches",
          "[ch03][exercise][ex03][gpu][hidden]") {
    // Drawn each run (--rng-seed): the maxima must come from the kernel, on the device.
    CHECK(ch03ex3test::check_launches(Catch::rngSeed() + 63u) == "");
}
