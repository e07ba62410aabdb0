// Exercise 3.2's test code that both test sets use (visible.test.cu and the
// grader's hidden.test.cu): inputs whose sums are exact, the CPU reference and
// the comparison. Shipped to students with the visible tests.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <random>
#include <string>
#include <vector>

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

}  // namespace ch03ex2test
