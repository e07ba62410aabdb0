// Exercise 3.3, the maximum in one launch (exercises/ch03-reductions/ex03-one-pass-max):
// one_pass_max against the CPU's maximum. A GPU test: its main
// (the book's GPU Catch2 main, catch_gpu_main.cpp) exits 77, "skipped", where no GPU is.
// The visible test set: shipped to students. The same tests are built against
// the starter (they must fail) and the solution (they must pass).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <random>
#include <vector>

#include "max_check.cuh"
#include "one_pass_max.cuh"

namespace {

// Floats from -1000 to 1000. A maximum is exact in any order: the GPU must
// return exactly the CPU's.
std::vector<float> random_values(std::size_t n, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> value(-1000.0f, 1000.0f);
    std::vector<float> x(n);
    for (float& v : x) v = value(gen);
    return x;
}

float cpu_max(const std::vector<float>& x) { return *std::max_element(x.begin(), x.end()); }

}  // namespace

TEST_CASE("the maximum of the whole array, in one launch", "[ch03][exercise][ex03][gpu]") {
    const int blocks = GENERATE(2, 7, 528);
    const int n = GENERATE(1, 31, 32, 33, 1000, 100003, 1 << 22);
    CAPTURE(blocks, n);
    ch03ex3::one_pass_max finder(blocks);
    const auto x = random_values(static_cast<std::size_t>(n), 5u + static_cast<unsigned>(n));
    CHECK(finder.max(x) == cpu_max(x));
}

TEST_CASE("the second and third calls work too: the counter is ready again",
          "[ch03][exercise][ex03][gpu]") {
    ch03ex3::one_pass_max finder(132);
    for (unsigned call = 0; call < 3; ++call) {
        CAPTURE(call);
        const auto x = random_values(50000 + call, 40u + call);
        CHECK(finder.max(x) == cpu_max(x));
    }
}

TEST_CASE("the maximum wherever it is", "[ch03][exercise][ex03][gpu]") {
    ch03ex3::one_pass_max finder(64);
    const std::size_t n = 64 * 256 + 5;  // a grid-stride loop that wraps once, partly
    for (std::size_t at :
         {std::size_t{0}, std::size_t{255}, std::size_t{256}, n / 2, n - 6, n - 1}) {
        CAPTURE(at);
        std::vector<float> x(n, 1.0f);
        x[at] = 2.0f;
        CHECK(finder.max(x) == 2.0f);
    }
}

TEST_CASE("bad block counts are refused", "[ch03][exercise][ex03][gpu]") {
    CHECK_THROWS_AS(ch03ex3::one_pass_max(0), std::invalid_argument);
    CHECK_THROWS_AS(ch03ex3::one_pass_max(65536), std::invalid_argument);
}

TEST_CASE("max_one_pass itself, launched by the tests' driver", "[ch03][exercise][ex03][gpu]") {
    // Drawn each run (--rng-seed): the maxima must come from the kernel, on the device.
    CHECK(ch03ex3test::check_launches(Catch::rngSeed() + 61u) == "");
}
