// Exercise 1.2, SIMT efficiency (exercises/ch01-execution-model/ex02-simt-efficiency):
// hand-worked numbers (the arithmetic is in the comments), and the chapter's warp
// model (code/ch01-execution-model/warp_model.hpp) as the reference elsewhere.
// The visible test set: shipped to students. The same tests are built against the
// starter (they must fail) and the solution (they must pass).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

#include "simt_efficiency.hpp"
#include "warp_model.hpp"

using Trips = std::vector<long long>;
using Order = std::vector<std::size_t>;

TEST_CASE("loop efficiency of one warp", "[ch01][exercise][ex02]") {
    CHECK(ex02::lane_efficiency_of_loop(Trips(32, 10)) == 1.0);  // all lanes equal
    CHECK(ex02::lane_efficiency_of_loop(Trips(32, 0)) == 1.0);   // nothing runs, nothing waits

    Trips ramp(32);
    std::iota(ramp.begin(), ramp.end(), 0LL);
    // 0 + 1 + ... + 31 = 496 useful; 32 * 31 = 992 issued.
    CHECK(ex02::lane_efficiency_of_loop(ramp) == Approx(0.5));

    Trips one_slow(32, 1);
    one_slow[5] = 100;
    // 31 * 1 + 100 = 131 useful; 32 * 100 = 3200 issued.
    CHECK(ex02::lane_efficiency_of_loop(one_slow) == Approx(131.0 / 3200.0));
}

TEST_CASE("loop efficiency adds up warps, it does not average them", "[ch01][exercise][ex02]") {
    Trips two(64, 4);  // warp 0: every lane 4 -> 128 useful, 128 issued
    std::fill(two.begin() + 32, two.end(), 0);
    two[32] = 8;  // warp 1: lane 0 runs 8 -> 8 useful, 32 * 8 = 256 issued
    CHECK(ex02::lane_efficiency_of_loop(two) == Approx(136.0 / 384.0));

    Trips skewed(64, 0);
    std::fill(skewed.begin(), skewed.begin() + 32, 1);  // warp 0: 32 useful of 32 (1.0)
    skewed[40] = 1000;                                  // warp 1: 1000 useful of 32000 (1/32)
    // (32 + 1000) / (32 + 32000), not the mean (1 + 1/32) / 2 = 0.516.
    CHECK(ex02::lane_efficiency_of_loop(skewed) == Approx(1032.0 / 32032.0));
}

TEST_CASE("loop efficiency: a partial last warp still occupies 32 lanes",
          "[ch01][exercise][ex02]") {
    // 48 threads, 1 iteration each: 48 useful; 32 + 32 issued.
    CHECK(ex02::lane_efficiency_of_loop(Trips(48, 1)) == Approx(0.75));
    // One thread of 7 iterations: 7 of 32 * 7.
    CHECK(ex02::lane_efficiency_of_loop(Trips{7}) == Approx(1.0 / 32.0));
}

TEST_CASE("loop efficiency agrees with the chapter's model on full warps",
          "[ch01][exercise][ex02]") {
    std::mt19937 gen(Catch::rngSeed() + 0u);  // drawn each run (--rng-seed)
    std::uniform_int_distribution<long long> trips(0, 50);
    for (int round = 0; round < 200; ++round) {
        Trips warp(32);
        for (auto& t : warp) t = trips(gen);
        CAPTURE(round);
        REQUIRE(ex02::lane_efficiency_of_loop(warp) == Approx(ch01::loop_lane_efficiency(warp)));
    }
}

TEST_CASE("loop efficiency: sorting threads by trip count helps", "[ch01][exercise][ex02]") {
    std::mt19937 gen(Catch::rngSeed() + 1u);  // drawn each run (--rng-seed)
    std::uniform_int_distribution<long long> trips(0, 63);
    Trips counts(4096);
    for (auto& t : counts) t = trips(gen);
    const double unsorted = ex02::lane_efficiency_of_loop(counts);
    std::sort(counts.begin(), counts.end());
    const double sorted = ex02::lane_efficiency_of_loop(counts);
    CHECK(unsorted < 0.6);  // most warps hold a lane near 63 and one near 0
    CHECK(sorted > 0.95);   // each warp's lanes now run about as long as each other
}

TEST_CASE("loop efficiency rejects what is no launch", "[ch01][exercise][ex02]") {
    CHECK_THROWS_AS(ex02::lane_efficiency_of_loop(Trips{}), std::invalid_argument);
    CHECK_THROWS_AS(ex02::lane_efficiency_of_loop(Trips{3, -1, 2}), std::invalid_argument);
}

TEST_CASE("branch efficiency by hand", "[ch01][exercise][ex02]") {
    CHECK(ex02::branch_efficiency(0xffffffffu, 100, 200) == 1.0);  // all take A: only A runs
    CHECK(ex02::branch_efficiency(0x00000000u, 100, 200) == 1.0);  // all take B: only B runs
    // 16 lanes each way, equal costs: 32 * 100 needed, 32 * 200 held.
    CHECK(ex02::branch_efficiency(0x0000ffffu, 100, 100) == Approx(0.5));
    // Alternate lanes, 100 and 300: 16 * 100 + 16 * 300 = 6400 needed, 32 * 400 held.
    CHECK(ex02::branch_efficiency(0x55555555u, 100, 300) == Approx(0.5));
    // 8 lanes take A: 8 * 100 + 24 * 300 = 8000 needed, 32 * 400 = 12800 held.
    CHECK(ex02::branch_efficiency(0x000000ffu, 100, 300) == Approx(0.625));
    // Lane 0 alone takes the cheap path: 10 + 31 * 1000 needed, 32 * 1010 held.
    CHECK(ex02::branch_efficiency(0x00000001u, 10, 1000) == Approx(31010.0 / 32320.0));
    // The chapter's slow lane: one lane takes B (1000), 31 take A (10).
    CHECK(ex02::branch_efficiency(0xfffffffeu, 10, 1000) == Approx(1310.0 / 32320.0));
    CHECK(ex02::branch_efficiency(0x0f0f0f0fu, 0, 0) == 1.0);  // nothing held
    CHECK_THROWS_AS(ex02::branch_efficiency(0x1u, -1, 5), std::invalid_argument);
    CHECK_THROWS_AS(ex02::branch_efficiency(0x1u, 5, -1), std::invalid_argument);
}

TEST_CASE("branch efficiency agrees with the chapter's warp_cycles", "[ch01][exercise][ex02]") {
    std::mt19937 gen(Catch::rngSeed() + 2u);  // drawn each run (--rng-seed)
    std::uniform_int_distribution<long long> cost(1, 500);
    for (int round = 0; round < 500; ++round) {
        // A mix of sparse, dense and random masks.
        std::uint32_t mask = gen();
        if (round % 3 == 1) mask &= gen() & gen();
        if (round % 3 == 2) mask |= gen() | gen();
        const long long a = cost(gen);
        const long long b = cost(gen);
        std::vector<bool> takes_a(32);
        long long needed = 0;
        for (int lane = 0; lane < 32; ++lane) {
            takes_a[lane] = (mask >> lane) & 1u;
            needed += takes_a[lane] ? a : b;
        }
        const double want = static_cast<double>(needed) /
                            static_cast<double>(32 * ch01::warp_cycles(takes_a, a, b));
        CAPTURE(round, mask, a, b);
        REQUIRE(ex02::branch_efficiency(mask, a, b) == Approx(want));
    }
}

TEST_CASE("reorder: a stable partition by the predicate", "[ch01][exercise][ex02]") {
    const std::vector<int> values{5, 2, 8, 1, 9, 4};
    const auto big = [](int v) { return v > 4; };
    // 5, 8, 9 (indices 0, 2, 4) first, then 2, 1, 4 (indices 1, 3, 5).
    CHECK(ex02::reorder_for_uniform_warps(values, big) == Order{0, 2, 4, 1, 3, 5});
    CHECK(ex02::reorder_for_uniform_warps({}, big) == Order{});
    CHECK(ex02::reorder_for_uniform_warps({7, 7, 7}, big) == Order{0, 1, 2});
    CHECK(ex02::reorder_for_uniform_warps({1, 2, 3}, big) == Order{0, 1, 2});
}

TEST_CASE("reorder: a random 50/50 branch over 4096 items becomes uniform",
          "[ch01][exercise][ex02]") {
    std::mt19937 gen(Catch::rngSeed() + 3u);  // drawn each run (--rng-seed)
    std::vector<int> values(4096);
    for (auto& v : values) v = static_cast<int>(gen() % 1000);
    const auto even = [](int v) { return v % 2 == 0; };
    const std::size_t n_even =
        static_cast<std::size_t>(std::count_if(values.begin(), values.end(), even));
    REQUIRE(n_even > 1800);  // about half
    REQUIRE(n_even < 2300);

    const Order order = ex02::reorder_for_uniform_warps(values, even);
    REQUIRE(order.size() == values.size());
    Order sorted = order;
    std::sort(sorted.begin(), sorted.end());
    Order identity(values.size());
    std::iota(identity.begin(), identity.end(), std::size_t{0});
    REQUIRE(sorted == identity);  // a permutation: every item once

    // The items for which the predicate holds first, each run in its original order.
    const auto boundary = order.begin() + static_cast<std::ptrdiff_t>(n_even);
    CHECK(std::all_of(order.begin(), boundary, [&](std::size_t i) { return even(values[i]); }));
    CHECK(std::none_of(boundary, order.end(), [&](std::size_t i) { return even(values[i]); }));
    CHECK(std::is_sorted(order.begin(), boundary));
    CHECK(std::is_sorted(boundary, order.end()));

    // Thread t takes item order[t]: simulate the branch with the chapter's model.
    const auto takes_a_before = [&](long long t) {
        return even(values[static_cast<std::size_t>(t)]);
    };
    const auto takes_a_after = [&](long long t) {
        return even(values[order[static_cast<std::size_t>(t)]]);
    };
    const double before = ch01::simulate(takes_a_before, 4096, 32, 100, 100).efficiency();
    const double after = ch01::simulate(takes_a_after, 4096, 32, 100, 100).efficiency();
    CHECK(before < 0.6);   // nearly every warp runs both paths
    CHECK(after >= 0.99);  // 128 warps, at most one of them divergent: 128 / 129 or better
    const auto diverging = ch01::diverging_warps(4096, [&](int t) { return takes_a_after(t); });
    CHECK(diverging.size() <= 1);
}
