// The chapter's "check yourself" answers, one test per question id. Each test
// is tagged [cy:<id>]; the book's build fails if a question has no test or a
// test has no question. Answers about the hardware are checked against the
// records the built book shows (book::test::record: on a GPU machine the runs
// of this build, elsewhere the committed recordings it imported), answers
// about the model against the warp model.
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <regex>
#include <string>
#include <vector>

#include "book/test/records.hpp"
#include "py_random.hpp"
#include "warp_model.hpp"

namespace {

using book::test::answer;
using book::test::record;
using book::test::result;

// The value an expectation of the run computed (the chapter quotes some of them).
double check_value(const nlohmann::json& rec, const std::string& id) {
    for (const auto& c : rec.at("checks"))
        if (c.value("id", "") == id) return c.at("value").get<double>();
    FAIL("record " << rec.value("name", "?") << " has no check " << id);
    return 0;
}

}  // namespace

TEST_CASE("switching warps needs no saving: every resident thread's registers fit at once",
          "[ch01][cy:ch01-warp-switch-free]") {
    const auto q = record("device-query");
    const double regs = result(q, "regs_per_sm"), threads = result(q, "max_threads_per_sm");
    CHECK(regs == 65536);
    CHECK(threads == 2048);
    CHECK(regs / threads == 32);                          // registers per thread with the SM full
    CHECK(check_value(q, "regs-per-thread-full") == 32);  // the number the answer quotes
    CHECK(result(q, "max_warps_per_sm") * 32 == threads);
}

TEST_CASE("threadIdx.x < 64 splits no warp of 256 threads; < 48 splits warp 1",
          "[ch01][cy:ch01-threshold-64]") {
    CHECK(ch01::diverging_warps(256, [](int t) { return t < 64; }).empty());
    CHECK(ch01::diverging_warps(256, [](int t) { return t < 48; }) == std::vector<int>{1});
    // The figures the answer states (answers.json).
    const auto a = [](const char* name) { return answer("ch01-threshold-64", name); };
    const int ta = static_cast<int>(a("threshold_a")), tb = static_cast<int>(a("threshold_b"));
    CHECK(ta == 64);  // the question's thresholds
    CHECK(tb == 48);
    CHECK(ch01::diverging_warps(256, [&](int t) { return t < ta; }).empty());
    CHECK(a("first_thread") == 0);
    CHECK(a("last_thread_a") == ta - 1);
    CHECK(a("first_warp") == ch01::warp_of(static_cast<int>(a("first_thread"))));
    CHECK(a("last_warp_a") == ch01::warp_of(static_cast<int>(a("last_thread_a"))));
    CHECK(static_cast<int>(a("last_thread_a") + 1) % 32 == 0);  // the warps end there
    const auto split = ch01::diverging_warps(256, [&](int t) { return t < tb; });
    REQUIRE(split.size() == 1);
    CHECK(a("split_warp_b") == split[0]);
    CHECK(a("split_first_b") == 32 * split[0]);
    CHECK(a("split_last_b") == 32 * split[0] + 31);
}

TEST_CASE("independent thread scheduling did not make divergence cheap",
          "[ch01][cy:ch01-its-not-cheap]") {
    const auto s = record("div-sweep");
    // About twice the warp instructions, at both sizes profiled, for the same
    // thread instructions.
    for (const std::string w : {"w1", "w32"}) {
        INFO("launches of " << w);
        const double uni = result(s, "ncu:uniform_" + w + ":smsp__inst_executed.sum");
        const double div = result(s, "ncu:divergent_" + w + ":smsp__inst_executed.sum");
        CHECK(div / uni == Approx(2.0).epsilon(0.01));
        CHECK(result(s, "ncu:uniform_" + w + ":smsp__thread_inst_executed.sum") ==
              result(s, "ncu:divergent_" + w + ":smsp__thread_inst_executed.sum"));
    }
    CHECK(check_value(s, "instructions-double-w1") ==
          Approx(result(s, "ncu:divergent_w1:smsp__inst_executed.sum") /
                 result(s, "ncu:uniform_w1:smsp__inst_executed.sum")));
    // Active lanes per instruction: all 32 when uniform, about half when divergent.
    CHECK(result(s, "ncu:uniform_w1:smsp__thread_inst_executed_per_inst_executed.ratio") ==
          Approx(32));
    CHECK(result(s, "ncu:divergent_w1:smsp__thread_inst_executed_per_inst_executed.ratio") ==
          Approx(16).margin(0.5));
}

TEST_CASE("thread (3, 2) of a 16x16 block is warp 1, lane 3", "[ch01][cy:ch01-2d-block-warp]") {
    // Lay the block out as the hardware does, independently of the formula the
    // answer uses: x varies fastest, and every 32 consecutive threads in that
    // order form a warp.
    std::vector<std::pair<int, int>> order;  // (x, y) in linear order
    for (int y = 0; y < 16; ++y)
        for (int x = 0; x < 16; ++x) order.emplace_back(x, y);
    const auto at = std::find(order.begin(), order.end(), std::make_pair(3, 2)) - order.begin();
    CHECK(at / 32 == 1);  // warp 1
    CHECK(at % 32 == 3);  // lane 3
    // The figures the answer states (answers.json).
    const auto a = [](const char* name) { return answer("ch01-2d-block-warp", name); };
    CHECK(a("x") == 3);  // the question's thread and block
    CHECK(a("y") == 2);
    CHECK(a("width") == 16);
    CHECK(a("linear_id") == at);
    CHECK(a("linear_id") == a("x") + a("y") * a("width"));
    CHECK(a("warp") == at / 32);
    CHECK(a("lane") == at % 32);
    CHECK(a("warps") == ch01::warps_per_block(16 * 16));
    CHECK(a("rows_per_warp") == 32 / 16);
    // The model's functions agree with the layout, thread by thread.
    for (int t = 0; t < static_cast<int>(order.size()); ++t) {
        INFO("thread " << t);
        const auto [x, y] = order[static_cast<std::size_t>(t)];
        CHECK(ch01::linear_thread_id({x, y, 0}, {16, 16, 1}) == t);
        CHECK(ch01::warp_of(t) == t / 32);
    }
    // Eight warps, each holding exactly two whole rows.
    CHECK(ch01::warps_per_block(16 * 16) == 8);
    for (int w = 0; w < 8; ++w) {
        std::vector<int> rows;
        for (int lane = 0; lane < 32; ++lane)
            rows.push_back(order[static_cast<std::size_t>(w * 32 + lane)].second);
        std::sort(rows.begin(), rows.end());
        rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
        CHECK(rows == std::vector<int>{2 * w, 2 * w + 1});
    }
}

TEST_CASE("a block of 48 threads is two warps with 16 idle lanes", "[ch01][cy:ch01-block-of-48]") {
    CHECK(ch01::warps_per_block(48) == 2);
    CHECK(ch01::idle_lanes_in_last_warp(48) == 16);
    const auto a = [](const char* name) { return answer("ch01-block-of-48", name); };
    CHECK(a("warps") == ch01::warps_per_block(48));
    CHECK(a("idle_lanes") == ch01::idle_lanes_in_last_warp(48));
    CHECK(a("active_lanes") == 48 - 32 * (a("warps") - 1));
}

TEST_CASE("a loop runs as long as its slowest lane", "[ch01][cy:ch01-slowest-lane-loop]") {
    std::vector<long long> trips(32);
    std::iota(trips.begin(), trips.end(), 1);
    CHECK(ch01::loop_lane_efficiency(trips) == Approx(528.0 / 1024.0));
    CHECK(ch01::loop_lane_efficiency(trips) == Approx(0.516).margin(0.0005));
    const auto a = [](const char* name) { return answer("ch01-slowest-lane-loop", name); };
    CHECK(a("warp_trips") == *std::max_element(trips.begin(), trips.end()));
    CHECK(a("fewest") == *std::min_element(trips.begin(), trips.end()));
    CHECK(a("lanes") == static_cast<double>(trips.size()));
    CHECK(a("lane_iterations") == a("warp_trips") * a("lanes"));
    CHECK(a("useful") == std::accumulate(trips.begin(), trips.end(), 0LL));
    CHECK(a("efficiency") == Approx(ch01::loop_lane_efficiency(trips)).margin(0.0005));
}

TEST_CASE("Little's law: warps needed to hide a 4-cycle latency", "[ch01][cy:ch01-little-law]") {
    CHECK(ch01::warps_to_hide_latency(4, 1) == 4);
    CHECK(ch01::warps_to_hide_latency(4, 2) == 2);
    const auto a = [](const char* name) { return answer("ch01-little-law", name); };
    CHECK(a("warps_ilp1") == ch01::warps_to_hide_latency(4, 1));
    CHECK(a("ilp2") == 2);  // the question's second case
    CHECK(a("warps_ilp2") == ch01::warps_to_hide_latency(4, static_cast<int>(a("ilp2"))));
    CHECK(ch01::warps_to_hide_latency(500, 1) == 500);  // memory latency needs ILP too
    CHECK_THROWS(ch01::warps_to_hide_latency(0, 1));
}

TEST_CASE("a first launch carries module loading; a host clock carries launch overhead",
          "[ch01][cy:ch01-first-launch-timing]") {
    const auto lazy = record("div-first-launch");
    const auto eager = record("div-first-launch-eager");
    const double first = result(lazy, "first_launch_ms_uniform");
    const double divergent = result(lazy, "first_launch_ms_divergent");
    const double again = result(lazy, "first_launch_ms_uniform_again");
    // The uniform kernel looked slower, by its first launch only.
    CHECK(first > 1.5 * divergent);
    // Launched again, it takes about what the divergent launch took, or less.
    CHECK(again <= 1.15 * divergent);
    // Loading the module at start-up removes most of the first launch's extra time.
    const double eager_extra =
        result(eager, "first_launch_ms_uniform") - result(eager, "first_launch_ms_divergent");
    CHECK(eager_extra < 0.5 * (first - divergent));
    CHECK(book::test::text(eager, "cuda_module_loading") == "EAGER");
    // But not all of it: even eagerly loaded, the first launches do not show what
    // divergence costs, which events after a warm-up measure.
    CHECK(result(eager, "first_launch_ms_divergent") / result(eager, "first_launch_ms_uniform") <
          result(eager, "right_ratio"));
    // Events time less than the host clock: the difference is launching and waiting.
    CHECK(result(lazy, "right_uniform_ms") < again);
}

TEST_CASE("at one wave the uniform kernel waits for its path-B SMs",
          "[ch01][cy:ch01-one-wave-ratio]") {
    const auto s = record("div-sweep");
    // A few percent at one wave, near the instruction factor at 32 waves.
    CHECK(result(s, "ratio_w1") >= 1.0);
    CHECK(result(s, "ratio_w1") <= 1.15);
    CHECK(result(s, "ratio_w32") >= 1.8);
    CHECK(result(s, "ratio_w32") <= 2.05);
    // Both sizes Nsight Compute profiled issue about twice the warp instructions.
    const double waves = answer("ch01-one-wave-ratio", "waves_profiled");
    CHECK(waves == 32);
    for (const std::string w : {std::string("w1"), "w" + std::to_string(static_cast<int>(waves))})
        CHECK(result(s, "ncu:divergent_" + w + ":smsp__inst_executed.sum") /
                  result(s, "ncu:uniform_" + w + ":smsp__inst_executed.sum") ==
              Approx(2.0).epsilon(0.01));
    // It climbs with the grid.
    double last = 0;
    for (int w : {1, 2, 4, 8, 16, 32}) {
        INFO("ratio at " << w << " waves");
        const double r = result(s, "ratio_w" + std::to_string(w));
        CHECK(r >= 0.99 * last);
        last = r;
    }
    // Placement: every SM held blocks of one parity, and half of them only the
    // even blocks, which take path B.
    const double used = result(s, "placement_sms_used");
    CHECK(result(s, "placement_pure_sms") >= 0.9 * used);
    CHECK(result(s, "placement_pure_even_sms") >= 0.4 * used);
    CHECK(result(s, "placement_pure_even_sms") <= 0.6 * used);
    // The paths differ in cost: path A was folded to a multiply-add by 81 (0x51),
    // plus 40 (0x28); path B keeps a shift, a logic op and an add per iteration.
    const std::string sass = book::test::text(s, "sass:diverge");
    CHECK(sass.find("0x51") != std::string::npos);
    CHECK(std::regex_search(sass, std::regex(R"(IMAD R\d+, R\d+, R\d+, 0x28)")));
    CHECK(sass.find("SHF.R.U32.HI") != std::string::npos);
    CHECK(sass.find("LOP3") != std::string::npos);
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
    CHECK(answer("ch01-sorted-input", "sorted_efficiency") ==
          Approx(sorted.efficiency()).margin(0.0005));
}
