// What chapters/ch02-shared-memory/ says about its measurements in words,
// beside the numbers it quotes from the records: each sentence that compares or
// characterises a measurement is a check here, against the records the built
// book shows, so that a new recording that no longer bears the text out fails a
// test naming the section. (The runs' own expectations, code/ch02-shared-memory/
// *.checks.json, cover the claims of the programs; these cover the text's.)
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "book/test/records.hpp"
#include "ch02_record_texts.hpp"

namespace {

using book::test::record;
using book::test::result;
using ch02test::check_value;

}  // namespace

TEST_CASE("2.1: the calculator and the launch agree; a carve-out preference costs blocks",
          "[ch02][claims]") {
    const auto smem = record("smem-info");
    for (const int kb : {0, 32, 64, 100, 113, 114, 200}) {
        INFO(kb << " KiB per block");
        CHECK(result(smem, "measured_blocks_smem" + std::to_string(kb) + "k") ==
              result(smem, "predicted_blocks_smem" + std::to_string(kb) + "k"));
    }
    CHECK(result(smem, "blocks_smem24k_carveout_25") <
          result(smem, "blocks_smem24k_carveout_default"));
}

TEST_CASE(
    "2.2: odd strides cost nothing extra; stride 64 is as bad as 32; conflicts are the "
    "wavefronts after the first",
    "[ch02][claims]") {
    const auto bank = record("bank-conflicts");
    CHECK(result(bank, "stride3_over_stride1") == Approx(1.0).epsilon(0.05));
    CHECK(result(bank, "stride33_over_stride1") == Approx(1.0).epsilon(0.05));
    CHECK(result(bank, "stride64_over_stride1") ==
          Approx(result(bank, "stride32_over_stride1")).epsilon(0.05));
    CHECK(check_value(bank, "ncu-stride32-conflicts") ==
          Approx(check_value(bank, "ncu-stride32-wavefronts") - 1).margin(0.01));
    CHECK(result(bank, "tile_columns_padded_over_stride1") == Approx(1.0).epsilon(0.05));
}

TEST_CASE("2.3: every kernel checked; the real inputs within their bound; memcheck clean",
          "[ch02][claims]") {
    const auto check = record("stencil-check");
    CHECK(result(check, "check_failed_cases") == 0);
    CHECK(result(check, "mismatches") == 0);
    CHECK(result(check, "max_error_over_tolerance") <= 1.0);
    CHECK(result(record("stencil-check-memcheck"), "sanitizer_errors") == 0);
}

TEST_CASE("2.4: the race shows on every launch, delayed or not; racecheck and synccheck",
          "[ch02][claims]") {
    const auto barrier = record("stencil-barrier");
    const double trials = result(barrier, "trials");
    // "changes little: still ... bad launches"
    CHECK(std::abs(result(barrier, "nosync_delay10000_bad_launches") -
                   result(barrier, "nosync_delay0_bad_launches")) <= trials / 4);
    CHECK(result(barrier, "nosync_delay1000_bad_launches") >= 1);
    CHECK(result(barrier, "tiled_again_mismatches") == 0);
    // "right every time": the tiled kernel, before and after the racy ones.
    CHECK(result(barrier, "tiled_bad_launches") == 0);
    CHECK(result(barrier, "tiled_again_bad_launches") == 0);
    // racecheck on the kernel without the barrier: errors and warnings both.
    const auto racy = ch02test::racecheck_summary(
        book::test::text(record("stencil-nosync-racecheck"), "sanitizer:racecheck"));
    CHECK(racy.errors > 0);
    CHECK(racy.warnings > 0);
    // The barrier on one side only: no hang here, wrong outputs, and synccheck silent.
    const auto one_side = record("stencil-barrier-one-side");
    CHECK(result(one_side, "hung") == 0);
    CHECK(result(one_side, "bad_launches") >= 1);
    CHECK(result(record("stencil-one-side-synccheck"), "sanitizer_errors") == 0);
    // The warp rotation: all three right here; racecheck warns about the one
    // without __syncwarp, with warnings only.
    const auto warp = record("syncwarp");
    CHECK(result(warp, "mismatches_syncwarp") == 0);
    CHECK(result(warp, "mismatches_shfl") == 0);
    CHECK(result(warp, "mismatches_nosync") == 0);
    const auto warned = ch02test::racecheck_summary(
        book::test::text(record("syncwarp-nosync-racecheck"), "sanitizer:racecheck"));
    CHECK(warned.errors == 0);
    CHECK(warned.warnings > 0);
}

TEST_CASE("2.5: one output per thread waits, not in DRAM nor in a busy unit", "[ch02][claims]") {
    const auto steps = record("stencil-steps");
    auto ncu = [&](const std::string& k, const std::string& metric) {
        return result(steps, "ncu:" + k + ":" + metric);
    };
    // "falls short of the copy": well below the 16-byte kernel of the same run
    // (how far depends on the GPU's memory), but above a third of the copy.
    CHECK(result(steps, "plain_over_copy") >= 0.35);
    CHECK(result(steps, "plain_over_copy") <= 0.8 * result(steps, "vec_x1_over_copy"));
    // "not in a busy unit": DRAM, L1, the SM's busiest unit and the issue rate are
    // each less busy than DRAM is under the copy kernel of the same run.
    const double copy_dram =
        ncu("copy_vec_x1", "dram__throughput.avg.pct_of_peak_sustained_elapsed");
    CHECK(ncu("plain", "dram__throughput.avg.pct_of_peak_sustained_elapsed") < 0.75 * copy_dram);
    CHECK(ncu("plain", "l1tex__throughput.avg.pct_of_peak_sustained_active") < copy_dram);
    CHECK(ncu("plain", "sm__throughput.avg.pct_of_peak_sustained_elapsed") < copy_dram);
    CHECK(ncu("plain", "smsp__issue_active.avg.pct_of_peak_sustained_active") < copy_dram);
    CHECK(ncu("plain",
              "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio") >= 5);
    // "the reuse moves from the L1 cache to shared memory"
    CHECK(ncu("tiled", "l1tex__t_sector_hit_rate.pct") <
          ncu("plain", "l1tex__t_sector_hit_rate.pct"));
    CHECK(check_value(steps, "tiled-slower-than-plain") >= 1.1);
}

TEST_CASE("2.5: the steps that reach the copy", "[ch02][claims]") {
    const auto steps = record("stencil-steps");
    auto ncu = [&](const std::string& k, const std::string& metric) {
        return result(steps, "ncu:" + k + ":" + metric);
    };
    CHECK(result(steps, "mismatches") == 0);
    CHECK(check_value(steps, "ceiling-steady") == Approx(1.0).margin(0.05));
    CHECK(result(steps, "vec_x1_over_copy") >= 0.95);
    CHECK(ncu("vec_x1", "dram__throughput.avg.pct_of_peak_sustained_elapsed") >
          ncu("plain", "dram__throughput.avg.pct_of_peak_sustained_elapsed"));
    // "The other float4 kernels land near the copy as well"
    for (const std::string k : {"tiled_vec_x1", "vec_x4", "tiled_vec_x4"}) {
        INFO("kernel " << k);
        CHECK(result(steps, k + "_over_copy") >= 0.9);
    }
    // "with float4s the tile still saves no DRAM traffic"
    CHECK(ncu("tiled_vec_x1", "dram__bytes_read.sum") / ncu("vec_x1", "dram__bytes_read.sum") ==
          Approx(1.0).margin(0.03));
    // The asynchronous copy: fewer warp slots in use, and not faster.
    CHECK(ncu("tiled_async_x4", "sm__warps_active.avg.pct_of_peak_sustained_active") <
          ncu("tiled_vec_x4", "sm__warps_active.avg.pct_of_peak_sustained_active"));
    CHECK(check_value(steps, "async-no-faster") >= 1.0);
    CHECK(result(steps, "best_over_copy") >= 0.95);
}

TEST_CASE("2.6: memory-bound at small R, bound by the SM's work at large R", "[ch02][claims]") {
    const auto sweep = record("stencil-sweep");
    auto ratio = [&](const std::string& k, int r) {
        return result(sweep, "sweep_" + k + "_r" + std::to_string(r) + "_over_copy");
    };
    CHECK(result(sweep, "mismatches") == 0);
    for (const std::string k : {"vec_x4", "tiled_vec_x4"}) {
        INFO("kernel " << k);
        // "Up to R = 4 the float4 kernels hold the copy's pace"
        for (const int r : {1, 2, 3, 4}) CHECK(ratio(k, r) >= 0.9);
        // "Beyond the first few radii the time grows with R"
        CHECK(ratio(k, 16) < ratio(k, 4));
        CHECK(ratio(k, 128) < ratio(k, 16));
    }
    // "the additions per second ... stay nearly the same" from R = 64 to 128.
    CHECK(result(sweep, "sweep_tiled_vec_x4_r128_gadds") ==
          Approx(result(sweep, "sweep_tiled_vec_x4_r64_gadds")).epsilon(0.25));
    // "The plain kernel ... falls furthest"
    for (const std::string k : {"vec_x1", "vec_x4", "tiled_vec_x4", "tiled_async_x4"}) {
        INFO("kernel " << k);
        CHECK(ratio("plain", 128) < ratio(k, 128));
    }
}

TEST_CASE("Try it: the carve-out preference of 50 % first costs a block at 16 KiB",
          "[ch02][claims]") {
    const auto smem = record("smem-info");
    for (const int kb : {0, 8}) {
        INFO(kb << " KiB per block");
        CHECK(result(smem, "blocks_smem" + std::to_string(kb) + "k_carveout_50") ==
              result(smem, "blocks_smem" + std::to_string(kb) + "k_carveout_100"));
    }
    CHECK(result(smem, "blocks_smem16k_carveout_50") < result(smem, "blocks_smem16k_carveout_100"));
}
