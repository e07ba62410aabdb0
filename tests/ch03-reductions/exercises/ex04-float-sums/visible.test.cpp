// Exercise 3.4, two float sums that keep their error small
// (exercises/ch03-reductions/ex04-float-sums): against the order the header
// specifies, against exact sums, and against the error bounds of chapter 3's
// section 3.8. The visible test set: shipped to students. The same tests are
// built against the starter (they must fail) and the solution (they must pass).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "float_sums.hpp"

namespace {

// Values in (0, 1], each a whole multiple of 2^-24: exact in float, and their
// sum exact in double for up to 2^29 of them.
std::vector<float> unit_values(std::size_t n, unsigned seed) {
    std::mt19937 gen(seed);
    std::vector<float> x(n);
    for (float& v : x) v = static_cast<float>((gen() >> 8) + 1u) * 0x1p-24f;
    return x;
}

double exact_sum(const std::vector<float>& x) {
    double s = 0;
    for (float v : x) s += v;
    return s;
}

// The depth pairwise_depth promises, by its definition: how many additions
// each value passes through, counted on the tree itself.
void count_passes(std::size_t n, std::vector<std::size_t>& passes, std::size_t first) {
    if (n <= ch03ex4::kPairwiseBase) {
        // ((x[0] + x[1]) + x[2]) + ...: x[0] and x[1] pass through all n - 1
        // additions, x[i] through the last n - i.
        for (std::size_t i = 0; i < n; ++i) passes[first + i] += i == 0 ? n - 1 : n - i;
        return;
    }
    count_passes(n / 2, passes, first);
    count_passes(n - n / 2, passes, first + n / 2);
    for (std::size_t i = 0; i < n; ++i) ++passes[first + i];  // the addition of the halves
}

std::size_t reference_depth(std::size_t n) {
    std::vector<std::size_t> passes(n, 0);
    count_passes(n, passes, 0);
    std::size_t most = 0;
    for (const std::size_t p : passes) most = p > most ? p : most;
    return most;
}

// The compensated sum the header specifies (Neumaier's), step by step in float.
float reference_neumaier(const float* x, std::size_t n) {
    float s = 0.0f, c = 0.0f;
    for (std::size_t i = 0; i < n; ++i) {
        const float v = x[i];
        const float t = s + v;
        if (std::fabs(s) >= std::fabs(v))
            c += (s - t) + v;
        else
            c += (v - t) + s;
        s = t;
    }
    return s + c;
}

// Values of every magnitude from 2^-60 to 2^40 and both signs, drawn: the sums
// where the order of the additions and the compensation decide the last bits.
std::vector<float> wide_values(std::size_t n, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_int_distribution<int> exponent(-60, 40);
    std::uniform_real_distribution<float> mantissa(1.0f, 2.0f);
    std::vector<float> x(n);
    for (float& v : x) v = std::ldexp(mantissa(gen), exponent(gen)) * (gen() % 2 ? 1.0f : -1.0f);
    return x;
}

// The order pairwise_sum promises, written out once more.
float reference_pairwise(const float* x, std::size_t n) {
    if (n <= ch03ex4::kPairwiseBase) {
        float s = 0.0f;
        for (std::size_t i = 0; i < n; ++i) s = s + x[i];
        return s;
    }
    return reference_pairwise(x, n / 2) + reference_pairwise(x + n / 2, n - n / 2);
}

}  // namespace

TEST_CASE("no values, one value", "[ch03][exercise][ex04]") {
    const float one[] = {0.3f};
    CHECK(ch03ex4::pairwise_sum(one, 0) == 0.0f);
    CHECK(ch03ex4::compensated_sum(one, 0) == 0.0f);
    CHECK(ch03ex4::pairwise_sum(one, 1) == 0.3f);
    CHECK(ch03ex4::compensated_sum(one, 1) == 0.3f);
    CHECK(ch03ex4::pairwise_depth(0) == 0);
    CHECK(ch03ex4::pairwise_depth(1) == 0);
}

TEST_CASE("pairwise_sum adds in the order it promises", "[ch03][exercise][ex04]") {
    const std::size_t n = GENERATE(2, 7, 8, 9, 17, 1000, 65537);
    CAPTURE(n);
    const auto x = unit_values(n, Catch::rngSeed() + static_cast<unsigned>(n));  // drawn each run
    // Bit for bit: the same additions in the same order give the same float.
    CHECK(ch03ex4::pairwise_sum(x.data(), n) == reference_pairwise(x.data(), n));
}

TEST_CASE("the depth of the pairwise tree", "[ch03][exercise][ex04]") {
    // Counted on the tree, for sizes drawn each run (--rng-seed).
    std::mt19937 gen(Catch::rngSeed() + 7u);
    std::uniform_int_distribution<std::size_t> size(2, 5000);
    for (int i = 0; i < 40; ++i) {
        const std::size_t n = size(gen);
        CAPTURE(n);
        CHECK(ch03ex4::pairwise_depth(n) == reference_depth(n));
    }
    CHECK(ch03ex4::pairwise_depth(2) == 1);
    CHECK(ch03ex4::pairwise_depth(8) == 7);
    CHECK(ch03ex4::pairwise_depth(9) == 5);          // 1 + the depth of the larger half, 5 values
    CHECK(ch03ex4::pairwise_depth(16) == 8);         // 1 + 7
    CHECK(ch03ex4::pairwise_depth(1u << 20) == 24);  // 17 halvings to 8 values, then 7
}

TEST_CASE("compensated_sum is Neumaier's, bit for bit", "[ch03][exercise][ex04]") {
    // 1 + 2^-24 + 2^-50: Neumaier's method gives 1 (the compensation 2^-24 +
    // 2^-50 rounds to 2^-24, and 1 + 2^-24 is a tie that goes to the even 1);
    // the correctly rounded sum, or one in double, is 1 + 2^-23. Scaled by a
    // power of 2 and a sign drawn each run, which change no rounding.
    std::mt19937 gen(Catch::rngSeed() + 11u);
    const float scale = std::ldexp(1.0f, static_cast<int>(gen() % 61) - 30) * (gen() % 2 ? 1 : -1);
    const std::vector<float> x = {scale, scale * 0x1p-24f, scale * 0x1p-50f};
    CAPTURE(scale);
    CHECK(ch03ex4::compensated_sum(x.data(), x.size()) == scale);
    // Values of every magnitude, drawn: the same float as the steps the header gives.
    for (const std::size_t n : {3u, 17u, 100u, 4099u}) {
        const auto y = wide_values(n, static_cast<unsigned>(gen()));
        CAPTURE(n);
        CHECK(ch03ex4::compensated_sum(y.data(), n) == reference_neumaier(y.data(), n));
    }
}

TEST_CASE("2^25 ones: the loop stops at 2^24, these do not", "[ch03][exercise][ex04]") {
    const std::vector<float> ones(std::size_t{1} << 25, 1.0f);
    CHECK(ch03ex4::pairwise_sum(ones.data(), ones.size()) == 33554432.0f);
    CHECK(ch03ex4::compensated_sum(ones.data(), ones.size()) == 33554432.0f);
}

TEST_CASE("within the error bounds of section 3.8", "[ch03][exercise][ex04]") {
    const std::size_t n = std::size_t{1} << 20;
    const auto x = unit_values(n, Catch::rngSeed() + 99u);
    const double exact = exact_sum(x);  // every value is positive: the sum of magnitudes too
    const double u = 0x1p-24;
    const double h = static_cast<double>(ch03ex4::pairwise_depth(n));
    const double pairwise_bound = h * u / (1 - h * u) * exact;
    CHECK(std::fabs(ch03ex4::pairwise_sum(x.data(), n) - exact) <= pairwise_bound);
    // Compensated: within about two roundings of the result, whatever n.
    CHECK(std::fabs(ch03ex4::compensated_sum(x.data(), n) - exact) <= 2 * u * exact);
}
