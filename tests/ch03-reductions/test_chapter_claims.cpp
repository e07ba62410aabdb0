// The sentences of chapters/ch03-reductions/ that characterise a measurement
// ("nearly in proportion", "about half", "within a few percent", "the compiler
// loads all six values first"), each checked against the records the built
// book shows, so that a new recording that no longer bears a sentence out fails
// here and the sentence is rewritten. Claims that an expectation of the runs
// already bounds (code/ch03-reductions/*.checks.json) are not repeated here.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <regex>
#include <string>
#include <vector>

#include "book/test/records.hpp"
#include "record_text.hpp"
#include "tree_model.hpp"

namespace {

using book::test::record;
using book::test::result;
using book::test::text;
using ch03test::count_lines;
using ch03test::find_line;
using ch03test::lines_of;

double ncu(const nlohmann::json& prof, const std::string& label, const std::string& metric) {
    return result(prof, "ncu:" + label + ":" + metric);
}

const std::string kInst = "smsp__inst_executed.sum";
const std::string kTime = "gpu__time_duration.sum";
const std::string kDram = "dram__throughput.avg.pct_of_peak_sustained_elapsed";

// The lines of one kernel's SASS from the first line matching `from` to the
// first line after it matching `to` (both included).
std::vector<std::string> region(const std::string& sass, const std::string& from,
                                const std::string& to) {
    const std::vector<std::string> lines = lines_of(sass);
    const std::size_t a = find_line(lines, from);
    REQUIRE(a < lines.size());
    const std::size_t b = find_line(lines, to, a + 1);
    REQUIRE(b < lines.size());
    return {lines.begin() + static_cast<std::ptrdiff_t>(a),
            lines.begin() + static_cast<std::ptrdiff_t>(b) + 1};
}

std::size_t count_in(const std::vector<std::string>& lines, const std::string& pattern) {
    std::string joined;
    for (const std::string& l : lines) joined += l + "\n";
    return count_lines(joined, pattern);
}

}  // namespace

TEST_CASE("3.1: every step is measured against the ceiling of the same run", "[ch03][claims]") {
    // The shares the tables print are the same run's ceiling time over each step's
    // (the record's medians are taken figure by figure: within 1%).
    const auto bench = record("reduce-bench");
    for (const char* key : {"interleaved_divergent", "sequential", "two_pass", "one_pass", "cub"}) {
        INFO("row " << key);
        CHECK(
            result(bench, std::string(key) + "_of_ceiling_2e28") ==
            Approx(result(bench, "ceiling_us_2e28") / result(bench, std::string(key) + "_us_2e28"))
                .epsilon(0.01));
    }
    // 2^28 floats of 4 bytes in the ceiling's time: its rate in TB/s.
    CHECK(
        result(bench, "ceiling_tbs_2e28") ==
        Approx(4.0 * std::ldexp(1.0, 28) / (result(bench, "ceiling_us_2e28") * 1e6)).epsilon(0.01));
}

TEST_CASE("3.2: the lines of step 1's SASS the chapter shows are its loop over the levels",
          "[ch03][claims]") {
    const std::string sass = text(record("reduce-sass"), "sass:reduce_interleaved_divergent");
    std::string shown;
    for (const std::string& line : lines_of(sass))
        if (std::regex_search(line, std::regex(R"(^/\*0(19|1[a-f]|2[0-9a-f]|3[0-4])0\*/)")))
            shown += line + "\n";
    const auto lines = lines_of(shown);
    REQUIRE(lines.size() >= 20);
    CHECK(count_lines(shown, R"(I2F\.U32\.RP)") == 1);
    CHECK(count_lines(shown, R"(MUFU\.RCP)") == 1);
    CHECK(count_lines(shown, R"(@!?P\d+ FADD)") == 1);
    CHECK(count_lines(shown, R"(BAR\.SYNC)") == 1);
    // The remainder: more than a dozen instructions from I2F to the test of
    // its result, which predicates the loads.
    const std::size_t from = ch03test::find_line(lines, R"(I2F\.U32\.RP)");
    const std::size_t to = ch03test::find_line(lines, R"(@!?P\d+ LDS)");
    CHECK(to > from + 12);
    CHECK(to < lines.size());
    // It ends with the jump back to its first line.
    CHECK(std::regex_search(lines.back(), std::regex(R"(BRA 0x190)")));
}

TEST_CASE("3.2: in every level up to stride 16 every warp of step 1 has a working lane",
          "[ch03][claims]") {
    for (int s = 1; s <= 16; s *= 2)
        for (int warp = 0; warp < ch03test::tree::kBlock / 32; ++warp) {
            CAPTURE(s, warp);
            CHECK(!ch03test::tree::words_read(1, s, warp, false).empty());
        }
    CHECK(ch03test::tree::words_read(1, 32, 1, false).empty());  // from stride 32 on, not
}

TEST_CASE("3.2: the time of steps 1 to 3 falls nearly in proportion to the instructions",
          "[ch03][claims]") {
    const auto prof = record("reduce-profile");
    for (const auto& [a, b] : {std::pair{"s1_p1", "s2_p1"}, std::pair{"s2_p1", "s3_p1"}}) {
        CAPTURE(a, b);
        const double time_ratio = ncu(prof, a, kTime) / ncu(prof, b, kTime);
        const double inst_ratio = ncu(prof, a, kInst) / ncu(prof, b, kInst);
        CHECK(time_ratio > 1.1);
        CHECK(time_ratio / inst_ratio == Approx(1.0).margin(0.2));
    }
}

TEST_CASE("3.2: steps 1 to 3 stay far from the ceiling, the memory mostly idle", "[ch03][claims]") {
    const auto bench = record("reduce-bench");
    CHECK(result(bench, "sequential_of_ceiling_2e28") < 0.3);
    // "the memory sits mostly idle": less than a third as busy as under step 7
    const auto prof = record("reduce-profile");
    CHECK(ncu(prof, "s3_p1", kDram) < ncu(prof, "s7_p1", kDram) / 3);
}

TEST_CASE("3.3: step 4 issues about half of step 3's instructions", "[ch03][claims]") {
    const auto prof = record("reduce-profile");
    const double r = ncu(prof, "s4_p1", kInst) / ncu(prof, "s3_p1", kInst);
    CHECK(r > 0.4);
    CHECK(r < 0.65);
}

TEST_CASE(
    "3.3: step 6 issues fewer instructions than step 5 and takes the same time, well below the "
    "ceiling",
    "[ch03][claims]") {
    const auto prof = record("reduce-profile");
    CHECK(ncu(prof, "s6_p1", kInst) < ncu(prof, "s5_p1", kInst));
    const auto bench = record("reduce-bench");
    CHECK(result(bench, "warp_block_us_2e28") / result(bench, "last_warp_us_2e28") ==
          Approx(1.0).margin(0.05));
    CHECK(result(bench, "warp_block_of_ceiling_2e28") <= 0.8);
    // The memory system sees less of its peak than under step 7.
    CHECK(ncu(prof, "s6_p1", kDram) < 0.85 * ncu(prof, "s7_p1", kDram));
}

TEST_CASE("3.3: the shuffles inside if (warp == 0) are guarded by BRA.DIV and WARPSYNC",
          "[ch03][claims]") {
    const std::string sass = text(record("reduce-sass"), "sass:reduce_warp_block");
    CHECK(count_lines(sass, R"(BRA\.DIV)") >= 1);
    CHECK(count_lines(sass, R"(WARPSYNC\.COLLECTIVE)") >= 1);
}

TEST_CASE("3.4: without volatile the six loads of the tail come before its first addition",
          "[ch03][claims]") {
    const std::string sass = text(record("warp-tail-sass"), "sass:sum_tail_plain");
    // The tail: from the load of s[tid + 32] (offset 0x80) to the block's end.
    const auto tail = region(sass, R"(LDS R\d+, \[R\d+\+0x80\])", R"(\bEXIT\b)");
    const std::vector<std::string> lines(tail.begin(), tail.end());
    const std::size_t first_add = find_line(lines, R"(\bFADD\b)");
    for (const char* offset : {"0x80", "0x40", "0x20", "0x10", "0x8", "0x4"}) {
        CAPTURE(offset);
        CHECK(find_line(lines, std::string(R"(LDS R\d+, \[R\d+\+)") + offset + R"(\])") <
              first_add);
    }
    CHECK(count_in(tail, R"(\bSTS\b)") == 1);  // the result, stored once
}

TEST_CASE("3.4: with volatile every line is loads, an addition and a store, with no branch",
          "[ch03][claims]") {
    const std::string sass = text(record("warp-tail-sass"), "sass:sum_tail_volatile");
    const auto tail = region(sass, R"(LDS R\d+, \[R\d+\+0x80\])", R"(\bEXIT\b)");
    CHECK(count_in(tail, R"(\bSTS\b)") == 6);
    CHECK(count_in(tail, R"(\bFADD\b)") == 6);
    CHECK(count_in(tail, R"(\bLDS\b)") >= 12);
    CHECK(count_in(tail, R"(\bBRA\b|\bBSSY\b|\bBAR\b|WARPSYNC)") == 0);
}

TEST_CASE("3.4: the __syncwarp tail has a NOP where each __syncwarp stood", "[ch03][claims]") {
    const std::string sass = text(record("warp-tail-sass"), "sass:sum_tail_syncwarp");
    const auto tail = region(sass, R"(LDS R\d+, \[R\d+\+0x80\])", R"(\bEXIT\b)");
    CHECK(count_in(tail, R"(\bNOP\b)") == 10);  // two per round, five rounds
    CHECK(count_in(tail, R"(WARPSYNC|\bBAR\b)") == 0);
}

TEST_CASE("3.4: the racecheck report the chapter shows", "[ch03][claims]") {
    const std::string report = text(record("warp-tail-volatile-racecheck"), "sanitizer:racecheck");
    CHECK(
        count_lines(
            report,
            R"(Potential RAW hazard detected at __shared__ 0x[0-9a-f]+ in block \([0-9]+,[0-9]+,[0-9]+\))") >=
        1);
    CHECK(count_lines(report, "RACECHECK SUMMARY") == 1);
    CHECK(result(record("warp-tail-plain-racecheck"), "sanitizer_warnings") > 0);
}

TEST_CASE("3.5: step 7 keeps the memory busier with far fewer instructions than step 6",
          "[ch03][claims]") {
    const auto prof = record("reduce-profile");
    CHECK(ncu(prof, "s7_p1", kDram) > ncu(prof, "s6_p1", kDram));
    CHECK(ncu(prof, "s7_p1", kInst) < 0.5 * ncu(prof, "s6_p1", kInst));
}

TEST_CASE("3.6: on 2^16 floats step 7 takes clearly longer than a launch that only reads",
          "[ch03][claims]") {
    const auto bench = record("reduce-bench");
    CHECK(result(bench, "two_pass_us_2e16") > 1.3 * result(bench, "ceiling_us_2e16"));
    CHECK(result(bench, "two_pass_of_ceiling_2e28") > 0.95);
}

TEST_CASE("3.7: at 2^16 CUB makes two launches; replayed from graphs the gap closes",
          "[ch03][claims]") {
    const auto small = record("reduce-profile-small");
    CHECK(ncu(small, "cub_p2", "launch__grid_size") == 1);
    CHECK(ncu(small, "s8", kTime) < ncu(small, "cub_p1", kTime) + ncu(small, "cub_p2", kTime));
    const auto bench = record("reduce-bench");
    for (const char* size : {"2e16", "2e20"}) {
        CAPTURE(size);
        const double graphs = result(bench, std::string("graph_best_over_cub_") + size);
        CHECK(graphs > 0.75);
        CHECK(graphs < 1.25);
        CHECK(result(bench, std::string("best_over_cub_") + size) > graphs);
    }
}

TEST_CASE("3.7: at 2^24 CUB's first kernel streams faster; step 8 wins by a few percent",
          "[ch03][claims]") {
    const auto prof = record("reduce-profile");
    CHECK(ncu(prof, "cub_p1", "launch__grid_size") == 4096);  // 64 MiB in tiles of 16 KiB
    CHECK(ncu(prof, "cub_p1", kTime) <= 1.02 * ncu(prof, "ceiling", kTime));
    CHECK(ncu(prof, "cub_p1", kTime) < ncu(prof, "s8", kTime));
    const double r = result(record("reduce-bench"), "best_over_cub_2e24");
    CHECK(r > 1.0);
    CHECK(r < 1.15);
}

TEST_CASE("3.7: at 2^28 step 8, CUB and the ceiling read within a few percent of each other",
          "[ch03][claims]") {
    const auto bench = record("reduce-bench");
    const double ceiling = result(bench, "ceiling_tbs_2e28");
    CHECK(result(bench, "one_pass_tbs_2e28") / ceiling == Approx(1.0).margin(0.05));
    CHECK(result(bench, "cub_tbs_2e28") / ceiling == Approx(1.0).margin(0.05));
}

TEST_CASE("3.5: on 2^24 floats step 8's kernel is faster with streaming loads than without",
          "[ch03][claims]") {
    const auto sweep = record("reduce-sweep");
    CHECK(result(sweep, "sweep_best_stride_ldcs_2e24") >
          result(sweep, "sweep_best_stride_plain_2e24"));
}

TEST_CASE("Try it: no layout or load hint reads 2^24 floats much faster than step 8's own",
          "[ch03][claims]") {
    const auto sweep = record("reduce-sweep");
    std::vector<double> best;
    for (const char* layout : {"stride", "tiles", "even"})
        for (const char* hint : {"plain", "ldg", "ldcs", "l2_256"})
            best.push_back(
                result(sweep, std::string("sweep_best_") + layout + "_" + hint + "_2e24"));
    const double top = *std::max_element(best.begin(), best.end());
    // Step 8's own kernel is stride.ldcs (stream_load in reduce_plan.hpp).
    CHECK(top / result(sweep, "sweep_best_stride_ldcs_2e24") < 1.07);
    CHECK(result(sweep, "sweep_best_over_cub_2e24") >= top);
}

TEST_CASE("3.3: in step 5 warps 1 to 7 leave before the shuffles, which need no barrier",
          "[ch03][claims]") {
    const std::string sass = text(record("reduce-sass"), "sass:reduce_last_warp");
    const auto after_exit = region(sass, R"(\bEXIT\b)", R"(^/\*[0-9a-f]+\*/\s+EXIT\b)");
    CHECK(count_in(after_exit, R"(SHFL\.DOWN)") == 5);
    CHECK(count_in(after_exit, R"(BAR\.SYNC)") == 0);
    CHECK(count_lines(sass, R"(SHFL\.DOWN)") == 5);
}

TEST_CASE("3.8: the loop's error is the largest by far at every size", "[ch03][claims]") {
    const auto acc = record("reduce-accuracy");
    for (const char* size : {"2e16", "2e20", "2e24", "2e28"})
        for (const char* other : {"cpu_tree", "sequential", "one_pass", "cub"}) {
            CAPTURE(size, other);
            CHECK(result(acc, std::string("acc_loop_rel_err_") + size) >
                  10 * result(acc, std::string("acc_") + other + "_rel_err_" + size));
        }
}
