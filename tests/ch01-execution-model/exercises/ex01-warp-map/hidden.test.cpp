// Exercise 1.1, the warp map: the hidden test set (tools/grade runs it; the
// student bundle and the reader's edition leave it out). Edge cases the visible
// set does not name: warps that cross rows and slices of odd-sized blocks, and a
// threshold that falls inside a partial last warp.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "warp_map.hpp"
#include "warp_model.hpp"

using ex01::BlockShape;
using ex01::lane_of_thread;
using ex01::warp_of_thread;
using Warps = std::vector<int>;

TEST_CASE("warps cross rows and slices of odd-sized blocks", "[ch01][exercise][ex01][hidden]") {
    const BlockShape rows10{10, 10, 1};
    // (1, 3): 1 + 3 * 10 = 31, the last lane of warp 0; (2, 3): 32, the first of warp 1.
    CHECK(warp_of_thread(1, 3, 0, rows10) == 0);
    CHECK(lane_of_thread(1, 3, 0, rows10) == 31);
    CHECK(warp_of_thread(2, 3, 0, rows10) == 1);
    CHECK(lane_of_thread(2, 3, 0, rows10) == 0);

    const BlockShape column{1, 1, 64};
    // (0, 0, 33): 33 = 1 * 32 + 1: a block that varies only in z still fills warps in order.
    CHECK(warp_of_thread(0, 0, 33, column) == 1);
    CHECK(lane_of_thread(0, 0, 33, column) == 1);

    const BlockShape odd{3, 5, 7};
    // (2, 4, 6): 2 + 4 * 3 + 6 * 15 = 104 = 3 * 32 + 8, the last thread of 105.
    CHECK(warp_of_thread(2, 4, 6, odd) == 3);
    CHECK(lane_of_thread(2, 4, 6, odd) == 8);
    // 105 threads = 3 full warps + 9: 4 warps, 9 lanes of the last one busy.
    CHECK(ex01::warps_in_block(odd) == 4);
    CHECK(ex01::active_lanes_in_last_warp(odd) == 9);
}

TEST_CASE("a threshold inside a partial last warp", "[ch01][exercise][ex01][hidden]") {
    // 40 threads: warp 1 holds threads 32..39 in lanes 0..7.
    CHECK(ex01::diverging_warps_for_threshold(40, 39) == Warps{1});  // 32..38 take it, 39 not
    CHECK(ex01::diverging_warps_for_threshold(40, 33) == Warps{1});
    CHECK(ex01::diverging_warps_for_threshold(40, 40) == Warps{});  // all of 32..39 take it
    // 33 threads: warp 1 is thread 32 alone, and one thread cannot disagree with itself.
    CHECK(ex01::diverging_warps_for_threshold(33, 32) == Warps{});
    CHECK(ex01::diverging_warps_for_threshold(33, 1) == Warps{0});
    // A block smaller than a warp: 5 threads, threads 0..2 take it.
    CHECK(ex01::diverging_warps_for_threshold(5, 3) == Warps{0});
    CHECK(ex01::diverging_warps_for_threshold(1, 1) == Warps{});
}

TEST_CASE("blocks drawn each run, against the chapter's warp model",
          "[ch01][exercise][ex01][hidden]") {
    std::mt19937 gen(Catch::rngSeed() + 101u);  // drawn each run (--rng-seed)
    for (int i = 0; i < 60; ++i) {
        // Up to 1024 threads, as CUDA allows, in shapes of every kind.
        const int x = 1 + static_cast<int>(gen() % 64), y = 1 + static_cast<int>(gen() % 16),
                  z = 1 + static_cast<int>(gen() % std::max(1, 1024 / (x * y)));
        const BlockShape b{x, y, z};
        const ch01::Dim3 extent{x, y, z};
        const int threads = x * y * z;
        CAPTURE(x, y, z);
        CHECK(ex01::warps_in_block(b) == (threads + 31) / 32);
        CHECK(ex01::active_lanes_in_last_warp(b) == threads - 32 * ((threads - 1) / 32));
        for (int k = 0; k < 8; ++k) {
            const int tx = static_cast<int>(gen() % x), ty = static_cast<int>(gen() % y),
                      tz = static_cast<int>(gen() % z);
            const int linear = ch01::linear_thread_id({tx, ty, tz}, extent);
            CAPTURE(tx, ty, tz);
            CHECK(warp_of_thread(tx, ty, tz, b) == ch01::warp_of(linear));
            CHECK(lane_of_thread(tx, ty, tz, b) == linear % 32);
        }
        const int threshold = static_cast<int>(gen() % (threads + 40)) - 20;
        CAPTURE(threshold);
        CHECK(ex01::diverging_warps_for_threshold(threads, threshold) ==
              ch01::diverging_warps(threads, [threshold](int tid) { return tid < threshold; }));
    }
}
