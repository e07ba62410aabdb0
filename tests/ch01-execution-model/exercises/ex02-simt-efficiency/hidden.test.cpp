// Exercise 1.2, SIMT efficiency: the hidden test set (tools/grade runs it; the
// student bundle and the reader's edition leave it out). Edge cases the visible
// set does not name: counts and costs beyond 32 bits, a slow lane alone in a
// partial last warp, and the reordering of a short mixed list.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "simt_efficiency.hpp"

using Trips = std::vector<long long>;
using Order = std::vector<std::size_t>;

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
