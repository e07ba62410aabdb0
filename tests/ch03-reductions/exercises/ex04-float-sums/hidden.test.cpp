// Exercise 3.4, two float sums: the hidden test set (tools/grade runs it; the
// student bundle and the reader's edition leave it out). Edge cases the
// visible set does not name: a large value between small ones (Kahan's
// original method loses the small ones; Neumaier's keeps them), cancellation,
// negative values, and odd splits of the pairwise tree.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <random>
#include <vector>

#include "float_sums.hpp"

namespace {

// The additions each value of the pairwise tree passes through, counted on the
// tree (the header's definition of the depth), and the most of them.
void count_passes(std::size_t n, std::vector<std::size_t>& passes, std::size_t first) {
    if (n <= ch03ex4::kPairwiseBase) {
        for (std::size_t i = 0; i < n; ++i) passes[first + i] += i == 0 ? n - 1 : n - i;
        return;
    }
    count_passes(n / 2, passes, first);
    count_passes(n - n / 2, passes, first + n / 2);
    for (std::size_t i = 0; i < n; ++i) ++passes[first + i];
}

std::size_t depth_on_the_tree(std::size_t n) {
    std::vector<std::size_t> passes(n, 0);
    count_passes(n, passes, 0);
    std::size_t most = 0;
    for (const std::size_t p : passes) most = p > most ? p : most;
    return most;
}

// The header's compensated sum, step by step in float.
float neumaier(const std::vector<float>& x) {
    float s = 0.0f, c = 0.0f;
    for (const float v : x) {
        const float t = s + v;
        if (std::fabs(s) >= std::fabs(v))
            c += (s - t) + v;
        else
            c += (v - t) + s;
        s = t;
    }
    return s + c;
}

}  // namespace

TEST_CASE("a huge value between small ones", "[ch03][exercise][ex04][hidden]") {
    const std::vector<float> x = {1.0f, 1e30f, 1.0f, -1e30f};
    CHECK(ch03ex4::compensated_sum(x.data(), x.size()) == 2.0f);
    const std::vector<float> y = {1e8f, 1.0f, -1e8f, 1.0f};  // 1e8 + 1 rounds to 1e8
    CHECK(ch03ex4::compensated_sum(y.data(), y.size()) == 2.0f);
}

TEST_CASE("Neumaier's steps, not a more accurate sum", "[ch03][exercise][ex04][hidden]") {
    // Where the compensation rounds: a value s whose last mantissa bit is 0, half
    // of its last place h (s + h is a tie, which goes to the even s), and a tiny
    // value below half of h's last place. Neumaier's compensation h + tiny rounds
    // to h, and s + h ties to s again; the correctly rounded sum (in double, or
    // wider) is s plus its last place. Drawn each run: s's bits, sign and scale.
    std::mt19937 gen(Catch::rngSeed() + 17u);
    for (int i = 0; i < 20; ++i) {
        const int e = static_cast<int>(gen() % 41) - 20;
        const float mantissa = 1.0f + static_cast<float>(2 * (gen() % (1u << 22))) * 0x1p-23f;
        const float s = std::ldexp(mantissa, e) * (gen() % 2 ? 1.0f : -1.0f);
        const float h = std::ldexp(1.0f, e - 24) * (s < 0 ? -1.0f : 1.0f);
        const float tiny = std::ldexp(h, -24 - static_cast<int>(gen() % 12));
        const std::vector<float> x = {s, h, tiny};
        CAPTURE(x[0], x[1], x[2]);
        CHECK(neumaier(x) == s);  // the reference itself, on the case it is drawn for
        CHECK(ch03ex4::compensated_sum(x.data(), x.size()) == neumaier(x));
    }
    // Cancellation among values of every magnitude, drawn.
    std::uniform_int_distribution<int> exponent(-40, 40);
    for (int i = 0; i < 10; ++i) {
        std::vector<float> x(1 + gen() % 3000);
        for (float& v : x)
            v = std::ldexp(1.0f + static_cast<float>(gen() % 4096) * 0x1p-12f, exponent(gen)) *
                (gen() % 2 ? 1.0f : -1.0f);
        CAPTURE(x.size());
        CHECK(ch03ex4::compensated_sum(x.data(), x.size()) == neumaier(x));
    }
}

TEST_CASE("negative and mixed values", "[ch03][exercise][ex04][hidden]") {
    const std::vector<float> minus(1000, -0.5f);
    CHECK(ch03ex4::pairwise_sum(minus.data(), minus.size()) == -500.0f);
    CHECK(ch03ex4::compensated_sum(minus.data(), minus.size()) == -500.0f);
    // Whole numbers from -8 to 8: every partial sum is exact, so both sums are.
    std::mt19937 gen(Catch::rngSeed() + 5u);  // drawn each run (--rng-seed)
    std::uniform_int_distribution<int> value(-8, 8);
    std::vector<float> x(100003);
    double exact = 0;
    for (float& v : x) {
        v = static_cast<float>(value(gen));
        exact += v;
    }
    CHECK(ch03ex4::pairwise_sum(x.data(), x.size()) == exact);
    CHECK(ch03ex4::compensated_sum(x.data(), x.size()) == exact);
}

TEST_CASE("odd splits of the pairwise tree", "[ch03][exercise][ex04][hidden]") {
    CHECK(ch03ex4::pairwise_depth(3) == 2);
    // 17 values are 8 and 9: x[0] passes through the 8-value loop's 7 additions
    // and then the one of the halves, 8 in all; the 9 values' side, a tree, is
    // only 1 + 4 deep. The deeper half decides, not the larger.
    CHECK(ch03ex4::pairwise_depth(17) == 8);
    CHECK(ch03ex4::pairwise_depth(1000) == 14);  // 7 halvings to 7 or 8 values, then 7
    // Counted on the tree for sizes drawn each run (--rng-seed), small and large.
    std::mt19937 gen(Catch::rngSeed() + 13u);
    for (int i = 0; i < 30; ++i) {
        const std::size_t n = i < 20 ? 9 + gen() % 200 : 1000 + gen() % 200000;
        CAPTURE(n);
        CHECK(ch03ex4::pairwise_depth(n) == depth_on_the_tree(n));
    }
    // Where the halves split: 9 values are the first 4 and the other 5. With
    // the 1 at index 4 it starts the second half, whose 4 tiny values each
    // round away (1 + 2^-24 is a tie, which goes to the even 1), and the
    // first half's 4 tiny values, exact among themselves, are added at the
    // end: 1 + 2^-22. Split the other way (5 and 4), the 1 would come last in
    // the first half, after 4 tiny values, and the result would be 1 + 2^-21.
    std::vector<float> x(9, 0x1p-24f);
    x[4] = 1.0f;
    CHECK(ch03ex4::pairwise_sum(x.data(), x.size()) == 0x1.000004p+0f);
}
