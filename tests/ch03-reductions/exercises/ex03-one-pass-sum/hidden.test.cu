// Exercise 3.3, a sum in one launch: the hidden test set (tools/grade runs it;
// the student bundle and the reader's edition leave it out). Edge cases the
// visible set does not name: an empty array, more blocks than elements (blocks
// with nothing to add still take a ticket and still write their partial sum),
// a grid of one block (it is its own last block), more partial sums than
// threads in the last block, and many calls of one summer on sizes that jump
// up and down.
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "one_pass_sum.cuh"

namespace {

std::vector<float> whole_numbers(std::size_t n, unsigned seed, double& sum) {
    std::mt19937 gen(seed);
    std::uniform_int_distribution<int> value(-8, 8);
    std::vector<float> x(n);
    std::int64_t s = 0;
    for (float& v : x) {
        const int k = value(gen);
        v = static_cast<float>(k);
        s += k;
    }
    sum = static_cast<double>(s);
    return x;
}

}  // namespace

TEST_CASE("an empty array sums to 0", "[ch03][exercise][ex03][gpu][hidden]") {
    ch03ex3::one_pass_summer summer(40);
    CHECK(summer.sum({}) == 0.0f);
    CHECK(summer.sum({}) == 0.0f);
}

TEST_CASE("more blocks than elements", "[ch03][exercise][ex03][gpu][hidden]") {
    ch03ex3::one_pass_summer summer(1000);  // 256,000 threads
    double s = 0;
    for (std::size_t n : {std::size_t{1}, std::size_t{3}, std::size_t{999}, std::size_t{1001}}) {
        CAPTURE(n);
        const auto x = whole_numbers(n, 60u + static_cast<unsigned>(n), s);
        CHECK(summer.sum(x) == s);
    }
}

TEST_CASE("one block is its own last block", "[ch03][exercise][ex03][gpu][hidden]") {
    ch03ex3::one_pass_summer summer(1);
    double s = 0;
    for (std::size_t n : {std::size_t{5}, std::size_t{70000}}) {
        CAPTURE(n);
        const auto x = whole_numbers(n, 70u + static_cast<unsigned>(n), s);
        CHECK(summer.sum(x) == s);
        CHECK(summer.sum(x) == s);
    }
}

TEST_CASE("more partial sums than threads in a block", "[ch03][exercise][ex03][gpu][hidden]") {
    ch03ex3::one_pass_summer summer(4 * ch03ex3::kThreads + 3);
    double s = 0;
    const auto x = whole_numbers(3000000, 80u, s);
    CHECK(summer.sum(x) == s);
}

TEST_CASE("sizes that jump up and down, one summer", "[ch03][exercise][ex03][gpu][hidden]") {
    ch03ex3::one_pass_summer summer(300);
    double s = 0;
    for (std::size_t n : {std::size_t{1} << 20, std::size_t{2}, std::size_t{77777}, std::size_t{0},
                          std::size_t{300 * 256 - 1}, std::size_t{1}}) {
        CAPTURE(n);
        const auto x = whole_numbers(n, 90u + static_cast<unsigned>(n), s);
        CHECK(summer.sum(x) == s);
    }
}
