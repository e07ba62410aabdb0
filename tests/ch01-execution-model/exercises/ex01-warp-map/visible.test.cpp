// Exercise 1.1, the warp map (exercises/ch01-execution-model/ex01-warp-map):
// hand-worked cases (the arithmetic is in the comments), then every small block
// shape against the chapter's warp model (code/ch01-execution-model/warp_model.hpp).
// The visible test set: shipped to students. The same tests are built against the
// starter (they must fail) and the solution (they must pass).
#include <catch2/catch.hpp>

#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "warp_map.hpp"
#include "warp_model.hpp"

using ex01::BlockShape;
using ex01::lane_of_thread;
using ex01::warp_of_thread;
using Warps = std::vector<int>;

TEST_CASE("16x16 block: x varies fastest, then y", "[ch01][exercise][ex01]") {
    const BlockShape b{16, 16, 1};
    // (3, 2): 3 + 2 * 16 = 35 = 1 * 32 + 3.
    CHECK(warp_of_thread(3, 2, 0, b) == 1);
    CHECK(lane_of_thread(3, 2, 0, b) == 3);
    // (0, 0): thread 0.
    CHECK(warp_of_thread(0, 0, 0, b) == 0);
    CHECK(lane_of_thread(0, 0, 0, b) == 0);
    // (15, 1): 15 + 16 = 31, the last lane of warp 0.
    CHECK(warp_of_thread(15, 1, 0, b) == 0);
    CHECK(lane_of_thread(15, 1, 0, b) == 31);
    // (0, 2): 32, the first lane of warp 1: two rows of 16 make one warp.
    CHECK(warp_of_thread(0, 2, 0, b) == 1);
    CHECK(lane_of_thread(0, 2, 0, b) == 0);
    // (8, 5): 8 + 80 = 88 = 2 * 32 + 24.
    CHECK(warp_of_thread(8, 5, 0, b) == 2);
    CHECK(lane_of_thread(8, 5, 0, b) == 24);
    // (15, 15): 255, the last thread.
    CHECK(warp_of_thread(15, 15, 0, b) == 7);
    CHECK(lane_of_thread(15, 15, 0, b) == 31);
    // 256 threads: 8 full warps.
    CHECK(ex01::warps_in_block(b) == 8);
    CHECK(ex01::active_lanes_in_last_warp(b) == 32);
}

TEST_CASE("3-D blocks: z varies slowest", "[ch01][exercise][ex01]") {
    const BlockShape cube{8, 8, 4};
    // (5, 3, 2): 5 + 3 * 8 + 2 * 64 = 157 = 4 * 32 + 29.
    CHECK(warp_of_thread(5, 3, 2, cube) == 4);
    CHECK(lane_of_thread(5, 3, 2, cube) == 29);
    CHECK(ex01::warps_in_block(cube) == 8);
    CHECK(ex01::active_lanes_in_last_warp(cube) == 32);

    const BlockShape thousand{10, 10, 10};
    // (0, 0, 1): 100 = 3 * 32 + 4.
    CHECK(warp_of_thread(0, 0, 1, thousand) == 3);
    CHECK(lane_of_thread(0, 0, 1, thousand) == 4);
    // (9, 9, 9): 999 = 31 * 32 + 7.
    CHECK(warp_of_thread(9, 9, 9, thousand) == 31);
    CHECK(lane_of_thread(9, 9, 9, thousand) == 7);
    // 1000 threads = 31 full warps + 8 threads: 32 warps, the last with 8 lanes busy.
    CHECK(ex01::warps_in_block(thousand) == 32);
    CHECK(ex01::active_lanes_in_last_warp(thousand) == 8);

    const BlockShape column{1, 32, 2};
    // (0, 31, 1): 0 + 31 * 1 + 1 * 32 = 63 = 1 * 32 + 31.
    CHECK(warp_of_thread(0, 31, 1, column) == 1);
    CHECK(lane_of_thread(0, 31, 1, column) == 31);
    // (0, 0, 1): 32.
    CHECK(warp_of_thread(0, 0, 1, column) == 1);
    CHECK(lane_of_thread(0, 0, 1, column) == 0);
}

TEST_CASE("a partial last warp still occupies a whole warp", "[ch01][exercise][ex01]") {
    const BlockShape line48{48, 1, 1};
    // 48 = 32 + 16.
    CHECK(ex01::warps_in_block(line48) == 2);
    CHECK(ex01::active_lanes_in_last_warp(line48) == 16);
    CHECK(warp_of_thread(31, 0, 0, line48) == 0);
    CHECK(lane_of_thread(31, 0, 0, line48) == 31);
    CHECK(warp_of_thread(47, 0, 0, line48) == 1);
    CHECK(lane_of_thread(47, 0, 0, line48) == 15);

    const BlockShape rect48{6, 8, 1};
    // (5, 5): 5 + 5 * 6 = 35 = 1 * 32 + 3; 48 threads again.
    CHECK(warp_of_thread(5, 5, 0, rect48) == 1);
    CHECK(lane_of_thread(5, 5, 0, rect48) == 3);
    CHECK(ex01::warps_in_block(rect48) == 2);
    CHECK(ex01::active_lanes_in_last_warp(rect48) == 16);

    CHECK(ex01::warps_in_block({1, 1, 1}) == 1);  // one thread, one warp, one busy lane
    CHECK(ex01::active_lanes_in_last_warp({1, 1, 1}) == 1);
    CHECK(ex01::warps_in_block({32, 1, 1}) == 1);  // exactly full: 32 busy lanes, not 0
    CHECK(ex01::active_lanes_in_last_warp({32, 1, 1}) == 32);
    CHECK(ex01::warps_in_block({33, 1, 1}) == 2);  // one thread more: a new warp with 1 lane
    CHECK(ex01::active_lanes_in_last_warp({33, 1, 1}) == 1);
    CHECK(ex01::warps_in_block({1024, 1, 1}) == 32);
    CHECK(ex01::active_lanes_in_last_warp({1024, 1, 1}) == 32);
}

TEST_CASE("if (threadIdx.x < threshold) in a block of 256 threads", "[ch01][exercise][ex01]") {
    // Threads 0..63 take it, 64..255 do not: the change falls between warps 1 and 2.
    CHECK(ex01::diverging_warps_for_threshold(256, 64) == Warps{});
    // Threads 0..47 take it: warp 1 (threads 32..63) holds both sides.
    CHECK(ex01::diverging_warps_for_threshold(256, 48) == Warps{1});
    CHECK(ex01::diverging_warps_for_threshold(256, 0) == Warps{});    // nobody takes it
    CHECK(ex01::diverging_warps_for_threshold(256, 256) == Warps{});  // everybody does
    CHECK(ex01::diverging_warps_for_threshold(256, 300) == Warps{});
    CHECK(ex01::diverging_warps_for_threshold(256, -5) == Warps{});
    CHECK(ex01::diverging_warps_for_threshold(256, 1) == Warps{0});    // thread 0 alone
    CHECK(ex01::diverging_warps_for_threshold(256, 255) == Warps{7});  // all but thread 255
    CHECK(ex01::diverging_warps_for_threshold(256, 224) == Warps{});   // 224 = 7 * 32
}

TEST_CASE("threshold in a block of 48 threads: only lanes with a thread count",
          "[ch01][exercise][ex01]") {
    // Warp 1 holds threads 32..47 (lanes 16..31 are empty).
    CHECK(ex01::diverging_warps_for_threshold(48, 40) == Warps{1});  // 32..39 take it, 40..47 not
    CHECK(ex01::diverging_warps_for_threshold(48, 33) == Warps{1});
    CHECK(ex01::diverging_warps_for_threshold(48, 32) == Warps{});  // between the warps
    CHECK(ex01::diverging_warps_for_threshold(48, 48) == Warps{});  // 32..47 all take it
    CHECK(ex01::diverging_warps_for_threshold(48, 50) == Warps{});  // 48, 49 do not exist
    CHECK(ex01::diverging_warps_for_threshold(48, 20) == Warps{0});
}

TEST_CASE("rejects what is not a block, or not one of its threads", "[ch01][exercise][ex01]") {
    const BlockShape b{16, 16, 1};
    CHECK_THROWS_AS(warp_of_thread(16, 0, 0, b), std::invalid_argument);  // x runs 0..15
    CHECK_THROWS_AS(lane_of_thread(0, 16, 0, b), std::invalid_argument);
    CHECK_THROWS_AS(warp_of_thread(0, 0, 1, b), std::invalid_argument);  // z runs 0..0
    CHECK_THROWS_AS(lane_of_thread(-1, 0, 0, b), std::invalid_argument);
    CHECK_THROWS_AS(ex01::warps_in_block({0, 1, 1}), std::invalid_argument);
    CHECK_THROWS_AS(ex01::active_lanes_in_last_warp({4, 0, 4}), std::invalid_argument);
    CHECK_THROWS_AS(warp_of_thread(0, 0, 0, {1, 1, -2}), std::invalid_argument);
    CHECK_THROWS_AS(ex01::diverging_warps_for_threshold(0, 5), std::invalid_argument);
}

namespace {

// The first disagreement with the chapter's model over a block, or "" when there
// is none. The threads asked about: both sides of every warp boundary, the last
// thread, and three drawn at random (from the run's seed, Catch2's --rng-seed).
std::string mismatch_for_shape(BlockShape b, std::mt19937& gen) {
    const ch01::Dim3 extent{b.x, b.y, b.z};
    const int threads = b.x * b.y * b.z;
    const std::string shape =
        "block " + std::to_string(b.x) + "x" + std::to_string(b.y) + "x" + std::to_string(b.z);
    if (ex01::warps_in_block(b) != ch01::warps_per_block(threads))
        return shape + ": warps_in_block";
    const int idle = ch01::idle_lanes_in_last_warp(threads);
    if (ex01::active_lanes_in_last_warp(b) != ex01::kWarpWidth - idle)
        return shape + ": active_lanes_in_last_warp";
    std::vector<int> asked;
    for (int t = 0; t < threads; ++t)
        if (t % ex01::kWarpWidth == 0 || t % ex01::kWarpWidth == ex01::kWarpWidth - 1 ||
            t == threads - 1)
            asked.push_back(t);
    std::uniform_int_distribution<int> any(0, threads - 1);
    for (int k = 0; k < 3; ++k) asked.push_back(any(gen));
    for (const int t : asked) {
        const int x = t % b.x, y = (t / b.x) % b.y, z = t / (b.x * b.y);
        const int linear = ch01::linear_thread_id({x, y, z}, extent);
        const std::string thread = shape + ", thread (" + std::to_string(x) + ", " +
                                   std::to_string(y) + ", " + std::to_string(z) + ")";
        if (warp_of_thread(x, y, z, b) != ch01::warp_of(linear)) return thread + ": warp";
        if (lane_of_thread(x, y, z, b) != linear % ex01::kWarpWidth) return thread + ": lane";
    }
    return "";
}

}  // namespace

TEST_CASE("agrees with the chapter's warp model on every small block", "[ch01][exercise][ex01]") {
    std::mt19937 gen(Catch::rngSeed());
    std::string first_mismatch;
    for (int z = 1; z <= 3 && first_mismatch.empty(); ++z)
        for (int y = 1; y <= 6 && first_mismatch.empty(); ++y)
            for (int x = 1; x <= 40 && first_mismatch.empty(); ++x)
                first_mismatch = mismatch_for_shape({x, y, z}, gen);
    CHECK(first_mismatch == "");

    // Thresholds on both sides of each warp boundary and of the block's end, and
    // three drawn at random.
    first_mismatch.clear();
    for (int threads = 1; threads <= 160 && first_mismatch.empty(); ++threads) {
        std::vector<int> thresholds{-2, -1, 0, 1, threads - 1, threads, threads + 1, threads + 40};
        for (int w = ex01::kWarpWidth; w < threads; w += ex01::kWarpWidth)
            thresholds.insert(thresholds.end(), {w - 1, w, w + 1});
        std::uniform_int_distribution<int> any(-2, threads + 40);
        for (int k = 0; k < 3; ++k) thresholds.push_back(any(gen));
        for (const int threshold : thresholds) {
            const auto want =
                ch01::diverging_warps(threads, [threshold](int tid) { return tid < threshold; });
            if (ex01::diverging_warps_for_threshold(threads, threshold) != want) {
                first_mismatch = "block of " + std::to_string(threads) + " threads, threshold " +
                                 std::to_string(threshold);
                break;
            }
        }
    }
    CHECK(first_mismatch == "");
}
