// The launch side of chapter 3's streaming kernels (code/ch03-reductions/
// reduce_plan.hpp): tunings, the size policy, the variants of the layout
// comparison, the walks the kernels take through the float4s, and the
// command-line options that take text (reduce_options.hpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "reduce_bounds.hpp"
#include "reduce_options.hpp"
#include "reduce_plan.hpp"

using ch03::candidate;
using ch03::launch_policy;
using ch03::layout;
using ch03::load_kind;
using ch03::size_rule;
using ch03::tuning;
using ch03::variant;

TEST_CASE("a tuning's text: threads x blocks per SM x unroll", "[ch03][launch]") {
    CHECK(ch03::tuning_text(tuning{256, 4, 4}) == "256x4x4");
    CHECK(ch03::parse_tuning("1024x2x8") == tuning{1024, 2, 8});
    for (const tuning& t : {tuning{64, 1, 1}, tuning{256, 64, 2}, tuning{1024, 32, 8}})
        CHECK(ch03::parse_tuning(ch03::tuning_text(t)) == t);
    for (const char* bad : {"", "256", "256x4", "256x4x4x4", "256x4x", "x4x4", "256X4X4",
                            "256x-4x4", "256 x4x4", "256x4x4 ", "2.5x4x4"})
        CHECK_THROWS_WITH(ch03::parse_tuning(bad), Catch::Contains(std::string("'") + bad + "'") &&
                                                       Catch::Contains("256x4x4"));
    // Numbers out of range: the message quotes the text and names the field.
    CHECK_THROWS_WITH(ch03::parse_tuning("100x4x4"),
                      Catch::Contains("'100x4x4'") && Catch::Contains("threads"));
    CHECK_THROWS_WITH(ch03::parse_tuning("256x65x4"), Catch::Contains("blocks per SM"));
    CHECK_THROWS_WITH(ch03::parse_tuning("256x4x3"), Catch::Contains("unroll"));
}

TEST_CASE("a launch policy picks the first rule whose bound n does not exceed", "[ch03][launch]") {
    const launch_policy p({{16, {128, 2, 2}}, {22, {256, 4, 4}}, {0, {1024, 2, 4}}});
    CHECK(p.at(0) == tuning{128, 2, 2});
    CHECK(p.at(std::size_t{1} << 16) == tuning{128, 2, 2});  // the bound is inclusive
    CHECK(p.at((std::size_t{1} << 16) + 1) == tuning{256, 4, 4});
    CHECK(p.at(std::size_t{1} << 22) == tuning{256, 4, 4});
    CHECK(p.at((std::size_t{1} << 22) + 1) == tuning{1024, 2, 4});
    CHECK(p.at(std::size_t{1} << 30) == tuning{1024, 2, 4});
    CHECK(p.max_blocks(132) == 528);  // 132 x 4
    CHECK(p.text() == "2e16:128x2x2,2e22:256x4x4,1024x2x4");
    CHECK(ch03::parse_policy(p.text()) == p);

    const launch_policy one(tuning{512, 2, 2});
    CHECK(one.rules().size() == 1);
    CHECK(one.at(12345) == tuning{512, 2, 2});
    CHECK(one.text() == "512x2x2");
    CHECK(ch03::parse_policy("512x2x2") == one);
}

TEST_CASE("a bad launch policy is refused, naming the rule at fault", "[ch03][launch]") {
    using rules = std::vector<size_rule>;
    CHECK_THROWS_WITH(launch_policy(rules{}), Catch::Contains("at least one rule"));
    CHECK_THROWS_WITH(launch_policy(rules{{20, {256, 4, 4}}}), Catch::Contains("no bound"));
    CHECK_THROWS_WITH(launch_policy(rules{{20, {256, 4, 4}}, {20, {1024, 2, 4}}, {0, {64, 1, 1}}}),
                      Catch::Contains("rule 2") && Catch::Contains("rise"));
    CHECK_THROWS_WITH(launch_policy(rules{{0, {256, 4, 4}}, {0, {1024, 2, 4}}}),
                      Catch::Contains("rule 1") && Catch::Contains("2^0"));
    CHECK_THROWS_WITH(launch_policy(rules{{63, {256, 4, 4}}, {0, {1024, 2, 4}}}),
                      Catch::Contains("2^63"));
    CHECK_THROWS_WITH(launch_policy(rules{{0, {100, 4, 4}}}), Catch::Contains("threads"));

    CHECK_THROWS_WITH(ch03::parse_policy("2e20:256x4x4"),
                      Catch::Contains("'2e20:256x4x4'") && Catch::Contains("no bound"));
    CHECK_THROWS_WITH(ch03::parse_policy("256x4x4,1024x2x4"),
                      Catch::Contains("'256x4x4'") && Catch::Contains("needs a bound"));
    CHECK_THROWS_WITH(ch03::parse_policy("2^20:256x4x4,1024x2x4"),
                      Catch::Contains("'2^20'") && Catch::Contains("2e20"));
    CHECK_THROWS_WITH(ch03::parse_policy("2e99:256x4x4,1024x2x4"), Catch::Contains("'2e99'"));
    CHECK_THROWS_WITH(ch03::parse_policy("2e20:256x4,1024x2x4"),
                      Catch::Contains("'2e20:256x4'") && Catch::Contains("'256x4'"));
    CHECK_THROWS_WITH(ch03::parse_policy("2e22:256x4x4,2e20:128x4x4,1024x2x4"),
                      Catch::Contains("rise"));
    CHECK_THROWS_WITH(ch03::parse_policy(""), Catch::Contains("''"));
    CHECK_THROWS_WITH(ch03::parse_policy("2e20:256x4x4,"), Catch::Contains("''"));
}

TEST_CASE("the default policy is valid and covers every size", "[ch03][launch]") {
    const launch_policy p = ch03::default_policy();
    CHECK(ch03::parse_policy(p.text()) == p);
    for (int k = 0; k <= 30; ++k) CHECK_NOTHROW(ch03::check_tuning(p.at(std::size_t{1} << k)));
    CHECK(p.rules().back().max_log2 == 0);
}

TEST_CASE("the variants of the layout comparison", "[ch03][launch]") {
    const auto& all = ch03::all_variants();
    REQUIRE(all.size() == 13);  // 3 layouts x 4 load kinds, and the old kernel
    CHECK(all.front() == variant{layout::stride, load_kind::plain});  // step 8's first
    std::set<std::string> names;
    for (const variant& v : all) {
        const std::string name = ch03::variant_text(v);
        names.insert(name);
        CHECK(ch03::parse_variant(name) == v);
    }
    CHECK(names.size() == all.size());
    CHECK(names.count("stride.plain") == 1);
    CHECK(names.count("tiles.ldg") == 1);
    CHECK(names.count("even.l2_256") == 1);
    CHECK(names.count("old.plain") == 1);
    CHECK(ch03::parse_variant("tiles") == variant{layout::tiles, load_kind::plain});
    CHECK(ch03::parse_variant("old") == variant{layout::old, load_kind::plain});
    CHECK_THROWS_WITH(ch03::parse_variant("old.ldg"),
                      Catch::Contains("'old.ldg'") && Catch::Contains("stride.plain"));
    CHECK_THROWS_WITH(ch03::parse_variant("grid"), Catch::Contains("'grid' is no variant"));

    const std::vector<candidate> c = ch03::parse_candidates("tiles.ldg:256x32x4,old:1024x2x2");
    REQUIRE(c.size() == 2);
    CHECK(c[0] == candidate{{layout::tiles, load_kind::ldg}, {256, 32, 4}});
    CHECK(c[1] == candidate{{layout::old, load_kind::plain}, {1024, 2, 2}});
    CHECK(ch03::candidate_text(c[0]) == "tiles.ldg:256x32x4");
    CHECK_THROWS_WITH(ch03::parse_candidates("tiles.ldg"), Catch::Contains("variant:tuning"));
    CHECK_THROWS_WITH(ch03::parse_candidates("tiles.ldg:256x32x4,wide:1x1x1"),
                      Catch::Contains("'wide:1x1x1'"));
    CHECK_THROWS_WITH(ch03::parse_candidates("stride:256x4x5"),
                      Catch::Contains("'stride:256x4x5'") && Catch::Contains("unroll"));
}

namespace {

// What the kernels do with a walk (thread_sum in reduce_device.cuh): every
// float4 each (block, thread, slot) loads, counted into `loads`; returns the
// longest chain of additions into one accumulator.
std::size_t simulate(layout lay, std::size_t vectors, unsigned blocks, unsigned threads, int unroll,
                     std::vector<int>& loads) {
    loads.assign(vectors, 0);
    std::size_t longest = 0;
    for (unsigned b = 0; b < blocks; ++b) {
        for (unsigned t = 0; t < threads; ++t) {
            const ch03::thread_walk w = ch03::walk(lay, vectors, b, blocks, t, threads, unroll);
            REQUIRE(w.end <= vectors);
            std::vector<std::size_t> chain(static_cast<std::size_t>(unroll), 0);
            for (std::size_t i = w.first; i < w.end; i += w.round_step) {
                for (int u = 0; u < unroll; ++u) {
                    const std::size_t j = i + u * w.slot_step;
                    if (j >= w.end) continue;
                    ++loads[j];
                    ++chain[static_cast<std::size_t>(u)];
                }
            }
            longest = std::max(longest, *std::max_element(chain.begin(), chain.end()));
        }
    }
    return longest;
}

}  // namespace

TEST_CASE("every walk reads every float4 exactly once", "[ch03][launch]") {
    std::vector<int> loads;
    for (layout lay : {layout::stride, layout::tiles, layout::even}) {
        for (std::size_t vectors : {0, 1, 5, 63, 64, 65, 1000, 4097, 12345}) {
            for (unsigned blocks : {1u, 2u, 3u, 7u}) {
                for (unsigned threads : {1u, 4u, 32u}) {
                    for (int unroll : {1, 2, 4, 8}) {
                        INFO("layout " << static_cast<int>(lay) << ", " << vectors << " float4s, "
                                       << blocks << " blocks of " << threads << ", unroll "
                                       << unroll);
                        simulate(lay, vectors, blocks, threads, unroll, loads);
                        REQUIRE(
                            std::all_of(loads.begin(), loads.end(), [](int c) { return c == 1; }));
                    }
                }
            }
        }
    }
}

TEST_CASE("the walks' shapes: one round of a block is one tile, or lies in its share",
          "[ch03][launch]") {
    const std::size_t vectors = 10000;
    const unsigned blocks = 3, threads = 32;
    const int unroll = 4;
    for (unsigned b = 0; b < blocks; ++b) {
        // tiles: round r of block b is tile b + r*G, threads*unroll float4s in a row
        const auto w0 = ch03::walk(layout::tiles, vectors, b, blocks, 0, threads, unroll);
        CHECK(w0.first == b * threads * unroll);
        CHECK(w0.round_step == std::size_t{blocks} * threads * unroll);
        CHECK(w0.slot_step == threads);
        // even: block b reads [b*V/G, (b+1)*V/G), its own contiguous share
        const auto e = ch03::walk(layout::even, vectors, b, blocks, 0, threads, unroll);
        CHECK(e.first == vectors * b / blocks);
        CHECK(e.end == vectors * (b + 1) / blocks);
        // stride: thread i of the grid reads i, i + S, ...
        const auto s = ch03::walk(layout::stride, vectors, b, blocks, 5, threads, unroll);
        CHECK(s.first == b * threads + 5);
        CHECK(s.slot_step == std::size_t{blocks} * threads);
        CHECK(s.round_step == std::size_t{blocks} * threads * unroll);
    }
}

TEST_CASE("accumulator_chain is the longest chain the kernels build", "[ch03][float]") {
    std::vector<int> loads;
    for (layout lay : {layout::stride, layout::tiles, layout::even}) {
        for (int sms : {1, 2, 3}) {
            for (const tuning& t : {tuning{64, 1, 1}, tuning{64, 2, 4}, tuning{96, 3, 2},
                                    tuning{128, 8, 8}, tuning{64, 64, 2}}) {
                for (std::size_t vectors : {0, 1, 100, 255, 256, 257, 5000, 50000}) {
                    const std::size_t n = 4 * vectors;  // aligned: exactly `vectors` float4s
                    const auto blocks = static_cast<unsigned>(ch03::stride_blocks(n, t, sms));
                    INFO("layout " << static_cast<int>(lay) << ", " << sms << " SMs, "
                                   << ch03::tuning_text(t) << ", " << vectors << " float4s");
                    const std::size_t longest = simulate(
                        lay, vectors, blocks, static_cast<unsigned>(t.threads), t.unroll, loads);
                    CHECK(longest == ch03::accumulator_chain(lay, n, t, sms));
                    // An unaligned start or a ragged end has no more float4s.
                    for (std::size_t extra : {1, 2, 3})
                        CHECK(ch03::accumulator_chain(lay, n + extra, t, sms) >= longest);
                }
            }
        }
    }
}

TEST_CASE("take_text_option takes the option out of argv", "[ch03][options]") {
    std::vector<std::string> storage = {"reduce",
                                        "--sweep",
                                        "--policy",
                                        "2e20:256x4x4,1024x2x4",
                                        "--reps",
                                        "5",
                                        "--candidates=tiles:256x4x4"};
    std::vector<char*> argv;
    for (std::string& a : storage) argv.push_back(a.data());
    int argc = static_cast<int>(argv.size());
    CHECK(ch03::take_text_option(argc, argv.data(), "--policy") == "2e20:256x4x4,1024x2x4");
    REQUIRE(argc == 5);
    CHECK(ch03::take_text_option(argc, argv.data(), "--candidates") == "tiles:256x4x4");
    REQUIRE(argc == 4);
    CHECK(std::string(argv[0]) == "reduce");
    CHECK(std::string(argv[1]) == "--sweep");
    CHECK(std::string(argv[2]) == "--reps");
    CHECK(std::string(argv[3]) == "5");
    CHECK_FALSE(ch03::take_text_option(argc, argv.data(), "--policy").has_value());
    CHECK(argc == 4);

    std::vector<std::string> twice = {"reduce", "--policy", "64x1x1", "--policy=128x1x1"};
    std::vector<char*> argv2;
    for (std::string& a : twice) argv2.push_back(a.data());
    int argc2 = 4;
    CHECK(ch03::take_text_option(argc2, argv2.data(), "--policy") == "128x1x1");  // the last
    CHECK(argc2 == 1);

    std::vector<std::string> last = {"reduce", "--policy"};
    std::vector<char*> argv3 = {last[0].data(), last[1].data()};
    int argc3 = 2;
    CHECK_THROWS_WITH(ch03::take_text_option(argc3, argv3.data(), "--policy"),
                      Catch::Contains("--policy needs a value"));
    std::vector<std::string> empty = {"reduce", "--policy="};
    std::vector<char*> argv4 = {empty[0].data(), empty[1].data()};
    int argc4 = 2;
    CHECK_THROWS_WITH(ch03::take_text_option(argc4, argv4.data(), "--policy"),
                      Catch::Contains("empty"));
}
