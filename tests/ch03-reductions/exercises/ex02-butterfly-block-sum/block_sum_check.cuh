// Exercise 3.2's test code that both test sets use (visible.test.cu and the
// grader's hidden.test.cu): inputs whose sums are exact, the CPU reference and
// the comparison, and the kernels themselves launched by the tests' own driver
// with a configuration the test draws, into outputs whose every word holds a
// mark first (the outputs of sums_on_gpu can be computed without a GPU; these
// come only from the student's kernels, on the device). Shipped to students with
// the visible tests.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "sums_launch.cuh"

namespace ch03ex2test {

// Whole numbers from -8 to 8: every sum of up to 1024 of them, and of their
// squares, is a whole number far below 2^24, exact in float in any order.
inline std::vector<float> small_whole_numbers(std::size_t n, unsigned seed) {
    std::mt19937 gen(seed + Catch::rngSeed());  // drawn each run (--rng-seed)
    std::uniform_int_distribution<int> value(-8, 8);
    std::vector<float> x(n);
    for (float& v : x) v = static_cast<float>(value(gen));
    return x;
}

inline float plain(float v) { return v; }
inline float square(float v) { return v * v; }

// For blocks of `threads` over x: each element's block sum of f(x), exactly.
template <class F>
std::vector<float> block_sums(const std::vector<float>& x, int threads, F f) {
    std::vector<float> out(x.size());
    for (std::size_t b = 0; b < x.size(); b += static_cast<std::size_t>(threads)) {
        const std::size_t e = std::min(x.size(), b + static_cast<std::size_t>(threads));
        double s = 0;
        for (std::size_t i = b; i < e; ++i) s += f(x[i]);
        for (std::size_t i = b; i < e; ++i) out[i] = static_cast<float>(s);
    }
    return out;
}

// "" when every element agrees, else the first that does not.
inline std::string first_difference(const std::vector<float>& got, const std::vector<float>& want) {
    if (got.size() != want.size())
        return "got " + std::to_string(got.size()) + " values, want " + std::to_string(want.size());
    for (std::size_t i = 0; i < got.size(); ++i)
        if (!(got[i] == want[i]))
            return "thread " + std::to_string(i) + ": got " + std::to_string(got[i]) + ", want " +
                   std::to_string(want[i]);
    return "";
}

// Launches drawn from `seed` (sizes, block sizes, grids with blocks to spare, one
// sum or two): "" when every thread of the data has its block's sums and every
// other word is untouched, else the first launch and word that differ.
inline std::string check_launches(unsigned seed) {
    std::mt19937 gen(seed);
    for (int k = 0; k < 12; ++k) {
        const std::size_t n = k == 0 ? 0 : gen() % 20000;
        const int threads = 32 * static_cast<int>(1 + gen() % 32);
        const int blocks = static_cast<int>((n + static_cast<std::size_t>(threads) - 1) /
                                            static_cast<std::size_t>(threads)) +
                           static_cast<int>(gen() % 3) + (n == 0 ? 1 : 0);
        const int two = static_cast<int>(gen() % 2);
        std::vector<float> x(n);
        for (float& v : x) v = static_cast<float>(static_cast<int>(gen() % 17) - 8);
        const auto got = launch_sums(x, threads, blocks, two);
        const std::string where = "launch " + std::to_string(k) + " (" + std::to_string(n) +
                                  " values, " + std::to_string(blocks) + " blocks of " +
                                  std::to_string(threads) + (two ? ", two sums" : "") + "): ";
        const std::size_t slots =
            static_cast<std::size_t>(blocks) * static_cast<std::size_t>(threads);
        if (got.size() != slots * (two ? 2 : 1))
            return where + "got " + std::to_string(got.size()) + " words";
        const auto sums = block_sums(x, threads, plain), squares = block_sums(x, threads, square);
        for (std::size_t i = 0; i < got.size(); ++i) {
            const std::size_t t = i % slots;
            const char* what = i < slots ? "sums" : "squares";
            if (t >= n) {
                std::uint32_t bits = 0;
                std::memcpy(&bits, &got[i], sizeof bits);
                if (bits != 0xFFFFFFFFu)
                    return where + what + "[" + std::to_string(t) + "], past the end, written";
                continue;
            }
            const float want = i < slots ? sums[t] : squares[t];
            if (!(got[i] == want))
                return where + what + "[" + std::to_string(t) + "]: got " + std::to_string(got[i]) +
                       ", want " + std::to_string(want);
        }
    }
    return "";
}

}  // namespace ch03ex2test
