// The SIMT warp model (code/ch01-execution-model/warp_model.hpp) against
// expectations worked out by hand in the comments.
#include <catch2/catch.hpp>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "warp_model.hpp"

using ch01::Dim3;

TEST_CASE("warp_cycles pays each path some lane takes, once", "[ch01][warp-model]") {
    const std::vector<bool> all_a(32, true);
    const std::vector<bool> all_b(32, false);
    std::vector<bool> one_b(32, true);
    one_b[17] = false;
    std::vector<bool> one_a(32, false);
    one_a[0] = true;

    CHECK(ch01::warp_cycles(all_a, 100, 200) == 100);  // only A runs
    CHECK(ch01::warp_cycles(all_b, 100, 200) == 200);  // only B runs
    CHECK(ch01::warp_cycles(one_b, 100, 200) == 300);  // one lane is enough to add B
    CHECK(ch01::warp_cycles(one_a, 100, 200) == 300);  // and one to add A
    CHECK(ch01::warp_cycles(one_b, 10, 1000) == 1010);
    CHECK(ch01::warp_cycles({true}, 7, 9) == 7);  // a 1-lane warp never diverges
    CHECK(ch01::warp_cycles({false}, 7, 9) == 9);
    CHECK(ch01::warp_cycles({}, 7, 9) == 0);  // no lanes, no paths
}

TEST_CASE("simulate reproduces the chapter's rows", "[ch01][warp-model]") {
    // 4096 threads = 128 warps of 32.
    SECTION("uniform: 128 warps x 32 lanes x 100 cycles") {
        const auto c = ch01::simulate([](long long) { return true; }, 4096, 32, 100, 100);
        CHECK(c.total == 409'600);
        CHECK(c.useful == 409'600);
        CHECK(c.efficiency() == 1.0);
    }
    SECTION("split by lane: every warp runs both paths, 200 cycles per lane") {
        const auto c = ch01::simulate([](long long i) { return i % 2 == 0; }, 4096, 32, 100, 100);
        CHECK(c.total == 819'200);
        CHECK(c.useful == 409'600);
        CHECK(c.efficiency() == 0.5);
    }
    SECTION("split by warp: uniform warps, nothing wasted") {
        const auto c =
            ch01::simulate([](long long i) { return (i / 32) % 2 == 0; }, 4096, 32, 100, 300);
        // 64 warps take A (100), 64 take B (300): (64*100 + 64*300) * 32.
        CHECK(c.total == 819'200);
        CHECK(c.useful == 819'200);
    }
    SECTION("one slow lane per warp: (10 + 1000) x 32 per warp, but 31 x 10 + 1000 useful") {
        const auto c = ch01::simulate([](long long i) { return i % 32 != 0; }, 4096, 32, 10, 1000);
        CHECK(c.total == 128LL * 1010 * 32);  // 4,136,960
        CHECK(c.useful == 128LL * 1310);      // 167,680
        CHECK(c.efficiency() == Approx(1310.0 / (1010.0 * 32)));
    }
}

TEST_CASE("simulate runs whole warps only, like n // WARP", "[ch01][warp-model]") {
    SECTION("1000 threads are 31 warps; threads 992..999 never run") {
        long long highest = -1;
        const auto c = ch01::simulate(
            [&highest](long long i) {
                highest = std::max(highest, i);
                return true;
            },
            1000, 32, 100, 100);
        CHECK(highest == 991);
        CHECK(c.total == 31LL * 32 * 100);
        CHECK(c.useful == 31LL * 32 * 100);
    }
    SECTION("fewer threads than a warp: nothing runs, efficiency undefined") {
        const auto c = ch01::simulate([](long long) { return true; }, 31, 32, 100, 100);
        CHECK(c.total == 0);
        CHECK(c.useful == 0);
        CHECK_THROWS_AS(c.efficiency(), std::domain_error);
    }
    SECTION("bad arguments") {
        CHECK_THROWS_AS(ch01::simulate([](long long) { return true; }, 64, 0, 1, 1),
                        std::invalid_argument);
        CHECK_THROWS_AS(ch01::simulate([](long long) { return true; }, -1, 32, 1, 1),
                        std::invalid_argument);
    }
}

TEST_CASE("simulate with other warp widths", "[ch01][warp-model]") {
    SECTION("width 64: a split on i // 32 now splits every warp") {
        const auto c =
            ch01::simulate([](long long i) { return (i / 32) % 2 == 0; }, 4096, 64, 100, 100);
        CHECK(c.total == 64LL * 200 * 64);  // 64 warps, both paths, 64 lanes
        CHECK(c.useful == 409'600);
        CHECK(c.efficiency() == 0.5);
    }
    SECTION("width 1: a lane is a warp, so nothing is ever wasted") {
        const auto c = ch01::simulate([](long long i) { return i % 3 == 0; }, 300, 1, 10, 1000);
        CHECK(c.total == c.useful);
        CHECK(c.useful == 100LL * 10 + 200LL * 1000);
    }
    SECTION("width 4, one lane in 4 slow") {
        const auto c = ch01::simulate([](long long i) { return i % 4 != 0; }, 16, 4, 10, 1000);
        CHECK(c.total == 4LL * 1010 * 4);
        CHECK(c.useful == 4LL * (3 * 10 + 1000));
    }
}

TEST_CASE("LaneCycles::efficiency is useful over total", "[ch01][warp-model]") {
    CHECK(ch01::LaneCycles{200, 50}.efficiency() == 0.25);
    CHECK(ch01::LaneCycles{3, 3}.efficiency() == 1.0);
    CHECK_THROWS_AS((ch01::LaneCycles{0, 0}.efficiency()), std::domain_error);
}

TEST_CASE("threads map to warps in consecutive groups", "[ch01][warp-model]") {
    CHECK(ch01::warp_of(0) == 0);
    CHECK(ch01::warp_of(31) == 0);
    CHECK(ch01::warp_of(32) == 1);
    CHECK(ch01::warp_of(63) == 1);
    CHECK(ch01::warp_of(64) == 2);
    CHECK(ch01::warp_of(1023) == 31);
    CHECK(ch01::warp_of(63, 64) == 0);
    CHECK(ch01::warp_of(64, 64) == 1);
    CHECK_THROWS_AS(ch01::warp_of(-1), std::invalid_argument);
    CHECK_THROWS_AS(ch01::warp_of(5, 0), std::invalid_argument);
}

TEST_CASE("a block occupies whole warps", "[ch01][warp-model]") {
    CHECK(ch01::warps_per_block(256) == 8);
    CHECK(ch01::warps_per_block(32) == 1);
    CHECK(ch01::warps_per_block(33) == 2);   // one thread starts a new warp
    CHECK(ch01::warps_per_block(100) == 4);  // 3 full warps and 4 lanes of a fourth
    CHECK(ch01::warps_per_block(1) == 1);
    CHECK(ch01::warps_per_block(0) == 0);
    CHECK(ch01::warps_per_block(100, 64) == 2);
    CHECK(ch01::warps_per_block(1024, 64) == 16);

    CHECK(ch01::idle_lanes_in_last_warp(100) == 28);  // 100 = 3 * 32 + 4
    CHECK(ch01::idle_lanes_in_last_warp(256) == 0);
    CHECK(ch01::idle_lanes_in_last_warp(33) == 31);
    CHECK(ch01::idle_lanes_in_last_warp(1) == 31);
    CHECK(ch01::idle_lanes_in_last_warp(0) == 0);
    CHECK(ch01::idle_lanes_in_last_warp(100, 64) == 28);  // 100 = 64 + 36
    CHECK(ch01::idle_lanes_in_last_warp(96, 64) == 32);
    CHECK_THROWS_AS(ch01::warps_per_block(-1), std::invalid_argument);
}

TEST_CASE("linear_thread_id orders x fastest, then y, then z", "[ch01][warp-model]") {
    const Dim3 block{8, 4, 2};
    CHECK(ch01::linear_thread_id({0, 0, 0}, block) == 0);
    CHECK(ch01::linear_thread_id({1, 0, 0}, block) == 1);
    CHECK(ch01::linear_thread_id({0, 1, 0}, block) == 8);
    CHECK(ch01::linear_thread_id({0, 0, 1}, block) == 32);
    CHECK(ch01::linear_thread_id({3, 2, 1}, block) == 3 + 2 * 8 + 1 * 32);
    CHECK(ch01::linear_thread_id({7, 3, 1}, block) == 63);  // the last thread
    CHECK(ch01::linear_thread_id({5, 0, 0}, {128, 1, 1}) == 5);
    // In a 16x16 block, rows 0-1 form warp 0 and rows 2-3 warp 1.
    CHECK(ch01::warp_of(ch01::linear_thread_id({15, 1, 0}, {16, 16, 1})) == 0);
    CHECK(ch01::warp_of(ch01::linear_thread_id({0, 2, 0}, {16, 16, 1})) == 1);
}

TEST_CASE("diverging_warps finds the warps whose lanes disagree", "[ch01][warp-model]") {
    using V = std::vector<int>;
    SECTION("check yourself 2: threadIdx.x < 64 in 256 threads is uniform, < 48 splits warp 1") {
        CHECK(ch01::diverging_warps(256, [](int t) { return t < 64; }) == V{});
        CHECK(ch01::diverging_warps(256, [](int t) { return t < 48; }) == V{1});
    }
    SECTION("per-lane conditions split every warp; per-warp conditions none") {
        CHECK(ch01::diverging_warps(128, [](int t) { return t % 2 == 0; }) == V{0, 1, 2, 3});
        CHECK(ch01::diverging_warps(128, [](int t) { return (t / 32) % 2 == 0; }) == V{});
        CHECK(ch01::diverging_warps(96, [](int t) { return t == 40 || t == 95; }) == V{1, 2});
    }
    SECTION("a partial last warp is judged on its active lanes only") {
        // 100 threads: warp 3 holds threads 96..99 only.
        CHECK(ch01::diverging_warps(100, [](int t) { return t < 100; }) == V{});
        CHECK(ch01::diverging_warps(100, [](int t) { return t < 96; }) == V{});
        CHECK(ch01::diverging_warps(100, [](int t) { return t < 98; }) == V{3});
        int highest = -1;
        ch01::diverging_warps(100, [&highest](int t) {
            highest = std::max(highest, t);
            return true;
        });
        CHECK(highest == 99);  // lanes 100..127 do not exist
    }
    SECTION("a 1-thread block and an empty block never diverge") {
        CHECK(ch01::diverging_warps(1, [](int t) { return t == 0; }) == V{});
        CHECK(ch01::diverging_warps(0, [](int) { return true; }) == V{});
    }
    SECTION("warp width 64") {
        CHECK(ch01::diverging_warps(
                  256, [](int t) { return t < 48; }, 64) == V{0});
        CHECK(ch01::diverging_warps(
                  256, [](int t) { return t < 64; }, 64) == V{});
        CHECK(ch01::diverging_warps(
                  256, [](int t) { return t < 96; }, 64) == V{1});
        CHECK(ch01::diverging_warps(
                  256, [](int t) { return (t / 32) % 2 == 0; }, 64) == V{0, 1, 2, 3});
        CHECK(ch01::diverging_warps(
                  100, [](int t) { return t < 99; }, 64) == V{1});
    }
}

TEST_CASE("a loop runs as long as its slowest lane", "[ch01][warp-model]") {
    CHECK(ch01::loop_lane_efficiency({5, 5, 5, 5}) == 1.0);
    CHECK(ch01::loop_lane_efficiency({1, 2, 3, 4}) == 10.0 / 16.0);
    CHECK(ch01::loop_lane_efficiency({0, 0, 0, 10}) == 0.25);
    std::vector<long long> one_slow(32, 1);
    one_slow[7] = 100;
    CHECK(ch01::loop_lane_efficiency(one_slow) == Approx(131.0 / 3200.0));
    CHECK(ch01::loop_lane_efficiency({0, 0, 0}) == 1.0);  // defined: nobody waits
    CHECK(ch01::loop_lane_efficiency({3}) == 1.0);
    CHECK_THROWS_AS(ch01::loop_lane_efficiency({}), std::invalid_argument);
    CHECK_THROWS_AS(ch01::loop_lane_efficiency({1, -1}), std::invalid_argument);
}
