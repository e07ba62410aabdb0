// Unit tests of the runner: results, checks, repeats, provenance and a recording's form. (The
// command line is tested end to end in runner.cmake, beside this file; what the tests share:
// runner_test.hpp.)
#include <catch2/catch.hpp>

#include <unistd.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>

#include <fmt/format.h>

#include "runner.hpp"
#include "runner_test.hpp"

using namespace bookrun;
using namespace bookrun::test;
namespace fs = std::filesystem;

// ---- results and expectations ----------------------------------------------------------

TEST_CASE("results lines: each mistake is named by its line", "[runner][results]") {
    json r = {{"provenance", json::object()}};
    merge_results(r,
                  "{\"kind\":\"result\",\"name\":\"t\",\"value\":2,\"unit\":\"ms\"}\n"
                  "{\"kind\":\"text\",\"name\":\"n\",\"text\":\"hi\"}\n"
                  "{\"kind\":\"provenance\",\"key\":\"gpu_name\",\"value\":\"H200\"}\n");
    CHECK(r["results"]["t"]["value"] == 2);
    CHECK(r["texts"]["n"] == "hi");
    CHECK(r["provenance"]["gpu_name"] == "H200");
    CHECK_THROWS_WITH(
        merge_results(r,
                      "\n{\"kind\":\"result\",\"name\":\"t\",\"value\":\"2\",\"unit\":\"ms\"}\n"),
        Catch::Contains("results line 2 needs \"value\" (a number)"));
    CHECK_THROWS_WITH(merge_results(r, "{\"kind\":\"result\",\"value\":2,\"unit\":\"ms\"}\n"),
                      Catch::Contains("results line 1 needs \"name\""));
    CHECK_THROWS_WITH(merge_results(r, "[1]\n"),
                      Catch::Contains("results line 1 has unknown kind"));
    CHECK_THROWS_WITH(merge_results(r, "{oops\n"), Catch::Contains("results line 1 is not JSON"));
}

TEST_CASE("the line of every value in a JSON text", "[runner][checks]") {
    auto lines = json_lines(
        "{\n  \"a\": [\n    {\"x\": 1,\n     \"y\": \"2\"},\n    3\n  ],\n  \"b/c\": null\n}\n");
    CHECK(lines.at("") == 1);
    CHECK(lines.at("/a") == 2);
    CHECK(lines.at("/a/0") == 3);
    CHECK(lines.at("/a/0/x") == 3);
    CHECK(lines.at("/a/0/y") == 4);
    CHECK(lines.at("/a/1") == 5);
    CHECK(lines.at("/b~1c") == 7);
}

TEST_CASE("a checks file is read strictly: each mistake named with the check and its line",
          "[runner][checks]") {
    auto parse = [](const std::string& text) { return parse_checks(text, "x.checks.json"); };
    const std::string ok = R"({"checks": [{"id": "a", "value": "r", "min": 1}]})";
    CHECK_NOTHROW(parse(ok));
    CHECK_NOTHROW(parse(
        R"({"about": "why", "checks": [{"id": "a", "what": "w", "value": "r", "over": "s", "max": 2}]})"));
    struct Case {
        std::string text, message;
    };
    for (const auto& [text, message] : std::vector<Case>{
             {"{\"checks\": [\n{\"id\": \"a\", \"value\": \"r\",\n \"minimum\": 1}]}",
              "x.checks.json:3: check 'a': unknown key 'minimum' (a check has id, what, value, "
              "over, min, max, gpus); did you mean 'min'?"},
             {"{\"checks\": [{\"id\": \"a\", \"value\": \"r\", \"min\": 0, \"maxx\": 1}]}",
              "x.checks.json:1: check 'a': unknown key 'maxx'"},
             {"{\"checks\": [{\"id\": \"a\", \"value\": \"r\", \"colour\": 1, \"min\": 0}]}",
              "unknown key 'colour' (a check has id, what, value, over, min, max, gpus)"},
             {"{\"checks\": [\n{\"id\": \"a\", \"value\": \"r\",\n\"min\": \"1\"}]}",
              "x.checks.json:3: check 'a': the bound \"min\" should be a number, not \"1\""},
             {"{\"checks\": [{\"id\": \"a\", \"value\": \"r\", \"max\": true}]}",
              "the bound \"max\" should be a number, not true"},
             {"{\"checks\": [{\"id\": \"a\", \"value\": \"r\", \"max\": null}]}",
              "the bound \"max\" should be a number, not null"},
             {"{\"checks\": [\n\n{\"id\": \"a\", \"value\": \"r\"}]}",
              "x.checks.json:3: check 'a' has no bound (\"min\" or \"max\"), so it could never "
              "fail"},
             {"{\"checks\": [{\"id\": \"a\", \"value\": \"r\", \"min\": 1},\n{\"value\": \"r\", "
              "\"min\": 1}]}",
              "x.checks.json:2: check 2 (of 2) has no \"id\""},
             {"{\"checks\": [{\"id\": \"\", \"value\": \"r\", \"min\": 1}]}",
              "check 1 (of 1) has no \"id\""},
             {"{\"checks\": [{\"id\": \"a\", \"min\": 1}]}", "check 'a' has no \"value\""},
             {"{\"checks\": [{\"id\": \"a\", \"value\": 3, \"min\": 1}]}",
              "check 'a': \"value\" should be a non-empty string, not 3"},
             {"{\"checks\": [{\"id\": \"a\", \"value\": \"r\", \"over\": \"\", \"min\": 1}]}",
              "check 'a': \"over\" should be a non-empty string"},
             {"{\"checks\": [{\"id\": \"a\", \"value\": \"r\", \"min\": 1},\n{\"id\": \"a\", "
              "\"value\": \"r\", \"max\": 1}]}",
              "x.checks.json:2: check 'a': the id is used twice (first at x.checks.json:1)"},
             {"{\"checks\": [{\"id\": \"a\", \"value\": \"r\", \"min\": 2, \"max\": 1}]}",
              "check 'a': min 2 is above max 1, so it could never pass"},
             {"{\"checks\": [3]}", "check 1 (of 1) is number, not an object"},
             {"{\"checks\": []}", "the checks file has no checks"},
             {"{\"check\": []}",
              "unknown key 'check' (a checks file has \"checks\" and, optionally, \"about\"); did "
              "you mean 'checks'?"},
             {"{\"about\": \"x\"}", "a checks file needs an array \"checks\""},
             {"[]", "x.checks.json:1: a checks file is a JSON object"},
             {"{\"checks\": [\n{\"id\": \"a\",, }]}", "x.checks.json:2: malformed JSON"},
         }) {
        INFO(text);
        CHECK_THROWS_WITH(parse(text), Catch::Contains(message));
    }
}

TEST_CASE("expectations: bounds, ratios and missing results", "[runner][checks]") {
    json record = {
        {"results",
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

TEST_CASE("a check's \"gpus\" names reference GPUs only, strictly", "[runner][checks]") {
    const std::vector<std::string> reference = {"NVIDIA H100 80GB HBM3", "NVIDIA H200"};
    auto parse = [&](const std::string& gpus) {
        return parse_checks(
            "{\"checks\": [\n{\"id\": \"a\", \"value\": \"r\", \"min\": 1,\n"
            "\"gpus\": " +
                gpus + "}]}",
            "x.checks.json", reference);
    };
    CHECK_NOTHROW(parse(R"(["NVIDIA H200"])"));
    CHECK_NOTHROW(parse(R"(["NVIDIA H200", "NVIDIA H100 80GB HBM3"])"));
    struct Case {
        std::string gpus, message;
    };
    for (const auto& [gpus, message] : std::vector<Case>{
             {R"(["NVIDIA H100"])",
              "x.checks.json:3: check 'a': \"gpus\" names 'NVIDIA H100', which is no reference "
              "GPU (the reference GPUs: NVIDIA H100 80GB HBM3, NVIDIA H200: book/gpus.json); did "
              "you mean 'NVIDIA H100 80GB HBM3'?"},
             {R"(["nvidia-h200"])", "names 'nvidia-h200', which is no reference GPU"},
             {R"("NVIDIA H200")",
              "x.checks.json:3: check 'a': \"gpus\" should be a non-empty array"},
             {"[]", "\"gpus\" should be a non-empty array"},
             {R"([""])", "\"gpus\" holds \"\", not a GPU's name"},
             {R"(["NVIDIA H200", "NVIDIA H200"])", "\"gpus\" names 'NVIDIA H200' twice"},
         }) {
        INFO(gpus);
        CHECK_THROWS_WITH(parse(gpus), Catch::Contains(message));
    }
    // Without the book's reference GPUs nothing can be named.
    CHECK_THROWS_WITH(parse_checks(R"({"checks": [{"id": "a", "value": "r", "min": 1,
                                       "gpus": ["NVIDIA H200"]}]})",
                                   "x.checks.json"),
                      Catch::Contains("none were given"));
}

TEST_CASE("a check scoped to other GPUs is not applicable: never passed, never failed",
          "[runner][checks]") {
    auto record = [](const std::string& gpu, double a) {
        json r = {{"name", "ch/x"}, {"results", {{"a", {{"value", a}, {"unit", ""}}}}}};
        if (!gpu.empty()) r["provenance"] = {{"gpu_name", gpu}};
        return r;
    };
    json checks = {
        {"checks",
         {{{"id", "everywhere"}, {"value", "a"}, {"min", 1}},
          {{"id", "h200-only"}, {"value", "a"}, {"min", 2}, {"gpus", {"NVIDIA H200"}}}}}};
    // On the H100 the scoped check does not apply, whether or not it would hold.
    for (double a : {1.5, 2.5}) {
        auto e = evaluate_checks(checks, record("NVIDIA H100 80GB HBM3", a));
        REQUIRE(e.size() == 2);
        CHECK(e[0]["ok"].get<bool>());
        CHECK_FALSE(e[1]["ok"].get<bool>());
        CHECK(not_applicable(e[1]));
        CHECK(e[1]["not_applicable"] ==
              "not applicable on the NVIDIA H100 80GB HBM3: the check holds on the NVIDIA H200 "
              "only");
        CHECK(e[1]["value"].get<double>() == a);
        CHECK(failed_checks(e).empty());
        CHECK(passed_summary(e) == "1 check passed, 1 not applicable on this GPU (h200-only)");
    }
    // On the H200 it is evaluated as any check: 1.5 < 2 fails.
    auto e = evaluate_checks(checks, record("NVIDIA H200", 1.5));
    CHECK_FALSE(not_applicable(e[1]));
    REQUIRE(failed_checks(e).size() == 1);
    CHECK(failed_checks(e)[0].find("'h200-only'") != std::string::npos);
    CHECK(passed_summary(evaluate_checks(checks, record("NVIDIA H200", 2.5))) == "2 checks passed");
    // A record that names no GPU cannot be scoped.
    CHECK_THROWS_WITH(evaluate_checks(checks, record("", 2.5)),
                      Catch::Contains("check 'h200-only' holds on some GPUs only"));
    // With repeats: not applicable, though repeat 2 would fail it.
    json rec = record("NVIDIA H100 80GB HBM3", 2.5);
    rec["repeats"] = json::array();
    for (double a : {2.5, 1.5, 3.0})
        rec["repeats"].push_back({{"results", {{"a", {{"value", a}, {"unit", ""}}}}}});
    auto r = evaluate_checks_repeated(checks, rec);
    CHECK(not_applicable(r[1]));
    CHECK_FALSE(r[1]["ok"].get<bool>());
    CHECK(r[1]["values"] == json({2.5, 1.5, 3.0}));
    CHECK(failed_checks(r).empty());
    rec["provenance"]["gpu_name"] = "NVIDIA H200";
    CHECK(failed_checks(evaluate_checks_repeated(checks, rec)).size() == 1);
}

TEST_CASE("volatile fields split off and join back", "[runner][record]") {
    auto r = good_record();
    auto [stable, vol] = split_volatile(r, schema());
    CHECK_FALSE(stable["provenance"].contains("date"));
    CHECK_FALSE(stable["provenance"].contains("host"));
    CHECK_FALSE(stable.contains("wall_s"));
    CHECK(vol["provenance"]["commit"] == "c");
    CHECK(vol["provenance"]["host"] == "h");
    CHECK(join_volatile(stable, vol) == r);
    CHECK(record_digest(stable, schema()) == r["digest"].get<std::string>());
}

TEST_CASE("repeats: medians, the repeat nearest them, and every repeat reports alike",
          "[runner][repeats]") {
    auto res = [](double a, long long n) {
        return json{{"t", {{"value", a}, {"unit", "us"}}},
                    {"n", {{"value", n}, {"unit", "count"}}}};
    };
    std::vector<json> reps = {res(3.0, 7), res(1.0, 7), res(2.5, 7)};
    auto m = median_results(reps, "ch/x");
    CHECK(m["t"]["value"].get<double>() == 2.5);
    CHECK(m["n"]["value"].is_number_integer());
    CHECK(m["n"]["value"].get<long long>() == 7);
    CHECK(nearest_repeat(reps, m) == 2);
    CHECK(median_of({4, 1, 3, 2}) == 2.5);
    auto missing = reps;
    missing[1].erase("n");
    CHECK_THROWS_WITH(median_results(missing, "ch/x"),
                      Catch::Contains("repeat 2 did not report result 'n'"));
    auto extra = reps;
    extra[2]["z"] = {{"value", 1}, {"unit", "x"}};
    CHECK_THROWS_WITH(median_results(extra, "ch/x"),
                      Catch::Contains("repeat 3 reported result 'z'"));
    auto units = reps;
    units[1]["t"]["unit"] = "ms";
    CHECK_THROWS_WITH(median_results(units, "ch/x"),
                      Catch::Contains("in us in repeat 1 and in ms"));
}

TEST_CASE("repeats: a check holds only when it holds in every repeat", "[runner][repeats]") {
    json checks = {{"checks",
                    {{{"id", "fast"}, {"value", "t"}, {"max", 2.8}},
                     {{"id", "ratio"}, {"value", "t"}, {"over", "u"}, {"min", 1.0}}}}};
    json record = {
        {"results",
         {{"t", {{"value", 2.5}, {"unit", "us"}}}, {"u", {{"value", 1.0}, {"unit", "us"}}}}}};
    record["repeats"] = json::array();
    for (double t : {2.0, 2.5, 3.0})
        record["repeats"].push_back({{"results", {{"t", {{"value", t}, {"unit", "us"}}}}}});
    auto e = evaluate_checks_repeated(checks, record);
    REQUIRE(e.size() == 2);
    // The median (2.5) holds, repeat 3 (3.0) does not: the check fails.
    CHECK_FALSE(e[0]["ok"].get<bool>());
    CHECK(e[0]["values"] == json({2.0, 2.5, 3.0}));
    CHECK(e[0]["value"].get<double>() == 2.5);
    CHECK(e[0]["detail"].get<std::string>().find("failed in repeat 3") != std::string::npos);
    CHECK(e[0]["detail"].get<std::string>().find("median of 3 repeats; 2 to 3") !=
          std::string::npos);
    // A result no repeat holds (u: an ncu metric, say) is the record's own.
    CHECK(e[1]["ok"].get<bool>());
    CHECK(e[1]["values"] == json({2.0, 2.5, 3.0}));
    record.erase("repeats");
    CHECK(evaluate_checks_repeated(checks, record)[0]["ok"].get<bool>());
}

TEST_CASE("provenance: the runner's keys are the runner's", "[runner][provenance]") {
    CHECK_NOTHROW(check_program_provenance({{"gpu_name", "NVIDIA H200"}}, true, schema(), "ch/x"));
    for (const char* k : {"commit", "date", "host", "cxx", "nvcc", "driver_version", "whatever"})
        CHECK_THROWS_WITH(check_program_provenance({{k, "forged"}}, true, schema(), "ch/x"),
                          Catch::Contains(fmt::format("reported provenance '{}'", k)));
    CHECK_THROWS_WITH(
        check_program_provenance({{"gpu_name", "NVIDIA H200"}}, false, schema(), "ch/x"),
        Catch::Contains("a CPU program cannot report"));
}

TEST_CASE("a recording's volatile part holds a commit, a date, a host and a time",
          "[runner][record]") {
    json good = {
        {"provenance",
         {{"date", "2026-12-01T20:00:00Z"}, {"commit", "0123456789ab"}, {"host", "gpu-1"}}},
        {"wall_s", 1.5},
        {"source", "live"}};
    CHECK_NOTHROW(check_volatile_formats(good, "x.volatile.json", schema()));
    auto bad = [&](const char* field, json value) {
        json v = good;
        std::string f = field;
        if (f.rfind("provenance.", 0) == 0)
            v["provenance"][f.substr(11)] = value;
        else
            v[f] = value;
        return v;
    };
    CHECK_THROWS_WITH(
        check_volatile_formats(bad("provenance.commit", "reviewed and approved by NVIDIA"),
                               "x.volatile.json", schema()),
        Catch::Contains("x.volatile.json: 'provenance.commit'"));
    CHECK_THROWS_WITH(check_volatile_formats(bad("provenance.date", "on an NVIDIA B200 in 2031"),
                                             "x.volatile.json", schema()),
                      Catch::Contains("'provenance.date'"));
    CHECK_THROWS_WITH(
        check_volatile_formats(bad("provenance.host", "a b"), "x.volatile.json", schema()),
        Catch::Contains("'provenance.host'"));
    CHECK_THROWS_WITH(check_volatile_formats(bad("wall_s", -3.0), "x.volatile.json", schema()),
                      Catch::Contains("positive"));
}

TEST_CASE("a recording stores its streams as lines, and reads them back exactly",
          "[runner][record]") {
    auto r = good_record();
    r["stdout"] = "a\nb\n";
    r["stderr"] = "";
    r["texts"] = {{"sass:k", "X\nY"}};
    auto lines = to_recording_lines(r, schema());
    CHECK(lines["stdout"] == json({"a", "b", ""}));
    CHECK(lines["stderr"] == json({""}));
    CHECK(lines["texts"]["sass:k"] == json({"X", "Y"}));
    CHECK(from_recording_lines(lines, "r.json", schema()) == r);
    lines["stdout"] = json({"a", 3});
    CHECK_THROWS_WITH(from_recording_lines(lines, "r.json", schema()),
                      Catch::Contains("r.json: 'stdout': line 2 is not a string"));
}
