// Unit tests of the runner: processes, the record schema, digests and streams. (The command line is
// tested end to end in runner.cmake, beside this file; what the tests share: runner_test.hpp.)
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

// ---- processes -------------------------------------------------------------------

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

TEST_CASE("processes: a runaway stream is kept up to the capture limit and counted beyond",
          "[runner][process]") {
    auto r = run_process(
        {"/bin/sh", "-c", fmt::format("head -c {} /dev/zero", kCaptureLimit + 4096)}, {}, 60);
    CHECK(r.exit_status == 0);
    CHECK(r.out.size() == kCaptureLimit);
    CHECK(r.out_dropped == 4096);
    CHECK(r.err_dropped == 0);
}

// ---- the record schema ------------------------------------------------------------

TEST_CASE("the schema file reads, and states what the runner needs", "[runner][schema]") {
    const auto& s = schema();
    CHECK(s.version == 3);
    CHECK(s.stream_bytes == 1048576);
    CHECK(contains(s.volatile_provenance, "host"));
    CHECK(contains(s.volatile_record, "wall_s"));
    CHECK(contains(s.build_only, "stale"));
    json bad = s.doc;
    bad["record"]["results"] = "object<resultz>";
    CHECK_THROWS_WITH(parse_schema(bad, "s.json"),
                      Catch::Contains("s.json: \"record\".\"results\" has type 'resultz'"));
    bad = s.doc;
    bad.erase("limits");
    CHECK_THROWS_WITH(parse_schema(bad, "s.json"), Catch::Contains("limits.stream_bytes"));
    CHECK_THROWS_WITH(load_schema("/nonexistent/schema.json"), Catch::Contains("cannot read"));
}

TEST_CASE("record validation names the field: missing, mistyped, unknown", "[runner][schema]") {
    auto r = good_record();
    CHECK_NOTHROW(validate_record(r, "rec.json", false, schema()));
    CHECK_THROWS_WITH(validate_record(r, "rec.json", true, schema()),
                      Catch::Contains("rec.json: field 'provenance.gpu_name' is missing"));
    CHECK_NOTHROW(validate_record(gpu_record(), "rec.json", true, schema()));
    auto t = good_record();
    t.erase("stdout");
    CHECK_THROWS_WITH(validate_record(t, "rec.json", false, schema()),
                      Catch::Contains("field 'stdout' is missing"));
    t = good_record();
    t["exit_status"] = "zero";
    CHECK_THROWS_WITH(validate_record(t, "rec.json", false, schema()),
                      Catch::Contains("field 'exit_status' should be integer, not string"));
    t = good_record();
    t["results"]["ratio"]["value"] = "1.5";
    CHECK_THROWS_WITH(validate_record(t, "rec.json", false, schema()),
                      Catch::Contains("field 'results.ratio.value' should be number, not string"));
    t = good_record();
    t["texts"]["sass:k"] = 3;
    CHECK_THROWS_WITH(validate_record(t, "rec.json", false, schema()),
                      Catch::Contains("field 'texts.sass:k' should be string, not number"));
    t = good_record();
    t["stdout_extra"] = "";
    CHECK_THROWS_WITH(validate_record(t, "rec.json", false, schema()),
                      Catch::Contains("field 'stdout_extra' is not in the record schema"));
    t = good_record();
    t["inputs"]["hashh"] = "";
    CHECK_THROWS_WITH(validate_record(t, "rec.json", false, schema()),
                      Catch::Contains("field 'inputs.hashh' is not in the record schema"));
    t = good_record();
    t["ncu"] = {{"a:m", {{"value", nullptr}, {"unit", ""}, {"text", "n/a"}}}};
    CHECK_NOTHROW(validate_record(t, "rec.json", false, schema()));
    CHECK_THROWS_WITH(validate_record(json::array(), "rec.json", false, schema()),
                      Catch::Contains("a record must be a JSON object"));
}

TEST_CASE("a record is read only under the schema it was made with", "[runner][schema]") {
    // A record made to look older than digests (schema 1, no digest, none of
    // the fields that came later) is an error, as is any other version.
    for (int version : {1, 2, 4}) {
        auto r = gpu_record();
        r["schema"] = version;
        r.erase("digest");
        r["provenance"].erase("driver_cuda_version");
        CHECK_THROWS_WITH(validate_record(r, "old.json", true, schema()),
                          Catch::Contains("old.json: the record has schema " +
                                          std::to_string(version) + ", which") &&
                              Catch::Contains("re-record it with `tools/book record`"));
    }
    // The note an older runner added is no field of the schema.
    auto l = gpu_record();
    l["legacy"] = "record schema 1: made before digests existed";
    CHECK_THROWS_WITH(validate_record(l, "noted.json", true, schema()),
                      Catch::Contains("noted.json") && Catch::Contains("legacy"));
    // A current record must carry its digest.
    auto d = gpu_record();
    d.erase("digest");
    CHECK_THROWS_WITH(validate_record(d, "rec.json", true, schema()),
                      Catch::Contains("field 'digest' is missing"));
}

// ---- digests ----------------------------------------------------------------------

TEST_CASE("the digest covers what a record shows, and nothing that changes from run to run",
          "[runner][digest]") {
    const auto r = good_record();
    const auto d = record_digest(r, schema());
    CHECK(d.rfind("sha256:", 0) == 0);
    CHECK(d.size() == 7 + 64);
    CHECK_NOTHROW(check_digest(r, "rec.json", schema()));
    // Volatile and build-only fields are outside it.
    auto v = r;
    v["provenance"]["date"] = "another day";
    v["provenance"]["host"] = "another host";
    v["wall_s"] = 9.0;
    v["source"] = "recording";
    v["stale"] = true;
    v["stale_reasons"] = {"x changed"};
    CHECK(record_digest(v, schema()) == d);
    // Everything shown is inside it.
    auto edits = std::vector<std::function<void(json&)>>{
        [](json& x) { x["stdout"] = "ratio = 1.6\n"; },
        [](json& x) { x["stderr"] = "warning\n"; },
        [](json& x) { x["results"]["ratio"]["value"] = 1.51; },
        [](json& x) { x["results"]["ratio"]["unit"] = "ms"; },
        [](json& x) { x["texts"]["sass:k"] = "/*0000*/  NOP\n"; },
        [](json& x) { x["provenance"]["cxx"] = "Clang"; },
        [](json& x) {
            x["command"] = {"x", "--quick"};
        },
        [](json& x) { x["inputs"]["files"]["a.cu"] = "0"; },
        [](json& x) { x["exit_status"] = 1; },
        [](json& x) {
            x["checks"] = json::array({{{"id", "a"}, {"ok", true}}});
        },
    };
    for (std::size_t i = 0; i < edits.size(); ++i) {
        auto e = r;
        edits[i](e);
        INFO("edit " << i);
        CHECK(record_digest(e, schema()) != d);
        CHECK_THROWS_WITH(check_digest(e, "rec.json", schema()),
                          Catch::Contains("rec.json: the record does not match its digest") &&
                              Catch::Contains("re-record it on its GPU with `tools/book record`"));
    }
    auto none = r;
    none.erase("digest");
    CHECK_THROWS_WITH(check_digest(none, "rec.json", schema()),
                      Catch::Contains("rec.json: the record has no digest"));
}

TEST_CASE("canonical JSON: keys sorted, no spaces, UTF-8 as is", "[runner][digest]") {
    json j = json::parse(R"({"b": [1, 2.5, "é"], "a": {"y": null, "x": true}})");
    CHECK(canonical_json(j) == "{\"a\":{\"x\":true,\"y\":null},\"b\":[1,2.5,\"é\"]}");
    // A value read back from its JSON text hashes the same.
    auto r = good_record();
    CHECK(record_digest(json::parse(r.dump(2)), schema()) == record_digest(r, schema()));
}

// ---- streams ------------------------------------------------------------------------

TEST_CASE("UTF-8: good text passes; the first bad byte is named with its offset and line",
          "[runner][streams]") {
    CHECK_NOTHROW(check_utf8("plain\n", "s"));
    CHECK_NOTHROW(
        check_utf8("é ≈ 𝔾 \t\x01\n", "s"));  // 2, 3 and 4 bytes; control bytes are UTF-8 too
    CHECK_NOTHROW(check_utf8(std::string("nul \0 inside", 12), "s"));
    CHECK_THROWS_WITH(check_utf8("ab\ncd\xff", "program ch/x stdout"),
                      "program ch/x stdout is not valid UTF-8: byte 5 (line 2) is 0xff; the book "
                      "stores a program's output as UTF-8 text");
    struct Bad {
        std::string text;
        std::size_t byte;
    };
    for (const auto& [text, byte] : std::vector<Bad>{
             {"\x80", 0},                  // a continuation byte alone
             {"ok\xc3", 2},                // cut short at the end
             {"\xc3(", 0},                 // a lead byte without its continuation
             {"\xc0\x80", 0},              // overlong NUL
             {"\xe0\x80\xaf", 0},          // overlong '/'
             {"\xed\xa0\x80", 0},          // a UTF-16 surrogate
             {"\xf4\x90\x80\x80", 0},      // above U+10FFFF
             {"\xf8\x88\x80\x80\x80", 0},  // five-byte form
         }) {
        INFO("bytes of " << json(std::vector<int>(text.begin(), text.end())).dump());
        CHECK_THROWS_WITH(check_utf8(text, "s"),
                          Catch::Contains(fmt::format("byte {} (line 1)", byte)));
    }
}

TEST_CASE("the stream cap: cut at a line, or a whole character, with a marker",
          "[runner][streams]") {
    std::string small = "fits\n";
    CHECK(cap_stream(small, 100).is_null());
    CHECK(small == "fits\n");

    std::string lines;
    for (int i = 0; i < 100; ++i) lines += fmt::format("line {:02}\n", i);  // 8 bytes a line
    std::string cut = lines;
    auto t = cap_stream(cut, 100);
    CHECK(t["bytes_total"] == 800);
    CHECK(t["bytes_cut"] == 704);  // 12 whole lines (96 bytes) kept
    CHECK(cut == lines.substr(0, 96) +
                     "[bookrun: output cut here: 704 of its 800 bytes are not kept (the cap is 100 "
                     "bytes a stream)]\n");

    std::string wide;
    for (int i = 0; i < 100; ++i) wide += "é";  // 200 bytes, no newline
    auto w = cap_stream(wide, 51);
    CHECK(w["bytes_cut"] == 150);
    std::string kept;
    for (int i = 0; i < 25; ++i) kept += "é";  // 50 bytes: byte 51 would split a character
    CHECK(wide.substr(0, 51) == kept + "\n");
    CHECK_NOTHROW(check_utf8(wide, "cut"));
}
