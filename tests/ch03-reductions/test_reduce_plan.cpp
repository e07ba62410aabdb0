// The CPU side of chapter 3's reductions (code/ch03-reductions/reduce_plan.hpp,
// reduce_bounds.hpp)
// against expectations worked out by hand in the comments.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "reduce_bounds.hpp"
#include "reduce_plan.hpp"

using ch03::pass;
using ch03::step;
using ch03::tuning;

namespace {

std::vector<float> random_floats(std::size_t n, std::uint32_t seed, bool whole) {
    std::mt19937 gen(seed);
    std::vector<float> x(n);
    for (float& v : x) v = whole ? ch03::small_int_float(gen()) : ch03::unit_float(gen());
    return x;
}

}  // namespace

TEST_CASE("unit_float maps every 32-bit value into (0, 1], exactly", "[ch03][inputs]") {
    CHECK(ch03::unit_float(0u) == 0x1p-24f);       // (0 >> 8) + 1 = 1, times 2^-24
    CHECK(ch03::unit_float(0xFFu) == 0x1p-24f);    // the low 8 bits are dropped
    CHECK(ch03::unit_float(0x100u) == 0x1p-23f);   // 2 * 2^-24
    CHECK(ch03::unit_float(0xFFFFFFFFu) == 1.0f);  // 2^24 * 2^-24
    std::mt19937 gen(1);
    for (int i = 0; i < 10000; ++i) {
        const std::uint32_t r = gen();
        const float v = ch03::unit_float(r);
        REQUIRE(v > 0.0f);
        REQUIRE(v <= 1.0f);
        // A whole multiple of 2^-24: exact in float, so the host copy is the input.
        REQUIRE(static_cast<double>(v) * 16777216.0 == static_cast<double>((r >> 8) + 1u));
    }
}

TEST_CASE("small_int_float gives the whole numbers -8..-1 and 1..8, evenly", "[ch03][inputs]") {
    CHECK(ch03::small_int_float(0u) == -8.0f);
    CHECK(ch03::small_int_float(7u) == -1.0f);
    CHECK(ch03::small_int_float(8u) == 1.0f);
    CHECK(ch03::small_int_float(15u) == 8.0f);
    CHECK(ch03::small_int_float(0xFFFFFFF0u) == -8.0f);  // only the low 4 bits count
    long long sum = 0;
    std::set<float> seen;
    for (std::uint32_t r = 0; r < 16; ++r) {
        const float v = ch03::small_int_float(r);
        CHECK(v != 0.0f);
        seen.insert(v);
        sum += static_cast<long long>(v);
    }
    CHECK(seen.size() == 16);  // each of the 16 values once
    CHECK(sum == 0);           // symmetric: mean 0, so the sums stay small (a random walk)
}

TEST_CASE("steps are listed once each, in the chapter's order", "[ch03][plan]") {
    REQUIRE(ch03::steps.size() == 8);
    std::set<std::string> keys;
    for (std::size_t k = 0; k < ch03::steps.size(); ++k) {
        CHECK(static_cast<std::size_t>(ch03::steps[k].id) == k);
        CHECK(ch03::steps[k].title.substr(0, 1) == std::to_string(k + 1));
        CHECK(ch03::steps[k].title.size() <= 27);  // the first column of reduce's tables
        keys.insert(std::string(ch03::steps[k].key));
        CHECK(ch03::info(ch03::steps[k].id).key == ch03::steps[k].key);
    }
    CHECK(keys.size() == 8);
    CHECK(ch03::info(step::one_pass).key == "one_pass");
}

TEST_CASE("values_per_block: one per thread, then two per thread", "[ch03][plan]") {
    CHECK(ch03::values_per_block(step::interleaved_divergent) == 256);
    CHECK(ch03::values_per_block(step::interleaved_strided) == 256);
    CHECK(ch03::values_per_block(step::sequential) == 256);
    CHECK(ch03::values_per_block(step::first_add) == 512);
    CHECK(ch03::values_per_block(step::last_warp) == 512);
    CHECK(ch03::values_per_block(step::warp_block) == 512);
    CHECK_THROWS_AS(ch03::values_per_block(step::two_pass), std::invalid_argument);
    CHECK_THROWS_AS(ch03::values_per_block(step::one_pass), std::invalid_argument);
}

TEST_CASE("tree_passes: pass after pass until one value is left", "[ch03][plan]") {
    using v = std::vector<pass>;
    CHECK(ch03::tree_passes(0, 256) == v{{0, 1}});  // one block writes the 0
    CHECK(ch03::tree_passes(1, 256) == v{{1, 1}});
    CHECK(ch03::tree_passes(256, 256) == v{{256, 1}});
    CHECK(ch03::tree_passes(257, 256) == v{{257, 2}, {2, 1}});
    CHECK(ch03::tree_passes(65536, 256) == v{{65536, 256}, {256, 1}});
    // 2^28 / 512 = 2^19 blocks, then 1024, then 2, then 1: four launches.
    CHECK(ch03::tree_passes(std::size_t{1} << 28, 512) ==
          v{{std::size_t{1} << 28, std::size_t{1} << 19},
            {std::size_t{1} << 19, 1024},
            {1024, 2},
            {2, 1}});
    CHECK_THROWS_AS(ch03::tree_passes(10, 1), std::invalid_argument);

    std::mt19937_64 gen(3);
    for (int i = 0; i < 1000; ++i) {
        const std::size_t n = gen() % (std::size_t{1} << 30);
        const std::size_t per = 2 + gen() % 1023;
        const auto plan = ch03::tree_passes(n, per);
        REQUIRE(plan.front().n_in == n);
        REQUIRE(plan.back().blocks == 1);
        for (std::size_t k = 0; k < plan.size(); ++k) {
            REQUIRE(plan[k].blocks == std::max<std::size_t>(1, (plan[k].n_in + per - 1) / per));
            if (k > 0) REQUIRE(plan[k].n_in == plan[k - 1].blocks);
            if (k + 1 < plan.size()) REQUIRE(plan[k].blocks > 1);
        }
    }
}

TEST_CASE("check_tuning names the field out of range", "[ch03][plan]") {
    CHECK_NOTHROW(ch03::check_tuning(tuning{}));
    CHECK_NOTHROW(ch03::check_tuning(tuning{64, 1, 1}));
    CHECK_NOTHROW(ch03::check_tuning(tuning{1024, 32, 8}));
    CHECK_NOTHROW(ch03::check_tuning(tuning{256, 64, 4}));  // more than fit: blocks run in waves
    CHECK_THROWS_WITH(ch03::check_tuning(tuning{100, 4, 4}),
                      Catch::Contains("threads") && Catch::Contains("100"));
    CHECK_THROWS_WITH(ch03::check_tuning(tuning{32, 4, 4}), Catch::Contains("threads"));
    CHECK_THROWS_WITH(ch03::check_tuning(tuning{2048, 4, 4}), Catch::Contains("threads"));
    CHECK_THROWS_WITH(ch03::check_tuning(tuning{256, 0, 4}), Catch::Contains("blocks per SM"));
    CHECK_THROWS_WITH(ch03::check_tuning(tuning{256, 65, 4}),
                      Catch::Contains("blocks per SM") && Catch::Contains("65"));
    CHECK_THROWS_WITH(ch03::check_tuning(tuning{256, 4, 3}),
                      Catch::Contains("unroll") && Catch::Contains("3"));
}

TEST_CASE("stride_blocks: SMs x blocks per SM, but no block without a tile", "[ch03][plan]") {
    const tuning t{256, 4, 4};  // a block takes 256 * 4 float4s = 4096 floats per round
    CHECK(ch03::stride_blocks(0, t, 132) == 1);
    CHECK(ch03::stride_blocks(1, t, 132) == 1);
    CHECK(ch03::stride_blocks(4096, t, 132) == 1);
    CHECK(ch03::stride_blocks(4097, t, 132) == 2);
    CHECK(ch03::stride_blocks(std::size_t{1} << 16, t, 132) == 16);
    CHECK(ch03::stride_blocks(std::size_t{1} << 20, t, 132) == 256);
    CHECK(ch03::stride_blocks(std::size_t{1} << 24, t, 132) == 528);  // 132 SMs x 4
    CHECK(ch03::stride_blocks(std::size_t{1} << 28, t, 132) == 528);
    CHECK(ch03::stride_blocks(std::size_t{1} << 28, tuning{1024, 2, 1}, 132) == 264);
    // 256 x 4 float4s = 16 KiB per tile: 2^24 floats are 4096 tiles, one per
    // block with up to 32 blocks per SM (4224 >= 4096), as CUB's main kernel runs.
    CHECK(ch03::tile_count(std::size_t{1} << 24, t) == 4096);
    CHECK(ch03::stride_blocks(std::size_t{1} << 24, tuning{256, 32, 4}, 132) == 4096);
    CHECK(ch03::stride_blocks(std::size_t{1} << 28, tuning{256, 64, 4}, 132) == 8448);
    CHECK(ch03::tile_count(0, t) == 0);
    CHECK(ch03::tile_count(1, t) == 1);
    CHECK(ch03::tile_count(4096, t) == 1);
    CHECK(ch03::tile_count(4097, t) == 2);
    CHECK_THROWS_AS(ch03::stride_blocks(100, t, 0), std::invalid_argument);
    CHECK_THROWS_AS(ch03::stride_blocks(100, tuning{256, 4, 5}, 132), std::invalid_argument);
}

TEST_CASE("split_float4 covers every float once, with aligned float4s", "[ch03][plan]") {
    // An array starting 0, 4, 8 or 12 bytes past a 16-byte boundary.
    CHECK(ch03::split_float4(0x1000, 10).head == 0);
    CHECK(ch03::split_float4(0x1004, 10).head == 3);  // x[0..3) up to 0x1010
    CHECK(ch03::split_float4(0x100C, 10).head == 1);
    CHECK(ch03::split_float4(0x1004, 2).head == 2);  // fewer floats than the gap
    CHECK(ch03::split_float4(0x1004, 2).vectors == 0);
    for (std::uintptr_t address = 0x1000; address < 0x1010; address += 4) {
        for (std::size_t n = 0; n < 70; ++n) {
            const auto s = ch03::split_float4(address, n);
            INFO("address " << address << ", n " << n);
            REQUIRE(s.head < 4);
            REQUIRE(s.head <= n);
            REQUIRE(s.tail == s.head + 4 * s.vectors);
            REQUIRE(s.tail <= n);
            REQUIRE(n - s.tail < 4);
            if (s.vectors > 0) REQUIRE((address + 4 * s.head) % 16 == 0);
            if (n >= s.head + 4) REQUIRE(s.vectors > 0);  // no whole float4 left out
        }
    }
}

TEST_CASE("summation_depth: the most roundings any value meets", "[ch03][float]") {
    const tuning t{256, 4, 4};
    const std::size_t m16 = std::size_t{1} << 16, m28 = std::size_t{1} << 28;
    // Steps 1-3: log2(256) = 8 levels per pass; 2^16 takes 2 passes, 2^28 four.
    CHECK(ch03::summation_depth(step::interleaved_divergent, m16, t, 132) == 16);
    CHECK(ch03::summation_depth(step::sequential, m28, t, 132) == 32);
    CHECK(ch03::summation_depth(step::sequential, 0, t, 132) == 8);
    // Steps 4-5: one more add at the load: 9 per pass; step 6: 1 + 10 (block_sum).
    CHECK(ch03::summation_depth(step::first_add, m28, t, 132) == 36);
    CHECK(ch03::summation_depth(step::last_warp, m16, t, 132) == 18);
    CHECK(ch03::summation_depth(step::warp_block, m28, t, 132) == 44);
    // Steps 7 and 8 on 2^28 with 528 blocks of 256: thread 0 adds float4s 0,
    // 4S, 8S, ... (S = 135168 threads) into its first accumulator:
    // ceil(2^26 / 540672) = 125; with block_sum, 2 + 125 + 2 + 4 + 10 = 143.
    // Step 7's second launch, one block: ceil(528 / 256) + 10 = 13 more;
    // step 8's last warp: ceil(528 / 32) + 5 = 22 more.
    CHECK(ch03::summation_depth(step::two_pass, m28, t, 132) == 156);
    CHECK(ch03::summation_depth(step::one_pass, m28, t, 132) == 165);
    CHECK(ch03::layout_depth(ch03::layout::stride, m28, t, 132) == 165);
    // The first version put every float4 of a thread into one chain,
    // ceil(2^26 / 135168) = 497, and its last block used all its threads:
    // 2 + 497 + 2 + 4 + 10 + 3 + 10 = 528.
    CHECK(ch03::layout_depth(ch03::layout::old, m28, t, 132) == 528);
    // On 2^16: 16 blocks, one round: 2 + 1 + 2 + 4 + 10, then 1 + 5 (step 8)
    // or 1 + 10 (step 7).
    CHECK(ch03::summation_depth(step::one_pass, m16, t, 132) == 25);
    CHECK(ch03::summation_depth(step::two_pass, m16, t, 132) == 30);
    // Even the deepest tree of the book keeps the bound meaningful at 2^28.
    for (const auto& s : ch03::steps)
        CHECK(ch03::gamma(ch03::summation_depth(s.id, m28, t, 132), ch03::float_u) < 1e-4);
}

TEST_CASE("gamma and the tolerance", "[ch03][float]") {
    CHECK(ch03::gamma(0, ch03::float_u) == 0.0);
    CHECK(ch03::gamma(1, ch03::float_u) == Approx(0x1p-24 / (1 - 0x1p-24)));
    CHECK(ch03::gamma(1000, ch03::float_u) > 1000 * 0x1p-24);  // a little above h*u
    CHECK(ch03::gamma(std::size_t{1} << 24, ch03::float_u) ==
          std::numeric_limits<double>::infinity());
    CHECK(ch03::gamma(std::size_t{1} << 30, ch03::float_u) ==
          std::numeric_limits<double>::infinity());
    CHECK(ch03::tolerance(20, 0.0, 0) == 0.0);  // nothing to add: the result must be 0 exactly
    // Depth 20, magnitudes summing to 1000: about 20 * 2^-24 * 1000 = 1.19e-3.
    CHECK(ch03::tolerance(20, 1000.0, 1000) == Approx(20 * 0x1p-24 * 1000).epsilon(1e-5));

    CHECK(ch03::check_sum(3.0, 3.0, 0.0).ok);
    CHECK_FALSE(ch03::check_sum(3.0, 3.5, 0.25).ok);
    CHECK(ch03::check_sum(3.0, 3.25, 0.25).ok);
    CHECK_FALSE(ch03::check_sum(std::nan(""), 3.0, 1e300).ok);  // the poison never passes
    CHECK_FALSE(ch03::check_sum(std::nan(""), 3.0, std::numeric_limits<double>::infinity()).ok);
}

TEST_CASE("pairwise_depth follows the recursion of pairwise_sum", "[ch03][float]") {
    CHECK(ch03::pairwise_depth(0) == 1);
    CHECK(ch03::pairwise_depth(1) == 1);
    CHECK(ch03::pairwise_depth(32) == 32);  // one loop of 32 adds
    CHECK(ch03::pairwise_depth(64) == 33);  // halves of 32, then one add
    CHECK(ch03::pairwise_depth(65) == 19);  // 32 + 33; 33 = 16 + 17; 17 in a loop
}

TEST_CASE("the CPU sums", "[ch03][float]") {
    const std::vector<float> x = {1.5f, -2.0f, 0.25f, 4.0f};
    CHECK(ch03::pairwise_sum(x.data(), x.size()) == 3.75);
    CHECK(ch03::abs_sum(x.data(), x.size()) == 7.75);
    CHECK(ch03::sequential_float_sum(x.data(), x.size()) == 3.75f);
    CHECK(ch03::pairwise_sum(x.data(), 0) == 0.0);
    CHECK(ch03::integer_sum(x.data(), 0) == 0);

    const std::vector<float> w = {3.0f, -8.0f, 5.0f, 7.0f};
    CHECK(ch03::integer_sum(w.data(), w.size()) == 7);
    const float half = 0.5f, inf = std::numeric_limits<float>::infinity();
    CHECK_THROWS_WITH(ch03::integer_sum(&half, 1), Catch::Contains("x[0]"));
    CHECK_THROWS_AS(ch03::integer_sum(&inf, 1), std::invalid_argument);
    const float nan = std::nanf("");
    CHECK_THROWS_AS(ch03::integer_sum(&nan, 1), std::invalid_argument);
}

TEST_CASE("a float loop stops growing at 2^24; a tree does not", "[ch03][float]") {
    // 2^24 + 16 ones. From 2^24 on, floats are 2 apart: 2^24 + 1 is a tie and
    // rounds to the even 2^24, so the loop stays there.
    const std::vector<float> ones((std::size_t{1} << 24) + 16, 1.0f);
    CHECK(ch03::sequential_float_sum(ones.data(), ones.size()) == 16777216.0f);
    CHECK(ch03::pairwise_float_sum(ones.data(), ones.size()) == 16777232.0f);  // exact
    CHECK(ch03::pairwise_sum(ones.data(), ones.size()) == 16777232.0);
}

TEST_CASE("float sums stay within the bound of their depth", "[ch03][float]") {
    for (std::size_t n : {std::size_t{1}, std::size_t{31}, std::size_t{1000}, std::size_t{65537},
                          std::size_t{1} << 20}) {
        const auto x = random_floats(n, static_cast<std::uint32_t>(n), false);
        const double ref = ch03::pairwise_sum(x.data(), n), mag = ch03::abs_sum(x.data(), n);
        const double tree = ch03::pairwise_float_sum(x.data(), n);
        const double loop = ch03::sequential_float_sum(x.data(), n);
        INFO("n = " << n << ", tree error " << std::fabs(tree - ref) << ", loop error "
                    << std::fabs(loop - ref));
        CHECK(ch03::check_sum(tree, ref, ch03::tolerance(ch03::pairwise_depth(n), mag, n)).ok);
        CHECK(ch03::check_sum(loop, ref, ch03::tolerance(n, mag, n)).ok);
        if (n >= 65537) {
            // The bound is a worst case; the tree's error is far smaller than the loop's.
            CHECK(std::fabs(tree - ref) < std::fabs(loop - ref));
        }
    }
}

TEST_CASE("whole-number inputs add up exactly in float, in any order", "[ch03][float]") {
    // The premise of reduce_check: partial sums of +-1..8 stay far below 2^24.
    const std::size_t n = std::size_t{1} << 22;
    const auto x = random_floats(n, 11, true);
    const std::int64_t exact = ch03::integer_sum(x.data(), n);
    CHECK(static_cast<double>(ch03::sequential_float_sum(x.data(), n)) ==
          static_cast<double>(exact));
    CHECK(static_cast<double>(ch03::pairwise_float_sum(x.data(), n)) == static_cast<double>(exact));
    CHECK(ch03::pairwise_sum(x.data(), n) == static_cast<double>(exact));
    // One value lost or counted twice changes the sum by at least 1.
    CHECK(static_cast<double>(ch03::pairwise_float_sum(x.data(), n - 1)) !=
          static_cast<double>(exact));
}
