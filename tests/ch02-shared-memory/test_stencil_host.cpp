// The CPU side of chapter 2's stencil (code/ch02-shared-memory/stencil_host.hpp):
// the reference and its zero boundary, the rounding tolerance, the comparisons.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

#include "stencil_host.hpp"

namespace {

std::vector<float> random_integers(std::size_t n, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_int_distribution<int> d(1, 16);
    std::vector<float> v(n);
    for (float& x : v) x = static_cast<float>(d(gen));
    return v;
}

std::vector<float> random_reals(std::size_t n, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> mag(0.5f, 1.5f);
    std::bernoulli_distribution neg(0.5);
    std::vector<float> v(n);
    for (float& x : v) x = neg(gen) ? -mag(gen) : mag(gen);
    return v;
}

std::vector<float> as_float(const std::vector<double>& v) { return {v.begin(), v.end()}; }

}  // namespace

TEST_CASE("the reference sums 2R+1 neighbours, hand-worked", "[ch02][stencil-host]") {
    const std::vector<float> in = {1, 2, 3, 4, 5};
    CHECK(ch02::stencil_reference(in, 0) == std::vector<double>{1, 2, 3, 4, 5});
    // R = 1: out[0] = 0 + 1 + 2 (in[-1] counts as 0), out[4] = 4 + 5 + 0.
    CHECK(ch02::stencil_reference(in, 1) == std::vector<double>{3, 6, 9, 12, 9});
    // R = 2: out[0] = 1 + 2 + 3, out[2] = 1 + ... + 5.
    CHECK(ch02::stencil_reference(in, 2) == std::vector<double>{6, 10, 15, 14, 12});
}

TEST_CASE("values outside [0, n) count as zero", "[ch02][stencil-host]") {
    const std::vector<float> ones(10, 1.0f);
    // Each output counts the window's elements that lie inside the array.
    CHECK(ch02::stencil_reference(ones, 3) == std::vector<double>{4, 5, 6, 7, 7, 7, 7, 6, 5, 4});
    SECTION("a radius wider than the array sums the whole array everywhere") {
        CHECK(ch02::stencil_reference({1, 2, 3}, 5) == std::vector<double>{6, 6, 6});
        CHECK(ch02::stencil_reference({1, 2, 3}, 100) == std::vector<double>{6, 6, 6});
    }
    SECTION("n = 1 and n = 0") {
        CHECK(ch02::stencil_reference({7}, 3) == std::vector<double>{7});
        CHECK(ch02::stencil_reference({}, 3).empty());
        CHECK(ch02::stencil_reference_integers({}, 3).empty());
    }
}

TEST_CASE("a negative radius is refused", "[ch02][stencil-host]") {
    CHECK_THROWS_AS(ch02::stencil_reference({1, 2}, -1), std::invalid_argument);
    CHECK_THROWS_AS(ch02::stencil_reference_integers({1, 2}, -1), std::invalid_argument);
    CHECK_THROWS_AS(ch02::compare_integers({1, 2}, {1, 2}, -1), std::invalid_argument);
}

TEST_CASE("the integer reference equals the direct one on whole numbers", "[ch02][stencil-host]") {
    for (std::size_t n : {1u, 2u, 3u, 7u, 100u, 1000u})
        for (int r : {0, 1, 3, 4, 33, 100, 128}) {
            const auto in = random_integers(n, static_cast<unsigned>(n * 1000 + r));
            INFO("n = " << n << ", R = " << r);
            CHECK(ch02::stencil_reference_integers(in, r) == ch02::stencil_reference(in, r));
        }
}

TEST_CASE("the integer reference refuses a fraction and names its index", "[ch02][stencil-host]") {
    std::vector<float> in = {1, 2, 3, 4};
    in[2] = 2.5f;
    CHECK_THROWS_WITH(ch02::stencil_reference_integers(in, 1), Catch::Contains("in[2]"));
    CHECK_THROWS_WITH(ch02::compare_integers({0, 0, 0, 0}, in, 1), Catch::Contains("in[2]"));
    in[2] = std::numeric_limits<float>::quiet_NaN();
    CHECK_THROWS_AS(ch02::stencil_reference_integers(in, 1), std::invalid_argument);
}

TEST_CASE("the tolerance: Higham's bound for a float sum in any order", "[ch02][stencil-host]") {
    const double u = std::ldexp(1.0, -24);
    CHECK(ch02::sum_tolerance(1, 5.0) == 0.0);  // one term: no addition, no rounding
    CHECK(ch02::sum_tolerance(7, 0.0) == 0.0);  // all zeros
    // 7 terms: 6 additions, gamma_6 = 6u / (1 - 6u) (plus the double's, 2^-29 times smaller).
    CHECK(ch02::sum_tolerance(7, 10.0) == Approx(10.0 * 6 * u / (1 - 6 * u)).epsilon(1e-6));
    CHECK(ch02::sum_tolerance(257, 1.0) > ch02::sum_tolerance(7, 1.0));
    CHECK_THROWS_AS(ch02::sum_tolerance(0, 1.0), std::invalid_argument);
    CHECK_THROWS_AS(ch02::sum_tolerance(3, -1.0), std::invalid_argument);
    CHECK_THROWS_AS(ch02::sum_tolerance(3, std::nan("")), std::invalid_argument);
}

TEST_CASE("float sums in any order stay within the tolerance", "[ch02][stencil-host]") {
    // Forward, backward and pairwise float sums of real windows, against the
    // double reference: all within the bound, for radii up to 128.
    for (int r : {1, 3, 33, 128}) {
        const auto in = random_reals(2000, static_cast<unsigned>(r));
        const auto want = ch02::stencil_reference(in, r);
        const auto scale = ch02::window_abs_sums(in, r);
        const long long n = static_cast<long long>(in.size());
        std::vector<float> fwd(in.size()), bwd(in.size()), pair(in.size());
        for (long long i = 0; i < n; ++i) {
            std::vector<float> w;
            for (long long j = i - r; j <= i + r; ++j) w.push_back(j >= 0 && j < n ? in[j] : 0.0f);
            float f = 0.0f, b = 0.0f;
            for (float x : w) f += x;
            for (auto it = w.rbegin(); it != w.rend(); ++it) b += *it;
            while (w.size() > 1) {  // pairwise: halve until one is left
                std::vector<float> next;
                for (std::size_t k = 0; k + 1 < w.size(); k += 2) next.push_back(w[k] + w[k + 1]);
                if (w.size() % 2 != 0) next.push_back(w.back());
                w = next;
            }
            fwd[i] = f;
            bwd[i] = b;
            pair[i] = w[0];
        }
        INFO("R = " << r);
        for (const auto* got : {&fwd, &bwd, &pair}) {
            const auto c = ch02::compare_within_tolerance(*got, want, scale, r);
            CHECK(c.mismatches == 0);
            CHECK(c.max_error_over_tolerance <= 1.0);
        }
    }
}

TEST_CASE("the tolerance still catches a missing or doubled neighbour", "[ch02][stencil-host]") {
    // A kernel that drops one term of a window, or counts one twice, is off by
    // at least 0.5 (every |x| >= 0.5): far beyond the bound even at R = 128.
    for (int r : {1, 3, 33, 128}) {
        const auto in = random_reals(1000, 50u + r);
        const auto want = ch02::stencil_reference(in, r);
        const auto scale = ch02::window_abs_sums(in, r);
        auto dropped = as_float(want), doubled = as_float(want);
        dropped[500] -= in[500 + r];  // the window's last element missing
        doubled[10] += in[10 - r < 0 ? 0 : 10 - r];
        INFO("R = " << r);
        const auto c1 = ch02::compare_within_tolerance(dropped, want, scale, r);
        CHECK(c1.mismatches == 1);
        CHECK(c1.first_mismatch == 500);
        const auto c2 = ch02::compare_within_tolerance(doubled, want, scale, r);
        CHECK(c2.mismatches == 1);
        CHECK(c2.first_mismatch == 10);
    }
}

TEST_CASE("compare_exact counts every difference, NaN included", "[ch02][stencil-host]") {
    const std::vector<double> want = {1, 2, 3, 4};
    CHECK(ch02::compare_exact({1, 2, 3, 4}, want).mismatches == 0);
    const auto c = ch02::compare_exact({1, 2.5f, 3, std::nanf("")}, want);
    CHECK(c.checked == 4);
    CHECK(c.mismatches == 2);
    CHECK(c.first_mismatch == 1);
    CHECK(std::isinf(c.max_abs_error));  // a NaN output is an unbounded error
    CHECK_THROWS_AS(ch02::compare_exact({1, 2, 3}, want), std::invalid_argument);
}

TEST_CASE("compare_within_tolerance: NaN and infinity are mismatches", "[ch02][stencil-host]") {
    const std::vector<float> in = {1, 2, 3};
    const auto want = ch02::stencil_reference(in, 1);
    const auto scale = ch02::window_abs_sums(in, 1);
    CHECK(ch02::compare_within_tolerance(as_float(want), want, scale, 1).mismatches == 0);
    auto got = as_float(want);
    got[0] = std::nanf("");
    got[2] = std::numeric_limits<float>::infinity();
    const auto c = ch02::compare_within_tolerance(got, want, scale, 1);
    CHECK(c.mismatches == 2);
    CHECK(c.first_mismatch == 0);
    CHECK_THROWS_AS(ch02::compare_within_tolerance({1, 2}, want, scale, 1), std::invalid_argument);
    CHECK_THROWS_AS(ch02::compare_within_tolerance(got, want, {1.0}, 1), std::invalid_argument);
}

TEST_CASE("compare_integers agrees with the materialized reference", "[ch02][stencil-host]") {
    for (std::size_t n : {0u, 1u, 2u, 5u, 257u, 4097u})
        for (int r : {0, 1, 3, 33, 100}) {
            const auto in = random_integers(n, static_cast<unsigned>(7 * n + r));
            auto got = as_float(ch02::stencil_reference_integers(in, r));
            INFO("n = " << n << ", R = " << r);
            CHECK(ch02::compare_integers(got, in, r).mismatches == 0);
            if (n == 0) continue;
            // Spoil the first, the last and (when there is one) a middle output.
            got.front() += 1.0f;
            got.back() = std::nanf("");
            long long expected = n == 1 ? 1 : 2;
            if (n > 2) {
                got[n / 2] -= 3.0f;
                ++expected;
            }
            const auto c = ch02::compare_integers(got, in, r);
            CHECK(c.mismatches == expected);
            CHECK(c.first_mismatch == 0);
            CHECK(c.mismatches ==
                  ch02::compare_exact(got, ch02::stencil_reference_integers(in, r)).mismatches);
        }
    CHECK_THROWS_AS(ch02::compare_integers({1, 2}, {1, 2, 3}, 1), std::invalid_argument);
}

TEST_CASE("compare_integers on arrays split over threads", "[ch02][stencil-host]") {
    // Large enough to be split into parts (1 Mi outputs or more each, one per
    // core): spoil outputs at the ends and around the parts' seams.
    const long long n = (3LL << 20) + 17;
    const auto in = random_integers(static_cast<std::size_t>(n), 99);
    for (int r : {1, 64}) {
        auto got = as_float(ch02::stencil_reference_integers(in, r));
        INFO("R = " << r);
        CHECK(ch02::compare_integers(got, in, r).mismatches == 0);
        const std::vector<long long> spoil = {0,     (1LL << 20) - 1, 1LL << 20, (1LL << 20) + 1,
                                              n / 2, (2LL << 20) + 3, n - 1};
        for (long long i : spoil) got[static_cast<std::size_t>(i)] += 1.0f;
        const auto c = ch02::compare_integers(got, in, r);
        CHECK(c.checked == n);
        CHECK(c.mismatches == static_cast<long long>(spoil.size()));
        CHECK(c.first_mismatch == 0);
        CHECK(c.max_abs_error == 1.0);
    }
    auto bad = in;
    bad[static_cast<std::size_t>(n - 5)] = 0.25f;  // a fraction in the last part
    const std::vector<float> zeros(static_cast<std::size_t>(n), 0.0f);
    CHECK_THROWS_WITH(ch02::compare_integers(zeros, bad, 3),
                      Catch::Contains("in[" + std::to_string(n - 5) + "]"));
}

TEST_CASE("compare_integers in 16 parts, as on the 16-core H200 host", "[ch02][stencil-host]") {
    // The benchmark checks 2^28 outputs in compare_parts(2^28, 16) = 16 parts
    // of 2^24. The same split at 1/16 of the size: 16 parts of about 2^20, with
    // n not a multiple of 16, so the first parts hold one output more.
    const long long n = (1LL << 24) + 13;
    CHECK(ch02::compare_parts(1LL << 28, 16) == 16);
    CHECK(ch02::compare_parts(n, 16) == 16);
    const auto in = random_integers(static_cast<std::size_t>(n), 1616);
    const int r = 3;
    auto got = as_float(ch02::stencil_reference_integers(in, r));
    const auto whole = ch02::compare_integers(got.data(), in.data(), n, r, 16);
    CHECK(whole.checked == n);
    CHECK(whole.mismatches == 0);
    // Spoil the first and last output of every part (the seams), found as the
    // split is defined: part p starts at p (n / 16) + min(p, n % 16).
    std::vector<long long> spoil;
    for (long long p = 0; p < 16; ++p) {
        const long long first = p * (n / 16) + std::min(p, n % 16);
        const long long next = (p + 1) * (n / 16) + std::min(p + 1, n % 16);
        spoil.push_back(first);
        spoil.push_back(next - 1);
    }
    CHECK(spoil.back() == n - 1);
    for (long long i : spoil) got[static_cast<std::size_t>(i)] = std::nanf("");
    const auto c = ch02::compare_integers(got.data(), in.data(), n, r, 16);
    CHECK(c.checked == n);
    CHECK(c.mismatches == static_cast<long long>(spoil.size()));
    CHECK(c.first_mismatch == 0);
    CHECK(std::isinf(c.max_abs_error));
    // The same answer in one part, and in more parts than outputs would allow.
    const auto one = ch02::compare_integers(got.data(), in.data(), n, r, 1);
    CHECK(one.mismatches == c.mismatches);
    const std::vector<float> tiny_in = {1, 2, 3}, tiny_got = {3, 6, 5};
    CHECK(ch02::compare_integers(tiny_got.data(), tiny_in.data(), 3, 1, 64).mismatches == 0);
    CHECK(ch02::compare_integers(tiny_got.data(), tiny_in.data(), 0, 1, 64).checked == 0);
    CHECK_THROWS_AS(ch02::compare_integers(got.data(), in.data(), n, r, 0), std::invalid_argument);
}

TEST_CASE("compare_parts: one part per core, none below 2^20 outputs", "[ch02][stencil-host]") {
    CHECK(ch02::compare_parts(0, 16) == 1);
    CHECK(ch02::compare_parts(1, 16) == 1);
    CHECK(ch02::compare_parts((1LL << 20) - 1, 16) == 1);
    CHECK(ch02::compare_parts(1LL << 21, 16) == 2);
    CHECK(ch02::compare_parts(1LL << 22, 16) == 4);
    CHECK(ch02::compare_parts(1LL << 28, 2) == 2);
    CHECK(ch02::compare_parts(1LL << 28, 1) == 1);
    CHECK(ch02::compare_parts(1LL << 28, 0) == 1);
}

TEST_CASE("merge adds counts and keeps the maxima", "[ch02][stencil-host]") {
    ch02::comparison a, b;
    a.checked = 10;
    b.checked = 5;
    b.mismatches = 2;
    b.first_mismatch = 3;
    b.max_abs_error = 0.5;
    b.max_error_over_tolerance = 7.0;
    ch02::merge(a, b);
    CHECK(a.checked == 15);
    CHECK(a.mismatches == 2);
    CHECK(a.first_mismatch == 3);
    CHECK(a.max_abs_error == 0.5);
    CHECK(a.max_error_over_tolerance == 7.0);
    CHECK_THAT(ch02::describe(a), Catch::Contains("mismatches 2 (first at 3)"));
}
