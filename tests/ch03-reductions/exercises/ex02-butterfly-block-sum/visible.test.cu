// Exercise 3.2, a block sum in every thread (exercises/ch03-reductions/
// ex02-butterfly-block-sum): sums_on_gpu and two_sums_on_gpu against a CPU
// reference. A GPU test: its main (the book's GPU Catch2 main, catch_gpu_main.cpp) exits
// 77, "skipped", where no GPU is. The visible test set: shipped to students.
// The same tests are built against the starter (they must fail) and the
// solution (they must pass).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <cstring>
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

TEST_CASE("every thread gets its block's sum", "[ch03][exercise][ex02][gpu]") {
    const int threads = GENERATE(32, 256, 1024);
    const int n = GENERATE(1, 32, 1000, 1 << 16);
    CAPTURE(threads, n);
    const auto x = small_whole_numbers(static_cast<std::size_t>(n), 7u + static_cast<unsigned>(n));
    CHECK(first_difference(ch03ex2::sums_on_gpu(x, threads), block_sums(x, threads, plain)) == "");
}

TEST_CASE("two sums in a row", "[ch03][exercise][ex02][gpu]") {
    const int threads = GENERATE(64, 512);
    const auto x = small_whole_numbers(10000, 99u);
    CAPTURE(threads);
    const auto got = ch03ex2::two_sums_on_gpu(x, threads);
    REQUIRE(got.size() == 2);
    CHECK(first_difference(got[0], block_sums(x, threads, plain)) == "");
    CHECK(first_difference(got[1], block_sums(x, threads, square)) == "");
}

TEST_CASE("every thread of a block holds the same bits", "[ch03][exercise][ex02][gpu]") {
    // Floats that round: the sum depends on the order of the additions, but
    // every thread of a block must hold the same one, close to the exact sum.
    std::mt19937 gen(Catch::rngSeed() + 3u);  // drawn each run (--rng-seed)
    std::uniform_real_distribution<float> value(0.0f, 1.0f);
    std::vector<float> x(4096);
    for (float& v : x) v = value(gen);
    const int threads = 256;
    const auto got = ch03ex2::sums_on_gpu(x, threads);
    REQUIRE(got.size() == x.size());
    std::string problem;
    for (std::size_t b = 0; b < x.size() && problem.empty(); b += threads) {
        double exact = 0;
        for (std::size_t i = b; i < b + threads; ++i) exact += x[i];
        if (!(std::fabs(got[b] - exact) <= 1e-4 * exact))
            problem = "block " + std::to_string(b / threads) + ": " + std::to_string(got[b]) +
                      " is not close to " + std::to_string(exact);
        for (std::size_t i = b; i < b + threads && problem.empty(); ++i)
            if (std::memcmp(&got[i], &got[b], sizeof(float)) != 0)
                problem = "thread " + std::to_string(i) + " holds " + std::to_string(got[i]) +
                          ", thread " + std::to_string(b) + " " + std::to_string(got[b]);
    }
    CHECK(problem == "");
}

TEST_CASE("bad block sizes are refused", "[ch03][exercise][ex02][gpu]") {
    const std::vector<float> x(10, 1.0f);
    CHECK_THROWS_AS(ch03ex2::sums_on_gpu(x, 0), std::invalid_argument);
    CHECK_THROWS_AS(ch03ex2::sums_on_gpu(x, 48), std::invalid_argument);
    CHECK_THROWS_AS(ch03ex2::sums_on_gpu(x, 2048), std::invalid_argument);
    CHECK(ch03ex2::sums_on_gpu({}, 32).empty());
}

TEST_CASE("the kernels themselves, launched by the tests' driver", "[ch03][exercise][ex02][gpu]") {
    // Drawn each run (--rng-seed): the sums must come from the kernels, on the device.
    CHECK(ch03ex2test::check_launches(Catch::rngSeed() + 51u) == "");
}
