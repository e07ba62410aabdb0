// Unit tests of the runner's pieces: hashing, dependency lists, processes,
// expectations, record validation, and the SASS and ncu readers.
#include <catch2/catch.hpp>

#include "runner.hpp"

using namespace bookrun;

TEST_CASE("FNV-1a matches its published test vectors", "[runner][hash]") {
    CHECK(fnv1a_hex("") == "cbf29ce484222325");
    CHECK(fnv1a_hex("a") == "af63dc4c8601ec8c");
    CHECK(fnv1a_hex("foobar") == "85944171f73967e8");
}

TEST_CASE("a Makefile dependency list yields its prerequisites", "[runner][deps]") {
    auto deps = parse_depfile("out.o: a.cpp b/c.hpp \\\n  d\\ e.hpp\n");
    REQUIRE(deps == std::vector<std::string>{"a.cpp", "b/c.hpp", "d e.hpp"});
}

TEST_CASE("processes: exit status, signals and timeouts are told apart", "[runner][process]") {
    auto ok = run_process({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"}, {}, 10);
    CHECK(ok.exit_status == 3);
    CHECK(ok.out == "out\n");
    CHECK(ok.err == "err\n");
    CHECK(describe_failure(ok, 10) == "exited with status 3");

    auto env = run_process({"/bin/sh", "-c", "printf %s \"$BOOK_X\""}, {{"BOOK_X", "42"}}, 10);
    CHECK(env.out == "42");

    auto sig = run_process({"/bin/sh", "-c", "kill -SEGV $$"}, {}, 10);
    CHECK(sig.signal == 11);
    CHECK(describe_failure(sig, 10).find("signal 11") != std::string::npos);

    auto slow = run_process({"/bin/sleep", "30"}, {}, 0.5);
    CHECK(slow.timed_out);
    CHECK(slow.wall_s < 5);
    CHECK(describe_failure(slow, 0.5) == "timed out after 0.5 s and was killed");
}

TEST_CASE("expectations: bounds, ratios and missing results", "[runner][checks]") {
    json record = {{"results",
                    {{"a", {{"value", 3.0}, {"unit", "ms"}}}, {"b", {{"value", 1.5}, {"unit", "ms"}}}}}};
    json checks = {{"checks",
                    {{{"id", "a-small"}, {"value", "a"}, {"max", 2}},
                     {{"id", "ratio"}, {"value", "a"}, {"over", "b"}, {"min", 1.9}, {"max", 2.1}},
                     {{"id", "gone"}, {"value", "zzz"}, {"min", 0}}}}};
    auto e = evaluate_checks(checks, record);
    REQUIRE(e.size() == 3);
    CHECK_FALSE(e[0]["ok"].get<bool>());
    CHECK(e[1]["ok"].get<bool>());
    CHECK_FALSE(e[2]["ok"].get<bool>());
    auto failed = failed_checks(e);
    REQUIRE(failed.size() == 2);
    CHECK(failed[0].find("'a-small'") != std::string::npos);
    CHECK(failed[0].find("a = 3, expected <= 2") != std::string::npos);
    CHECK(failed[1].find("result 'zzz' is missing") != std::string::npos);
}

namespace {
const Schema& schema() {
    static const Schema s = load_schema(default_schema_path());
    return s;
}

json good_record() {
    return {{"schema", 2}, {"name", "ch/x"}, {"command", {"x"}}, {"exit_status", 0}, {"digest", "sha256:0"},
            {"stdout", ""}, {"stderr", ""}, {"results", json::object()},
            {"inputs", {{"hash", "h"}, {"files", json::object()}, {"flags", ""}, {"args", json::array()}}},
            {"provenance", {{"cxx", "GNU 12"}, {"date", "d"}, {"commit", "c"}, {"host", "h"}}},
            {"wall_s", 0.5}, {"source", "live"}};
}
}  // namespace

TEST_CASE("record validation names the missing field", "[runner][record]") {
    auto r = good_record();
    CHECK_NOTHROW(validate_record(r, "rec.json", false, schema()));
    CHECK_THROWS_WITH(validate_record(r, "rec.json", true, schema()),
                      Catch::Contains("rec.json: field 'provenance.gpu_name' is missing"));
    r.erase("stdout");
    CHECK_THROWS_WITH(validate_record(r, "rec.json", false, schema()),
                      Catch::Contains("field 'stdout' is missing"));
    auto t = good_record();
    t["exit_status"] = "zero";
    CHECK_THROWS_WITH(validate_record(t, "rec.json", false, schema()), Catch::Contains("'exit_status' should be"));
}

TEST_CASE("volatile fields split off and join back", "[runner][record]") {
    auto r = good_record();
    auto [stable, vol] = split_volatile(r, schema());
    CHECK_FALSE(stable["provenance"].contains("date"));
    CHECK_FALSE(stable.contains("wall_s"));
    CHECK(vol["provenance"]["commit"] == "c");
    CHECK(join_volatile(stable, vol) == r);
}

TEST_CASE("input differences are named", "[runner][inputs]") {
    json a = {{"files", {{"code/a.cu", "1"}, {"code/b.hpp", "2"}}}, {"flags", "f"}, {"args", json::array()}, {"hash", "x"}};
    json b = {{"files", {{"code/a.cu", "9"}, {"code/c.hpp", "3"}}}, {"flags", "g"}, {"args", {"--quick"}}, {"hash", "y"}};
    auto d = diff_inputs(a, b).changes;
    REQUIRE(d.size() == 5);
    CHECK(d[0] == "code/a.cu changed");
    CHECK(d[1] == "code/c.hpp is new since the recording");
    CHECK(d[2] == "code/b.hpp is no longer an input");
    CHECK(d[3].find("compile flags changed") == 0);
    CHECK(d[4].find("arguments changed") == 0);
    CHECK(diff_inputs(a, a).changes.empty());
}

TEST_CASE("SASS of one function: addresses kept, encodings dropped", "[runner][sass]") {
    const std::string dump =
        "\tcode for sm_90\n"
        "\t\tFunction : _Z5otherv\n"
        "        /*0000*/                   MOV R1, c[0x0][0x28] ;        /* 0x00000a00ff017624 */\n"
        "\t\tFunction : _Z7divergePjii\n"
        "        /*0000*/                   LDC R1, c[0x0][0x28] ;        /* 0x00000a00ff017b82 */\n"
        "                                                                 /* 0x000fe20000000800 */\n"
        "        /*0010*/                   BSSY B0, `(.L_x_1) ;          /* 0x0000011000007945 */\n"
        ".L_x_1:\n"
        "        /*0020*/                   BSYNC B0 ;                    /* 0x0000000000007941 */\n";
    auto s = extract_sass(dump, "diverge");
    CHECK(s == "/*0000*/  LDC R1, c[0x0][0x28]\n/*0010*/  BSSY B0, `(.L_x_1)\n.L_x_1:\n/*0020*/  BSYNC B0\n");
    CHECK_THROWS_WITH(extract_sass(dump, "nothere"), Catch::Contains("no function named 'nothere'"));
}

TEST_CASE("ncu CSV: metrics per labelled launch, n/a kept as text", "[runner][ncu]") {
    const std::string csv =
        "==PROF== Connected to process 1\n"
        "\"ID\",\"Process ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
        "\"0\",\"1\",\"diverge\",\"smsp__inst_executed.sum\",\"inst\",\"1,234\"\n"
        "\"0\",\"1\",\"diverge\",\"smsp__branch_targets_threads_divergent.sum\",\"\",\"n/a\"\n"
        "\"1\",\"1\",\"diverge\",\"smsp__inst_executed.sum\",\"inst\",\"2,468\"\n";
    auto m = parse_ncu_csv(csv, {"uniform", "divergent"});
    CHECK(m["uniform:smsp__inst_executed.sum"]["value"].get<double>() == 1234);
    CHECK(m["divergent:smsp__inst_executed.sum"]["value"].get<double>() == 2468);
    CHECK(m["uniform:smsp__branch_targets_threads_divergent.sum"]["value"].is_null());
    CHECK(m["uniform:smsp__branch_targets_threads_divergent.sum"]["text"] == "n/a");
    CHECK_THROWS(parse_ncu_csv("nothing\n", {}));
}
