// Chapter 4's "check yourself" answers (chapters/ch04-latency/08-check-yourself.md), one test per
// question id. Each test is tagged [cy:<id>]; the book's build fails if a
// question has no test or a test has no question. The figures an answer states
// come from tests/ch04-latency/answers.json (book::test::answer) and are checked
// against the chapter's model of Little's law (little.hpp, the functions
// littles_law and issue_rate compute with) and against small simulations of the
// pointer chase written here.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <random>
#include <set>
#include <vector>

#include "book/test/records.hpp"
#include "little.hpp"

namespace {

using book::test::answer;

int as_int(double v) { return static_cast<int>(v); }

// The 128-byte lines of a walk's loads (byte addresses): how many loads touch a
// line other than the one the load before touched.
long new_lines(const std::vector<std::uint64_t>& addresses, std::uint64_t line) {
    long fresh = 0;
    std::uint64_t last = ~std::uint64_t{0};
    for (const std::uint64_t a : addresses) {
        if (a / line != last) ++fresh;
        last = a / line;
    }
    return fresh;
}

}  // namespace

TEST_CASE("bytes in flight: warps x lanes x loads x width", "[ch04][cy:ch04-bytes-in-flight]") {
    const int warps = as_int(answer("ch04-bytes-in-flight", "warps"));
    const int loads = as_int(answer("ch04-bytes-in-flight", "loads"));
    const int width = as_int(answer("ch04-bytes-in-flight", "width"));
    CHECK(answer("ch04-bytes-in-flight", "lanes") == ch04::kWarpLanes);
    const double bytes = ch04::bytes_in_flight(warps, loads, width);
    CHECK(answer("ch04-bytes-in-flight", "bytes") == bytes);
    CHECK(answer("ch04-bytes-in-flight", "kib") * 1024 == bytes);
}

TEST_CASE("a quarter of the warps, the same bytes: more loads or wider ones",
          "[ch04][cy:ch04-same-bytes]") {
    const int many = as_int(answer("ch04-same-bytes", "many_warps"));
    const int few = as_int(answer("ch04-same-bytes", "few_warps"));
    const int loads = as_int(answer("ch04-same-bytes", "loads"));
    const int narrow = as_int(answer("ch04-same-bytes", "narrow"));
    const int width = as_int(answer("ch04-same-bytes", "width"));
    CHECK(answer("ch04-same-bytes", "lanes") == ch04::kWarpLanes);
    CHECK(few * 4 == many);  // a quarter of the warps, as the question asks
    const double full = ch04::bytes_in_flight(many, 1, narrow);
    CHECK(answer("ch04-same-bytes", "bytes") == full);
    CHECK(ch04::bytes_in_flight(few, loads, narrow) == full);
    CHECK(ch04::bytes_in_flight(few, 1, width) == full);
    // The model gives them the same bandwidth, at any latency and ceiling.
    for (const double latency : {300.0, 700.0})
        CHECK(ch04::model_tbs(ch04::bytes_in_flight(few, loads, narrow), 132, latency, 3.0) ==
              ch04::model_tbs(full, 132, latency, 3.0));
}

TEST_CASE("the knee scales with the bandwidth", "[ch04][cy:ch04-h200-knee]") {
    // The datasheets' figures the question quotes (TB/s), the same SMs and latency.
    const double h100 = 3.35, h200 = 4.8;
    for (const double latency : {400.0, 600.0, 900.0}) {
        const double ratio = ch04::knee_bytes_per_sm(h200, latency, 132) /
                             ch04::knee_bytes_per_sm(h100, latency, 132);
        CHECK(answer("ch04-h200-knee", "ratio") == Approx(ratio).epsilon(1e-12));
    }
}

TEST_CASE("the knee: bandwidth x latency / SMs", "[ch04][cy:ch04-knee-arithmetic]") {
    const double tbs = answer("ch04-knee-arithmetic", "tbs");
    const double latency = answer("ch04-knee-arithmetic", "latency_ns");
    const int sms = as_int(answer("ch04-knee-arithmetic", "sms"));
    CHECK(answer("ch04-knee-arithmetic", "bytes_per_ns") == tbs * 1e3);
    // Whole numbers: the bytes in flight the whole GPU needs, exactly (a tolerance
    // would take a total one byte off for the right one).
    CHECK(answer("ch04-knee-arithmetic", "total") == tbs * 1e3 * latency);
    const double knee = ch04::knee_bytes_per_sm(tbs, latency, sms);
    CHECK(answer("ch04-knee-arithmetic", "per_sm") == Approx(knee).epsilon(1e-12));
    // At the knee the model's line meets the ceiling; below it, it is below.
    CHECK(ch04::model_tbs(knee, sms, latency, tbs) == Approx(tbs));
    CHECK(ch04::model_tbs(knee / 2, sms, latency, tbs) == Approx(tbs / 2));
}

TEST_CASE("ceil(L / k) warps at Volta's 4-cycle FMA", "[ch04][cy:ch04-issue-rule]") {
    const double latency = 4, peak = 1;  // the question's: cycles, and one FMA a cycle
    CHECK(answer("ch04-issue-rule", "warps_k1") == ch04::warps_to_hide(latency, peak, 1));
    CHECK(answer("ch04-issue-rule", "warps_k2") == ch04::warps_to_hide(latency, peak, 2));
    CHECK(answer("ch04-issue-rule", "warps_k4") == ch04::warps_to_hide(latency, peak, 4));
    CHECK(answer("ch04-issue-rule", "warps_k8") == ch04::warps_to_hide(latency, peak, 8));
    // The fewest chains with which one warp suffices.
    int k = 1;
    while (ch04::warps_to_hide(latency, peak, k) > 1) ++k;
    CHECK(answer("ch04-issue-rule", "k_enough") == k);
}

TEST_CASE("a walk in order shares lines; a random cycle of far lines does not",
          "[ch04][cy:ch04-random-chase]") {
    const auto pointer = static_cast<std::uint64_t>(answer("ch04-random-chase", "pointer"));
    const auto line = static_cast<std::uint64_t>(answer("ch04-random-chase", "line"));
    const auto spacing = static_cast<std::uint64_t>(answer("ch04-random-chase", "spacing"));
    const std::uint64_t n = 4096;
    // In order: one pointer after another.
    std::vector<std::uint64_t> in_order(n);
    for (std::uint64_t i = 0; i < n; ++i) in_order[i] = i * pointer;
    const long fresh = new_lines(in_order, line);
    CHECK(static_cast<double>(n) / fresh == answer("ch04-random-chase", "per_line"));
    CHECK(answer("ch04-random-chase", "hits") == answer("ch04-random-chase", "per_line") - 1);
    // A random cycle through lines `spacing` bytes apart (the chase's lines lie
    // 256 bytes apart, two cache lines): every load a line of its own, never the
    // last one's, and no line visited twice before the cycle closes.
    CHECK(spacing == 2 * line);
    std::vector<std::uint64_t> order(n);
    std::iota(order.begin(), order.end(), std::uint64_t{0});
    std::mt19937_64 gen(Catch::rngSeed() + 4u);
    std::shuffle(order.begin(), order.end(), gen);
    std::vector<std::uint64_t> walk(n);
    std::set<std::uint64_t> lines;
    for (std::uint64_t i = 0; i < n; ++i) {
        walk[i] = order[i] * spacing;
        lines.insert(walk[i] / line);
    }
    CHECK(new_lines(walk, line) == static_cast<long>(n));
    CHECK(lines.size() == n);
}

TEST_CASE("the footprint sweep: the same lines over more pages", "[ch04][cy:ch04-tlb-footprint]") {
    const auto lines = static_cast<std::uint64_t>(answer("ch04-tlb-footprint", "lines"));
    // The large page the question names: the 2 MiB the chase's aligned region
    // (chase.cu) aligns to.
    CHECK(answer("ch04-tlb-footprint", "page_mib") == 2);
    const std::uint64_t page = static_cast<std::uint64_t>(answer("ch04-tlb-footprint", "page_mib"))
                               << 20;
    auto gap = [&](double mib) { return (static_cast<std::uint64_t>(mib) << 20) / lines; };
    auto pages = [&](double mib) { return (static_cast<std::uint64_t>(mib) << 20) / page; };
    const double small = answer("ch04-tlb-footprint", "small_mib");
    const double large = answer("ch04-tlb-footprint", "large_mib");
    CHECK(small == 8);          // the sweep's smallest footprint, 8 MiB
    CHECK(large == 32 * 1024);  // and its largest, 32 GiB
    CHECK(answer("ch04-tlb-footprint", "small_gap") == gap(small));
    CHECK(answer("ch04-tlb-footprint", "small_pages") == pages(small));
    CHECK(answer("ch04-tlb-footprint", "large_gap") == gap(large));
    CHECK(answer("ch04-tlb-footprint", "large_pages") == pages(large));
    // At the smallest footprint the lines are packed a line apart (the chase's
    // 256 bytes): nothing smaller can hold them.
    CHECK(gap(small) == 256);
}

TEST_CASE("chapter 2's stencils: new bytes in flight per SM", "[ch04][cy:ch04-stencil-in-flight]") {
    const double plain = ch04::bytes_in_flight(64, 1, 4);
    const double vec = ch04::bytes_in_flight(64, 1, 16);
    CHECK(answer("ch04-stencil-in-flight", "plain") == plain);
    CHECK(answer("ch04-stencil-in-flight", "vec") == vec);
    CHECK(answer("ch04-stencil-in-flight", "factor") == vec / plain);
    // Below the knee the model's bandwidth grows in proportion.
    CHECK(ch04::model_tbs(vec, 132, 700, 1e9) / ch04::model_tbs(plain, 132, 700, 1e9) ==
          Approx(vec / plain));
}
