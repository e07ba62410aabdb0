// The chapter's "check yourself" answers, one test per question id. Each test
// is tagged [cy:<id>]; the book's build fails if a question has no test or a
// test has no question. Answers about the hardware are checked against the
// records the built book shows (book::test::record: on a GPU machine the runs
// of this build, elsewhere the committed recordings it imported), answers
// about the model against the warp model.
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "book/test/records.hpp"
#include "py_random.hpp"
#include "warp_model.hpp"

namespace {

const std::string kChapter = "ch01-execution-model/";

nlohmann::json record(const std::string& run) { return book::test::record(kChapter + run); }

using book::test::result;

}  // namespace

TEST_CASE("switching warps needs no saving: every resident thread's registers fit at once",
          "[ch01][cy:ch01-warp-switch-free]") {
    const auto q = record("device-query");
    const double regs = result(q, "regs_per_sm"), threads = result(q, "max_threads_per_sm");
    CHECK(regs == 65536);
    CHECK(threads == 2048);
    CHECK(regs / threads == 32);  // registers per thread with the SM full
    CHECK(result(q, "max_warps_per_sm") * 32 == threads);
}

TEST_CASE("threadIdx.x < 64 splits no warp of 256 threads; < 48 splits warp 1",
          "[ch01][cy:ch01-threshold-64]") {
    CHECK(ch01::diverging_warps(256, [](int t) { return t < 64; }).empty());
    CHECK(ch01::diverging_warps(256, [](int t) { return t < 48; }) == std::vector<int>{1});
}

TEST_CASE("independent thread scheduling did not make divergence cheap",
          "[ch01][cy:ch01-its-not-cheap]") {
    const auto s = record("div-sweep");
    const double uni = result(s, "ncu:uniform:smsp__inst_executed.sum");
    const double div = result(s, "ncu:divergent:smsp__inst_executed.sum");
    CHECK(div / uni == Approx(2.0).epsilon(0.01));
    CHECK(result(s, "ncu:uniform:smsp__thread_inst_executed.sum") ==
          result(s, "ncu:divergent:smsp__thread_inst_executed.sum"));
    CHECK(result(s, "ncu:uniform:smsp__thread_inst_executed_per_inst_executed.ratio") ==
          Approx(32));
    CHECK(result(s, "ncu:divergent:smsp__thread_inst_executed_per_inst_executed.ratio") ==
          Approx(16).margin(0.5));
}

TEST_CASE("thread (3, 2) of a 16x16 block is warp 1, lane 3", "[ch01][cy:ch01-2d-block-warp]") {
    const int tid = ch01::linear_thread_id({3, 2, 0}, {16, 16, 1});
    CHECK(tid == 35);
    CHECK(ch01::warp_of(tid) == 1);
    CHECK(tid % 32 == 3);
    CHECK(ch01::warps_per_block(16 * 16) == 8);
}

TEST_CASE("a block of 48 threads is two warps with 16 idle lanes", "[ch01][cy:ch01-block-of-48]") {
    CHECK(ch01::warps_per_block(48) == 2);
    CHECK(ch01::idle_lanes_in_last_warp(48) == 16);
}

TEST_CASE("a loop runs as long as its slowest lane", "[ch01][cy:ch01-slowest-lane-loop]") {
    std::vector<long long> trips(32);
    std::iota(trips.begin(), trips.end(), 1);
    CHECK(ch01::loop_lane_efficiency(trips) == Approx(528.0 / 1024.0));
    CHECK(ch01::loop_lane_efficiency(trips) == Approx(0.516).margin(0.0005));
}

TEST_CASE("Little's law: warps needed to hide a 4-cycle latency", "[ch01][cy:ch01-little-law]") {
    CHECK(ch01::warps_to_hide_latency(4, 1) == 4);
    CHECK(ch01::warps_to_hide_latency(4, 2) == 2);
    CHECK(ch01::warps_to_hide_latency(500, 1) == 500);  // memory latency needs ILP too
    CHECK_THROWS(ch01::warps_to_hide_latency(0, 1));
}

TEST_CASE("the seed's timing caught the first launch's module loading",
          "[ch01][cy:ch01-seed-timing]") {
    const auto s = record("div-seed");
    CHECK(result(s, "seed_ms_uniform") > result(s, "seed_ms_divergent"));
    CHECK(result(s, "seed_ms_uniform_again") < 0.6 * result(s, "seed_ms_uniform"));
    CHECK(result(s, "right_uniform_ms") <= result(s, "right_divergent_ms"));
}

TEST_CASE("at one wave the uniform kernel waits for its path-B SMs",
          "[ch01][cy:ch01-one-wave-ratio]") {
    const auto s = record("div-sweep");
    CHECK(result(s, "ratio_w1") < 1.2);
    CHECK(result(s, "ratio_w32") > 1.8);
    // Placement: most SMs hold blocks of one parity, so they run one path only.
    CHECK(result(s, "placement_pure_sms") >= 0.5 * result(s, "placement_sms_used"));
    // The paths differ in cost: path A was folded to a multiply-add by 81 (0x51), plus 40 (0x28).
    const std::string sass = book::test::text(s, "sass:diverge");
    CHECK(sass.find("0x51") != std::string::npos);
    CHECK(sass.find("IMAD R5, R5, R6, 0x28") != std::string::npos);
    CHECK(sass.find("SHF.R.U32.HI") != std::string::npos);
}

TEST_CASE("sorted random input leaves one divergent warp", "[ch01][cy:ch01-sorted-input]") {
    ch01::PyRandom rng(7);
    std::vector<bool> rnd(4096);
    for (std::size_t i = 0; i < rnd.size(); ++i) rnd[i] = rng.random() < 0.5;
    const auto unsorted =
        ch01::simulate([&](long long i) { return bool(rnd[i]); }, 4096, 32, 100, 100);
    CHECK(unsorted.efficiency() == Approx(0.5));
    std::sort(rnd.begin(), rnd.end());
    const auto sorted =
        ch01::simulate([&](long long i) { return bool(rnd[i]); }, 4096, 32, 100, 100);
    CHECK(sorted.efficiency() == Approx(409600.0 / 412800.0));
    CHECK(sorted.efficiency() == Approx(0.992).margin(0.0005));
}
