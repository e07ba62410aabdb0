// Exercise 1.2, SIMT efficiency: the hidden test set (tools/grade runs it; the
// student bundle and the reader's edition leave it out). Edge cases the visible
// set does not name: counts and costs beyond 32 bits, a slow lane alone in a
// partial last warp, and the reordering of a short mixed list.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "simt_efficiency.hpp"

using Trips = std::vector<long long>;
using Order = std::vector<std::size_t>;

namespace {

// The header's definitions, written out: useful over issued lane-work.
double reference_loop(const Trips& counts) {
    long double useful = 0, issued = 0;
    for (std::size_t w = 0; w < counts.size(); w += 32) {
        long long most = 0;
        for (std::size_t t = w; t < std::min(counts.size(), w + 32); ++t) {
            useful += counts[t];
            most = std::max(most, counts[t]);
        }
        issued += 32.0L * most;
    }
    return issued == 0 ? 1.0 : static_cast<double>(useful / issued);
}

double reference_branch(std::uint32_t mask, long long a, long long b) {
    int lanes_a = 0;
    for (int i = 0; i < 32; ++i) lanes_a += (mask >> i) & 1u;
    const long double needed = static_cast<long double>(lanes_a) * a + (32.0L - lanes_a) * b;
    const long double held = 32.0L * ((lanes_a > 0 ? a : 0) + (lanes_a < 32 ? b : 0));
    return held == 0 ? 1.0 : static_cast<double>(needed / held);
}

}  // namespace

TEST_CASE("trip counts beyond 32 bits", "[ch01][exercise][ex02][hidden]") {
    // 2^33 iterations in every lane: equal lanes, efficiency 1, whatever the size.
    CHECK(ex02::lane_efficiency_of_loop(Trips(32, 1LL << 33)) == 1.0);
    // One lane runs 2^40 times, the others not at all: 2^40 useful of 32 * 2^40.
    Trips one(32, 0);
    one[17] = 1LL << 40;
    CHECK(ex02::lane_efficiency_of_loop(one) == Approx(1.0 / 32.0));
}

TEST_CASE("a slow lane alone in a partial last warp", "[ch01][exercise][ex02][hidden]") {
    // 33 threads: warp 0 runs 1 iteration in every lane (32 of 32); warp 1 holds
    // thread 32 alone, 5 iterations, and occupies 32 lanes: 5 of 160.
    Trips counts(33, 1);
    counts[32] = 5;
    CHECK(ex02::lane_efficiency_of_loop(counts) == Approx(37.0 / 192.0));
}

TEST_CASE("branch costs in the billions", "[ch01][exercise][ex02][hidden]") {
    // 16 lanes each way, A costs 3e9 and B costs 1: 16 * (3e9 + 1) needed, 32 * (3e9 + 1) held.
    CHECK(ex02::branch_efficiency(0x0000ffffu, 3'000'000'000LL, 1) == Approx(0.5));
    // Every lane takes A: only A runs, nothing waits.
    CHECK(ex02::branch_efficiency(0xffffffffu, 3'000'000'000LL, 3'000'000'000LL) == 1.0);
}

TEST_CASE("reorder a short mixed list", "[ch01][exercise][ex02][hidden]") {
    const auto even = [](int v) { return v % 2 == 0; };
    // 2 and 4 (indices 1, 3) first, then 1 and 3 (indices 0, 2).
    CHECK(ex02::reorder_for_uniform_warps({1, 2, 3, 4}, even) == Order{1, 3, 0, 2});
    // Negative values: -2 and 0 are even, -1 is not.
    CHECK(ex02::reorder_for_uniform_warps({-1, -2, 0}, even) == Order{1, 2, 0});
}

TEST_CASE("loops, branches and lists drawn each run", "[ch01][exercise][ex02][hidden]") {
    std::mt19937_64 gen(Catch::rngSeed() + 103u);  // drawn each run (--rng-seed)
    for (int i = 0; i < 50; ++i) {
        Trips counts(1 + gen() % 300);
        const long long top = static_cast<long long>(1 + gen() % (1ULL << (gen() % 40)));
        for (auto& c : counts) c = gen() % 3 == 0 ? 0 : static_cast<long long>(gen() % top);
        CAPTURE(counts.size(), top);
        CHECK(ex02::lane_efficiency_of_loop(counts) == Approx(reference_loop(counts)));

        const auto mask = static_cast<std::uint32_t>(gen() >> (gen() % 2 ? 32 : 0));
        const auto a = static_cast<long long>(gen() % 5'000'000'000ULL);
        const auto b = static_cast<long long>(gen() % (gen() % 2 ? 100 : 5'000'000'000ULL));
        CAPTURE(mask, a, b);
        CHECK(ex02::branch_efficiency(mask, a, b) == Approx(reference_branch(mask, a, b)));

        std::vector<int> values(gen() % 200);
        for (int& v : values) v = static_cast<int>(gen() % 2001) - 1000;
        const int modulus = 2 + static_cast<int>(gen() % 5);
        const auto holds = [modulus](int v) { return v % modulus == 0; };
        Order want(values.size());
        for (std::size_t k = 0; k < want.size(); ++k) want[k] = k;
        std::stable_partition(want.begin(), want.end(),
                              [&](std::size_t k) { return holds(values[k]); });
        CAPTURE(values, modulus);
        CHECK(ex02::reorder_for_uniform_warps(values, holds) == want);
    }
}
