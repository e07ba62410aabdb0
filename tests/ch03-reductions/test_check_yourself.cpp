// Chapter 3's "check yourself" answers (chapters/ch03-reductions/13-check-yourself.md), one test
// per question id. Each test is tagged [cy:<id>]; the book's build fails if a
// question has no test or a test has no question. Answers about arithmetic (the
// banks, the shuffle tree, float rounding) are checked against the model of the
// trees in tree_model.hpp, small simulations and the chapter's CPU code
// (reduce_plan.hpp); answers about the H200
// against the records the built book shows (book::test::record: on a GPU
// machine the runs of this build, elsewhere the committed recordings).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "book/test/records.hpp"
#include "record_text.hpp"
#include "reduce_bounds.hpp"
#include "reduce_plan.hpp"
#include "tree_model.hpp"

namespace {

using book::test::answer;
using book::test::record;
using book::test::result;
using book::test::text;
using ch03test::count_lines;
using ch03test::tree::kBlock;
using ch03test::tree::model_load_conflicts_per_block;
using ch03test::tree::strides;
using ch03test::tree::ways;
using ch03test::tree::words_read;

}  // namespace

TEST_CASE("step 1 is slow by its instructions, not by a branch", "[ch03][cy:ch03-divergent-slow]") {
    const auto sass = record("reduce-sass");
    const std::string step1 = text(sass, "sass:reduce_interleaved_divergent");
    const std::string step2 = text(sass, "sass:reduce_interleaved_strided");
    // No divergent branch: no convergence barrier, and the addition is predicated.
    CHECK(count_lines(step1, R"(\bBSSY\b|\bBSYNC\b)") == 0);
    CHECK(count_lines(step1, R"(@!?P\d+ FADD)") >= 1);
    CHECK(count_lines(step1, R"(@!?P\d+ STS)") >= 1);
    // The remainder: an unsigned division by a number that is not a constant.
    CHECK(count_lines(step1, R"(I2F\.U32\.RP)") >= 1);
    CHECK(count_lines(step1, R"(MUFU\.RCP)") >= 1);
    CHECK(count_lines(step2, R"(MUFU\.RCP)") == 0);
    // Every warp issues every level: the instructions, not the lanes, differ.
    const auto prof = record("reduce-profile");
    const double i1 = result(prof, "ncu:s1_p1:smsp__inst_executed.sum");
    const double i2 = result(prof, "ncu:s2_p1:smsp__inst_executed.sum");
    CHECK(i1 / i2 > 1.5);
    // ... and each issued instruction counts nearly all 32 lanes as active.
    CHECK(result(prof, "ncu:s1_p1:smsp__thread_inst_executed_per_inst_executed.ratio") > 31.0);
    // The figures the answer states (answers.json): the remainder's instructions,
    // from the reciprocal's set-up (I2F.U32.RP) to the fix-up for a zero divisor
    // (LOP3.LUT ... 0x33), and the size of the profiled input, which the
    // read-stream ceiling of the same run read once.
    const auto lines = ch03test::lines_of(step1);
    const auto from = ch03test::find_line(lines, R"(I2F\.U32\.RP)");
    const auto to = ch03test::find_line(lines, R"(LOP3\.LUT R\d+, RZ, R\d+, RZ, 0x33)", from);
    REQUIRE(to < lines.size());
    CHECK(static_cast<double>(to - from + 1) > answer("ch03-divergent-slow", "remainder_over"));
    const double n = answer("ch03-divergent-slow", "profiled_n");
    CHECK(result(prof, "ncu:ceiling:dram__bytes_read.sum") ==
          Approx(sizeof(float) * n).epsilon(0.01));
    CHECK(result(prof, "ncu:s1_p1:launch__grid_size") * kBlock == n);
}

TEST_CASE("step 2's tree conflicts in the banks; steps 1 and 3 do not",
          "[ch03][cy:ch03-bank-conflicts]") {
    // The answer's arithmetic: warp 0 of step 2.
    CHECK(ways(words_read(2, 1, 0, false)) == 2);
    CHECK(ways(words_read(2, 1, 0, true)) == 2);
    CHECK(ways(words_read(2, 2, 0, false)) == 4);
    CHECK(ways(words_read(2, 4, 0, false)) == 8);
    CHECK(ways(words_read(2, 8, 0, false)) == 8);
    CHECK(ways(words_read(2, 16, 0, false)) == 8);
    CHECK(ways(words_read(2, 32, 0, false)) == 4);
    for (int s : strides(3))
        for (int warp = 0; warp < kBlock / 32; ++warp) {
            CAPTURE(s, warp);
            CHECK(ways(words_read(3, s, warp, false)) <= 1);
            CHECK(ways(words_read(3, s, warp, true)) <= 1);
        }
    for (int s : strides(1))
        for (int warp = 0; warp < kBlock / 32; ++warp) {
            CAPTURE(s, warp);
            CHECK(ways(words_read(1, s, warp, false)) <= 1);
            CHECK(ways(words_read(1, s, warp, true)) <= 1);
        }
    // The whole tree of one block: 8 + 12 + 14 + 14 + 14 + 6 + 2 conflicts
    // over the levels with strides 1 to 64 (two loads per level).
    CHECK(model_load_conflicts_per_block(2) == 70);
    CHECK(model_load_conflicts_per_block(1) == 0);
    CHECK(model_load_conflicts_per_block(3) == 0);

    // Nsight Compute, first pass on 2^24 floats: step 2 has the conflicts the
    // model predicts, steps 1 and 3 a small fraction of them.
    const auto prof = record("reduce-profile");
    const double blocks = result(prof, "ncu:s2_p1:launch__grid_size");
    const double c1 =
        result(prof, "ncu:s1_p1:l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum");
    const double c2 =
        result(prof, "ncu:s2_p1:l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum");
    const double c3 =
        result(prof, "ncu:s3_p1:l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum");
    CHECK(c2 / (blocks * model_load_conflicts_per_block(2)) == Approx(1.0).margin(0.1));
    CHECK(c2 > 20 * c1);
    CHECK(c2 > 20 * c3);

    // The figures the answer states (answers.json).
    const auto a = [](const char* name) { return answer("ch03-bank-conflicts", name); };
    const int sa = static_cast<int>(a("stride_a")), sb = static_cast<int>(a("stride_b"));
    CHECK(sa == 1);  // the question's strides
    CHECK(sb == 4);
    std::vector<int> both = words_read(2, sa, 0, false), second = words_read(2, sa, 0, true);
    both.insert(both.end(), second.begin(), second.end());
    std::sort(both.begin(), both.end());
    CHECK(both.front() == a("first_word"));
    CHECK(both.back() == a("last_word"));
    CHECK(both.size() == static_cast<std::size_t>(a("last_word") - a("first_word") + 1));
    CHECK(ways(words_read(2, sa, 0, false)) == a("ways_a"));
    CHECK(ways(words_read(2, sa, 0, true)) == a("ways_a"));
    for (int t = 0; t + a("partner") < 32; ++t)  // lanes t and t + partner share a bank
        CHECK((2 * sa * t) % 32 == (2 * sa * (t + static_cast<int>(a("partner")))) % 32);
    const std::vector<int> wb = words_read(2, sb, 0, false);
    for (int t = 0; t < static_cast<int>(wb.size()); ++t)
        CHECK(wb[static_cast<std::size_t>(t)] == a("word_factor_b") * t);
    std::set<int> banks;
    for (int w : wb) banks.insert(w % 32);
    CHECK(banks.size() == static_cast<std::size_t>(a("banks_b")));
    for (int b : banks) CHECK(b % static_cast<int>(a("bank_gap_b")) == 0);
    CHECK(*banks.rbegin() - *banks.begin() == a("bank_gap_b") * (a("banks_b") - 1));
    CHECK(ways(wb) == a("ways_b"));
    CHECK(wb.size() == static_cast<std::size_t>(a("banks_b") * a("ways_b")));
    CHECK(c3 < a("remainder_share") * c2);
}

TEST_CASE("the volatile tail: a race by the rules, right sums on the H200",
          "[ch03][cy:ch03-volatile-since-volta]") {
    const auto tail = record("warp-tail");
    CHECK(result(tail, "blocks_checked_volatile") >= 400000);
    CHECK(result(tail, "wrong_sums_volatile") == 0);
    CHECK(result(tail, "wrong_sums_shfl") == 0);
    CHECK(result(tail, "wrong_sums_syncwarp") == 0);
    // Without volatile, nearly every block is wrong.
    CHECK(result(tail, "wrong_sums_plain") > 0.9 * result(tail, "blocks_checked_plain"));
    CHECK(result(tail, "wrong_sums_plain") > answer("ch03-volatile-since-volta", "wrong_share") *
                                                 result(tail, "blocks_checked_plain"));
    // racecheck: hazards between the lanes of a warp, as warnings.
    const auto race = record("warp-tail-volatile-racecheck");
    CHECK(result(race, "sanitizer_warnings") > 0);
    CHECK(result(race, "sanitizer_errors") == 0);
    CHECK(count_lines(text(race, "sanitizer:racecheck"), "Warp Level Programming") > 0);
    const auto good = record("warp-tail-good-racecheck");
    CHECK(result(good, "sanitizer_warnings") == 0);
    CHECK(result(good, "sanitizer_errors") == 0);
}

TEST_CASE("a warp sum is five shuffles; block_sum makes two rounds",
          "[ch03][cy:ch03-shuffle-depth]") {
    // The loop of warp_sum (warp_tails.cuh): offsets 16, 8, 4, 2, 1.
    std::vector<int> offsets;
    for (int offset = 16; offset > 0; offset >>= 1) offsets.push_back(offset);
    CHECK(offsets == std::vector<int>{16, 8, 4, 2, 1});
    CHECK((1 << offsets.size()) == 32);
    // Simulated: after the five steps lane 0 holds the sum of the 32 lanes.
    std::vector<long> lanes(32);
    for (int l = 0; l < 32; ++l) lanes[static_cast<std::size_t>(l)] = 1L << l;
    for (int offset : offsets) {
        std::vector<long> next = lanes;
        for (int l = 0; l + offset < 32; ++l)
            next[static_cast<std::size_t>(l)] += lanes[static_cast<std::size_t>(l + offset)];
        lanes = next;
    }
    CHECK(lanes[0] == (1L << 32) - 1);
    // The compiled kernels: five SHFL.DOWN in the last warp's tail, ten on the
    // straight path of step 6's block_sum (its guarded copy aside).
    const auto tails = record("warp-tail-sass");
    CHECK(count_lines(text(tails, "sass:sum_tail_shfl"), R"(SHFL\.DOWN)") == 5);
    const auto sass = record("reduce-sass");
    CHECK(count_lines(text(sass, "sass:reduce_warp_block"), R"(SHFL\.DOWN PT,)") == 10);
    // The figures the answer states (answers.json).
    const auto a = [](const char* name) { return answer("ch03-shuffle-depth", name); };
    CHECK(a("shuffles") == static_cast<double>(offsets.size()));
    CHECK(a("first_offset") == offsets.front());
    CHECK(a("last_offset") == offsets.back());
    for (std::size_t i = 1; i < offsets.size(); ++i)
        CHECK(a("factor") * offsets[i] == offsets[i - 1]);
    CHECK(a("lanes") == 32);
    CHECK(std::pow(a("factor"), a("shuffles")) == a("lanes"));
    CHECK(count_lines(text(sass, "sass:reduce_warp_block"), R"(SHFL\.DOWN PT,)") ==
          a("rounds") * a("shuffles"));
    CHECK(a("warp_sums") == kBlock / 32);  // a block of 256 threads
    CHECK(a("final_warp") == 0);
    CHECK(a("idle_lanes") == a("lanes") - a("warp_sums"));
    CHECK(a("idle_value") == 0);  // adding it changes no sum
    CHECK(lanes[0] + static_cast<long>(a("idle_value")) == lanes[0]);
}

TEST_CASE("one launch wins where reading is short, not where it is long",
          "[ch03][cy:ch03-one-launch-small]") {
    const auto bench = record("reduce-bench");
    CHECK(result(bench, "launches_one_pass_2e16") == 1);
    CHECK(result(bench, "launches_two_pass_2e16") == 2);
    CHECK(result(bench, "one_pass_us_2e16") < 0.8 * result(bench, "two_pass_us_2e16"));
    // Reading 2^16 floats takes a few microseconds, 2^28 floats hundreds.
    CHECK(result(bench, "ceiling_us_2e16") < 15);
    CHECK(result(bench, "ceiling_us_2e28") > 100);
    CHECK(result(bench, "one_pass_us_2e28") / result(bench, "two_pass_us_2e28") ==
          Approx(1.0).margin(0.05));
    // The figures the answer states (answers.json): the sizes the records are
    // named by (2^16 and 2^28), and the bytes of the larger one.
    const double small = answer("ch03-one-launch-small", "small_n");
    const double large = answer("ch03-one-launch-small", "large_n");
    CHECK(small == std::ldexp(1.0, 16));
    CHECK(large == std::ldexp(1.0, 28));
    CHECK(result(bench, "ceiling_tbs_2e28") ==
          Approx(sizeof(float) * large / (result(bench, "ceiling_us_2e28") * 1e6)).epsilon(0.01));
    CHECK(answer("ch03-one-launch-small", "large_gib") ==
          sizeof(float) * large / std::ldexp(1.0, 30));
}

TEST_CASE("a float loop stops at 2^24", "[ch03][cy:ch03-float-order]") {
    const float big = 16777216.0f;  // 2^24
    volatile float one = 1.0f, three_quarters = 0.75f, just_over_one = std::nextafter(1.0f, 2.0f);
    CHECK(big + one == big);             // a tie: to the even neighbour, 2^24
    CHECK(big + three_quarters == big);  // below half the spacing of 2
    CHECK(big + just_over_one == 16777218.0f);
    CHECK(std::nextafter(big, 2 * big) - big == 2.0f);
    // The chapter's CPU loop on ones: it stops at 2^24.
    const std::vector<float> ones((std::size_t{1} << 24) + 4096, 1.0f);
    CHECK(ch03::sequential_float_sum(ones.data(), ones.size()) == big);
    CHECK(ch03::pairwise_float_sum(ones.data(), ones.size()) == 16777216.0f + 4096.0f);
    // The GPU run's loop: 2^28 values in (0, 1] gave exactly 2^24.
    CHECK(result(record("reduce-accuracy"), "acc_loop_sum_2e28") == 16777216.0);
    // The figures the answer states (answers.json).
    const auto a = [](const char* name) { return answer("ch03-float-order", name); };
    CHECK(a("stall") == result(record("reduce-accuracy"), "acc_loop_sum_2e28"));
    CHECK(a("stall") == big);
    CHECK(a("radix") == FLT_RADIX);
    CHECK(a("stall_log2") == FLT_MANT_DIG);
    CHECK(std::pow(a("radix"), a("stall_log2")) == a("stall"));
    CHECK(std::nextafter(static_cast<float>(a("stall")), 2 * big) - big == a("spacing"));
    CHECK(std::nextafter(static_cast<float>(a("stall")), 0.0f) < big);  // below it, closer
    volatile float largest = static_cast<float>(a("largest_value"));
    CHECK(largest == one);  // the values are in (0, 1]
    CHECK(big + largest == big);
    CHECK(2 * a("largest_value") == a("spacing"));  // exactly half the spacing: a tie
}

TEST_CASE("the order of float additions changes the sum; a tree is closer",
          "[ch03][cy:ch03-float-associativity]") {
    volatile float a = 1e8f, b = 1.0f, c = -1e8f;
    CHECK((a + b) + c == 0.0f);  // 1e8 + 1 rounds back to 1e8 (floats are 8 apart there)
    CHECK((a + c) + b == 1.0f);
    // CPU: 2^20 values in (0, 1], the loop against the pairwise tree, each
    // against the exact sum (every value is k * 2^-24, so double is exact).
    std::mt19937 gen(11);
    std::vector<float> x(std::size_t{1} << 20);
    for (float& v : x) v = ch03::unit_float(gen());
    double exact = 0;
    for (float v : x) exact += v;
    const double loop = ch03::sequential_float_sum(x.data(), x.size());
    const double tree = ch03::pairwise_float_sum(x.data(), x.size());
    CHECK(loop != tree);
    CHECK(std::fabs(tree - exact) < std::fabs(loop - exact));
    // The GPU run: step 8's error is far below the loop's, and its depth is
    // what the chapter's model of the kernel gives for the launch it used.
    const auto acc = record("reduce-accuracy");
    CHECK(result(acc, "acc_loop_rel_err_2e20") > 10 * result(acc, "acc_one_pass_rel_err_2e20"));
    CHECK(result(acc, "acc_one_pass_depth_2e28") < 1000);
    const int sms = std::stoi(acc.at("provenance").at("sm_count").get<std::string>());
    const std::size_t n = std::size_t{1} << 28;
    CHECK(result(acc, "acc_one_pass_depth_2e28") ==
          ch03::summation_depth(ch03::step::one_pass, n, ch03::default_policy().at(n), sms));
    // The sizes the answer states (answers.json) are those of the records it quotes.
    CHECK(answer("ch03-float-associativity", "large_n") == static_cast<double>(n));
    CHECK(answer("ch03-float-associativity", "small_n") == static_cast<double>(x.size()));
    CHECK(answer("ch03-float-associativity", "small_n") == std::ldexp(1.0, 20));  // _2e20
}

TEST_CASE("at 2^28 floats the sums read at the speed of the read stream",
          "[ch03][cy:ch03-memory-ceiling]") {
    const auto bench = record("reduce-bench");
    CHECK(result(bench, "one_pass_of_ceiling_2e28") == Approx(1.0).margin(0.05));
    CHECK(result(bench, "cub_of_ceiling_2e28") == Approx(1.0).margin(0.05));
    const double tolerance = answer("ch03-memory-ceiling", "tolerance");
    CHECK(std::fabs(result(bench, "one_pass_of_ceiling_2e28") - 1) <= tolerance);
    CHECK(std::fabs(result(bench, "cub_of_ceiling_2e28") - 1) <= tolerance);
    // The ceiling kernel reads the input once: 2^24 floats, 64 MiB, in Nsight
    // Compute's run (within 1% for what else the DRAM serves).
    const auto prof = record("reduce-profile");
    CHECK(result(prof, "ncu:ceiling:dram__bytes_read.sum") ==
          Approx(4.0 * (1 << 24)).epsilon(0.01));
}

// Step 9's grid at 2^20 floats (cluster_sum.cu, step9_config and
// cluster_reducer::clusters): clusters of 2 blocks of 1024 threads, one
// float4 per thread per round, at most 2 blocks per SM, and no cluster
// without a load. The model recomputes the grid; the record must agree.
TEST_CASE("step 9's grid at 2^20 floats and its tickets", "[ch03][cy:ch03-cluster-tickets]") {
    const auto bench = record("cluster-bench");
    const int sms = std::stoi(bench.at("provenance").at("sm_count").get<std::string>());
    const std::size_t n = std::size_t{1} << 20, cluster = 2, threads = 1024, unroll = 1,
                      blocks_per_sm = 2;
    const std::size_t float4s = n / 4, per_round = cluster * threads * unroll;
    const std::size_t with_work = (float4s + per_round - 1) / per_round;
    const std::size_t cap = static_cast<std::size_t>(sms) * blocks_per_sm / cluster;
    const std::size_t clusters = std::min(with_work, cap);
    CHECK(answer("ch03-cluster-tickets", "float4s") == float4s);
    CHECK(answer("ch03-cluster-tickets", "floats") == 4 * float4s);  // the record's 2e20
    CHECK(answer("ch03-cluster-tickets", "per_round") == per_round);
    CHECK(answer("ch03-cluster-tickets", "cap") == cap);
    CHECK(with_work < cap);  // the work, not the GPU, sets the grid
    CHECK(answer("ch03-cluster-tickets", "clusters") == clusters);
    CHECK(result(bench, "clusters_2e20") == clusters);
    // A ticket per block on the same grid: one per block, cluster times as many.
    CHECK(answer("ch03-cluster-tickets", "block_tickets") == clusters * cluster);
}

// When a call may start after the one before it in the stream (Programming
// Guide, "Programmatic Dependent Launch"): launched without the attribute, once
// that call has finished; with it, once every block of that call has triggered
// or ended, which for step 9 (it triggers at its first line) is once they have
// all started. A model of a stream of calls, then the record's graph that
// alternates CUB with step 9 (issue 44: the answer had been checked against the
// model alone, in which CUB's neighbour gained nothing; the record says it gains
// less, not nothing).
TEST_CASE("PDL beside CUB: the boundaries into CUB never overlap, and step 9 gains less",
          "[ch03][cy:ch03-pdl-neighbours]") {
    struct call {
        bool launched_with_attribute, triggers_at_start;
    };
    enum class may_start { finished, blocks_ended, blocks_started };
    auto when = [](const call& before, const call& next) {
        if (!next.launched_with_attribute) return may_start::finished;
        return before.triggers_at_start ? may_start::blocks_started : may_start::blocks_ended;
    };
    const call step9{true, true}, cub{false, false};
    CHECK(when(step9, step9) == may_start::blocks_started);
    const std::vector<call> alternating = {step9, cub, step9, cub, step9, cub};
    int into_cub_early = 0, into_step9 = 0, into_step9_after_blocks_end = 0;
    for (std::size_t i = 1; i < alternating.size(); ++i) {
        const may_start w = when(alternating[i - 1], alternating[i]);
        if (alternating[i].launched_with_attribute) {
            ++into_step9;
            into_step9_after_blocks_end += w == may_start::blocks_ended;
        } else {
            into_cub_early += w != may_start::finished;
        }
    }
    CHECK(into_cub_early == answer("ch03-pdl-neighbours", "overlapped"));
    CHECK(into_step9_after_blocks_end == into_step9);  // beside CUB, never at the blocks' start
    CHECK(answer("ch03-pdl-neighbours", "floats") == 1 << 16);  // the record's 2e16

    // The record: a pair of alternating calls costs less than CUB and the plain
    // launch, more than CUB and step 9 in a graph of step 9 calls.
    const auto bench = record("cluster-bench");
    const double pair = 2 * result(bench, "alternating_graph_us_2e16");
    const double cub_us = result(bench, "cub_graph_us_2e16");
    CHECK(pair < cub_us + result(bench, "graph_us_2e16_plain"));
    CHECK(pair > cub_us + result(bench, "graph_us_2e16_pdlpf"));
}
