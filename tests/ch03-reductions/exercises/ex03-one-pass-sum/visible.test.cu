// Exercise 3.3, a sum in one launch (exercises/ch03-reductions/ex03-one-pass-sum):
// one_pass_summer against the exact sum. A GPU test: its main
// (tests/exercises/catch_gpu_main.cpp) exits 77, "skipped", where no GPU is.
// The visible test set: shipped to students. The same tests are built against
// the starter (they must fail) and the solution (they must pass).
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "one_pass_sum.cuh"

namespace {

// Whole numbers from -8 to 8, and their exact sum. Every partial sum a kernel
// forms of up to a few million of them stays a whole number far below 2^24,
// exact in float, so the GPU must return exactly this sum in any order.
struct whole_numbers {
    std::vector<float> x;
    double sum = 0;
};

whole_numbers make(std::size_t n, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_int_distribution<int> value(-8, 8);
    whole_numbers w;
    w.x.resize(n);
    std::int64_t s = 0;
    for (float& v : w.x) {
        const int k = value(gen);
        v = static_cast<float>(k);
        s += k;
    }
    w.sum = static_cast<double>(s);
    return w;
}

}  // namespace

TEST_CASE("the sum of the whole array, in one launch", "[ch03][exercise][ex03][gpu]") {
    const int blocks = GENERATE(2, 7, 528);
    const int n = GENERATE(1, 31, 32, 33, 1000, 100003, 1 << 22);
    CAPTURE(blocks, n);
    ch03ex3::one_pass_summer summer(blocks);
    const auto w = make(static_cast<std::size_t>(n), 5u + static_cast<unsigned>(n));
    CHECK(summer.sum(w.x) == w.sum);
}

TEST_CASE("the second and third calls work too: the counter is reset",
          "[ch03][exercise][ex03][gpu]") {
    ch03ex3::one_pass_summer summer(132);
    for (unsigned call = 0; call < 3; ++call) {
        CAPTURE(call);
        const auto w = make(50000 + call, 40u + call);
        CHECK(summer.sum(w.x) == w.sum);
    }
}

TEST_CASE("ones add up to n", "[ch03][exercise][ex03][gpu]") {
    ch03ex3::one_pass_summer summer(64);
    for (int n : {256, 257, 64 * 256, 64 * 256 + 1, 1 << 20}) {
        CAPTURE(n);
        CHECK(summer.sum(std::vector<float>(static_cast<std::size_t>(n), 1.0f)) == n);
    }
}

TEST_CASE("bad block counts are refused", "[ch03][exercise][ex03][gpu]") {
    CHECK_THROWS_AS(ch03ex3::one_pass_summer(0), std::invalid_argument);
    CHECK_THROWS_AS(ch03ex3::one_pass_summer(65536), std::invalid_argument);
}
