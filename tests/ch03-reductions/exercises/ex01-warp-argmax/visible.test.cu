// Exercise 3.1, the largest value in a warp and where it is
// (exercises/ch03-reductions/ex01-warp-argmax): arg_max_on_gpu against a CPU
// reference. A GPU test: its main (the book's GPU Catch2 main, catch_gpu_main.cpp) exits
// 77, "skipped", where no GPU is. The visible test set: shipped to students. The
// same tests are built against the starter (they must fail) and the solution
// (they must pass).
#include <catch2/catch.hpp>

#include <cstddef>
#include <random>
#include <string>
#include <vector>

#include "argmax_check.cuh"
#include "warp_argmax.cuh"

namespace {

using ch03ex1::value_index;
using ch03ex1test::first_difference;

// What arg_max_per_warp promises, one warp of 32 elements at a time: the
// largest value, and the first index it occurs at.
std::vector<value_index> cpu_arg_max(const std::vector<float>& x) {
    std::vector<value_index> out;
    for (std::size_t i = 0; i < x.size(); ++i) {
        if (i % ch03ex1::kWarpWidth == 0)
            out.push_back({x[i], static_cast<int>(i)});
        else if (x[i] > out.back().value)
            out.back() = {x[i], static_cast<int>(i)};
    }
    return out;
}

std::vector<float> random_values(std::size_t n, unsigned seed) {
    std::mt19937 gen(seed + Catch::rngSeed());              // drawn each run (--rng-seed)
    std::uniform_int_distribution<int> value(-1000, 1000);  // many ties
    std::vector<float> x(n);
    for (float& v : x) v = static_cast<float>(value(gen)) * 0.25f;
    return x;
}

}  // namespace

TEST_CASE("arg_max_on_gpu matches the CPU reference on random data",
          "[ch03][exercise][ex01][gpu]") {
    const int n = GENERATE(1, 31, 32, 33, 1000, 1 << 20);
    CAPTURE(n);
    const auto x = random_values(static_cast<std::size_t>(n), 17u + static_cast<unsigned>(n));
    CHECK(first_difference(ch03ex1::arg_max_on_gpu(x), cpu_arg_max(x)) == "");
}

TEST_CASE("the largest value wins from every lane", "[ch03][exercise][ex01][gpu]") {
    // One large value, at each place of a 64-element array in turn.
    std::string first_mismatch;
    for (int at = 0; at < 64 && first_mismatch.empty(); ++at) {
        std::vector<float> x(64);
        for (int i = 0; i < 64; ++i) x[static_cast<std::size_t>(i)] = static_cast<float>(i % 7);
        x[static_cast<std::size_t>(at)] = 100.0f;
        const std::string d = first_difference(ch03ex1::arg_max_on_gpu(x), cpu_arg_max(x));
        if (!d.empty()) first_mismatch = "the large value at " + std::to_string(at) + ": " + d;
    }
    CHECK(first_mismatch == "");
}

TEST_CASE("a tie goes to the smallest index", "[ch03][exercise][ex01][gpu]") {
    const std::vector<float> twos(70, 2.0f);  // warps of 32, 32 and 6
    CHECK(first_difference(ch03ex1::arg_max_on_gpu(twos), {{2.0f, 0}, {2.0f, 32}, {2.0f, 64}}) ==
          "");
    std::vector<float> x(32, 0.0f);
    x[9] = x[20] = x[31] = 5.0f;
    CHECK(first_difference(ch03ex1::arg_max_on_gpu(x), {{5.0f, 9}}) == "");
}

TEST_CASE("the last warp looks only at the elements that exist", "[ch03][exercise][ex01][gpu]") {
    CHECK(ch03ex1::arg_max_on_gpu({}).empty());
    CHECK(first_difference(ch03ex1::arg_max_on_gpu({3.0f}), {{3.0f, 0}}) == "");
    std::vector<float> x(35, 1.0f);
    x[33] = 4.0f;  // warp 1 has elements 32, 33 and 34
    CHECK(first_difference(ch03ex1::arg_max_on_gpu(x), {{1.0f, 0}, {4.0f, 33}}) == "");
}

TEST_CASE("arg_max_per_warp itself, launched by the tests' driver", "[ch03][exercise][ex01][gpu]") {
    // Drawn each run (--rng-seed): the results must come from the kernel, on the device.
    CHECK(ch03ex1test::check_launches(Catch::rngSeed() + 41u) == "");
}
