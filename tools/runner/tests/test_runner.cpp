// Unit tests of the runner's pieces: hashes, dependency lists and header
// closures, processes, the record schema, digests, streams, expectations, and
// the SASS, ncu, sanitizer and driver readers. (The command line is tested end
// to end in runner.cmake (beside this file).)
#include <catch2/catch.hpp>

#include <unistd.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>

#include <fmt/format.h>

#include "runner.hpp"

using namespace bookrun;
namespace fs = std::filesystem;

namespace {

const Schema& schema() {
    static const Schema s = load_schema(default_schema_path());
    return s;
}

/// A folder of files for one test, removed afterwards.
struct TempTree {
    fs::path root;
    TempTree() {
        std::string pattern = (fs::temp_directory_path() / "bookrun-test-XXXXXX").string();
        root = ::mkdtemp(pattern.data());
    }
    ~TempTree() { fs::remove_all(root); }
    std::string write(const std::string& rel, const std::string& text) const {
        fs::path p = root / rel;
        fs::create_directories(p.parent_path());
        std::ofstream(p, std::ios::binary) << text;
        return p.string();
    }
};

std::vector<std::string> relative(const std::vector<std::string>& files, const fs::path& root) {
    std::vector<std::string> out;
    for (const auto& f : files)
        out.push_back(fs::path(f).lexically_relative(root).generic_string());
    return out;
}

bool contains(const std::vector<std::string>& v, const std::string& x) {
    return std::find(v.begin(), v.end(), x) != v.end();
}

json good_record() {
    json r = {{"schema", 3},
              {"name", "ch/x"},
              {"command", {"x"}},
              {"exit_status", 0},
              {"stdout", "ratio = 1.5\n"},
              {"stderr", ""},
              {"results", {{"ratio", {{"value", 1.5}, {"unit", ""}}}}},
              {"texts", {{"sass:k", "/*0000*/  EXIT\n"}}},
              {"inputs",
               {{"hash", "h"},
                {"files", json::object()},
                {"flags", ""},
                {"args", json::array()},
                {"env", json::object()},
                {"toolchain", json::object()}}},
              {"provenance", {{"cxx", "GNU 12"}, {"date", "d"}, {"commit", "c"}, {"host", "h"}}},
              {"wall_s", 0.5},
              {"source", "live"}};
    r["digest"] = record_digest(r, schema());
    return r;
}

json gpu_record() {
    json r = good_record();
    for (const char* k : {"gpu_name", "compute_capability", "sm_count", "driver_version",
                          "driver_cuda_version", "runtime_version", "nvcc"})
        r["provenance"][k] = "x";
    r["digest"] = record_digest(r, schema());
    return r;
}

}  // namespace

// ---- hashes ------------------------------------------------------------------

TEST_CASE("FNV-1a matches its published test vectors", "[runner][hash]") {
    CHECK(fnv1a_hex("") == "cbf29ce484222325");
    CHECK(fnv1a_hex("a") == "af63dc4c8601ec8c");
    CHECK(fnv1a_hex("foobar") == "85944171f73967e8");
}

TEST_CASE("SHA-256 matches FIPS 180-4's vectors and pads every length right", "[runner][hash]") {
    // The published examples.
    CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    CHECK(sha256_hex(std::string(1000000, 'a')) ==
          "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    // Lengths around the block and padding boundaries (expected values from Python's hashlib).
    CHECK(sha256_hex(std::string(55, 'a')) ==
          "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
    CHECK(sha256_hex(std::string(56, 'a')) ==
          "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
    CHECK(sha256_hex(std::string(63, 'a')) ==
          "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34");
    CHECK(sha256_hex(std::string(64, 'a')) ==
          "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
    CHECK(sha256_hex(std::string(65, 'a')) ==
          "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0");
    CHECK(sha256_hex(std::string(119, 'a')) ==
          "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb");
    CHECK(sha256_hex(std::string(120, 'a')) ==
          "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c");
}

// ---- inputs --------------------------------------------------------------------

TEST_CASE("a Makefile dependency list yields its prerequisites", "[runner][deps]") {
    auto deps = parse_depfile("out.o: a.cpp b/c.hpp \\\n  d\\ e.hpp\n");
    REQUIRE(deps == std::vector<std::string>{"a.cpp", "b/c.hpp", "d e.hpp"});
    auto two = parse_depfile("a.o: a.cu x.hpp\nb.o: b.cu \\\n y.hpp\n");
    REQUIRE(two == std::vector<std::string>{"a.cu", "x.hpp", "b.cu", "y.hpp"});
}

TEST_CASE("KEY=VALUE options: parsed, and each mistake named", "[runner][options]") {
    auto kv = parse_key_values({"A=1", "B=x=y", "C="}, "--env");
    CHECK(kv == std::map<std::string, std::string>{{"A", "1"}, {"B", "x=y"}, {"C", ""}});
    CHECK_THROWS_WITH(parse_key_values({"A"}, "--env"), "--env takes KEY=VALUE, not 'A'");
    CHECK_THROWS_WITH(parse_key_values({"=1"}, "--toolchain"), Catch::Contains("not '=1'"));
    CHECK_THROWS_WITH(parse_key_values({"A=1", "A=2"}, "--env"), Catch::Contains("gives A twice"));
}

TEST_CASE("headers: every way nvcc preprocesses a .cu file counts, and nothing outside the tree",
          "[runner][inputs]") {
    TempTree t;
    const std::string main_cu = t.write(
        "book/code/prog.cu",
        "#include \"plain.hpp\"\n"
        "#ifdef __CUDACC__\n#include \"cuda_only.cuh\"\n#endif\n"
        "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900\n#include \"sm90.cuh\"\n#endif\n"
        "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 1000\n#include \"sm100.cuh\"\n#endif\n"
        "#if defined(__CUDACC__) && !defined(__CUDA_ARCH__)\n#include \"host_pass.cuh\"\n#endif\n"
        "#include <cuda_runtime.h>\n#include <vector>\n#include \"ext.hpp\"\n");
    // (Each header different: GCC takes files of equal content for one under #pragma once.)
    for (const char* h : {"plain.hpp", "cuda_only.cuh", "sm90.cuh", "sm100.cuh", "host_pass.cuh"})
        t.write(std::string("book/code/") + h, fmt::format("#pragma once\n// {}\n", h));
    t.write("outside/ext.hpp",
            "#pragma once\n// ext\n");  // found through an include folder outside the tree
    const std::string host_cpp =
        t.write("book/code/host.cpp",
                "#ifdef __CUDACC__\n#include \"never.cuh\"\n#endif\nint f() { return 0; }\n");
    const std::string lib = t.write("book/lib/lib.cpp", "#include \"lib.hpp\"\n");
    t.write("book/lib/lib.hpp", "#pragma once\n");

    InputSpec spec;
    spec.source_root = (t.root / "book").string();
    spec.sources = {main_cu, host_cpp};
    spec.lib_sources = {lib};
    spec.include_dirs = {(t.root / "outside").string()};
    auto files = relative(input_files(spec), t.root / "book");
    CHECK(files == std::vector<std::string>{"code/cuda_only.cuh", "code/host.cpp",
                                            "code/host_pass.cuh", "code/plain.hpp", "code/prog.cu",
                                            "code/sm90.cuh", "lib/lib.cpp", "lib/lib.hpp"});
    // Each arch the program is built for is a device pass of its own.
    spec.cuda_archs = {"90", "100"};
    CHECK(contains(relative(input_files(spec), t.root / "book"), "code/sm100.cuh"));
    spec.cuda_archs = {"90a", "100f-real"};
    CHECK(contains(relative(input_files(spec), t.root / "book"), "code/sm100.cuh"));
    spec.cuda_archs = {"native"};
    CHECK_THROWS_WITH(input_files(spec),
                      Catch::Contains("--cuda-arch takes an architecture such as 90"));
}

TEST_CASE("headers: a quoted include that cannot be placed is an error at its line",
          "[runner][inputs]") {
    TempTree t;
    const std::string src = t.write(
        "book/prog.cu",
        "// prog\n#include \"here.hpp\"\n#ifdef __CUDACC__\n#include \"gone.cuh\"\n#endif\n");
    t.write("book/here.hpp", "#pragma once\n#include <not_installed_here.h>\n");
    InputSpec spec;
    spec.source_root = (t.root / "book").string();
    spec.sources = {src};
    CHECK_THROWS_WITH(input_files(spec),
                      Catch::Contains(src + ":4: cannot find the header \"gone.cuh\" it includes"));
    // A header that includes the missing one is named, too.
    t.write("book/prog.cu", "#include \"here.hpp\"\n");
    t.write("book/here.hpp", "#pragma once\n\n#include \"gone.hpp\"\n");
    CHECK_THROWS_WITH(input_files(spec),
                      Catch::Contains("here.hpp:3: cannot find the header \"gone.hpp\""));
    // An angle include that is missing (a system or CUDA header) is not an input, nor an error.
    t.write("book/here.hpp", "#pragma once\n#include <cuda_runtime.h>\n");
    CHECK(relative(input_files(spec), t.root / "book") ==
          std::vector<std::string>{"here.hpp", "prog.cu"});
    spec.sources = {(t.root / "book/nope.cu").string()};
    CHECK_THROWS_WITH(input_files(spec), Catch::Contains("nope.cu does not exist"));
}

TEST_CASE("headers: a kept header list is reused only while every file it names is unchanged",
          "[runner][inputs]") {
    TempTree t;
    // A compiler that can be switched off: the kept lists are then all there is.
    const std::string cc = t.write("cc.sh", "#!/bin/sh\nexec c++ \"$@\"\n");
    fs::permissions(cc, fs::perms::owner_all);
    const std::string src = t.write("book/code/prog.cu", "#include \"a.hpp\"\n");
    t.write("book/code/a.hpp", "#pragma once\n");
    InputSpec spec;
    spec.source_root = (t.root / "book").string();
    spec.cxx = cc;
    spec.sources = {src};
    spec.scan_cache = (t.root / "kept").string();
    const auto first = relative(input_files(spec), t.root / "book");
    CHECK(first == std::vector<std::string>{"code/a.hpp", "code/prog.cu"});
    CHECK(!fs::is_empty(spec.scan_cache));
    t.write("cc.sh", "#!/bin/sh\nexit 1\n");
    // Nothing changed: the kept lists answer, the compiler is not asked.
    CHECK(relative(input_files(spec), t.root / "book") == first);
    // A header changed (it now includes another): the list is asked for again.
    t.write("book/code/a.hpp", "#pragma once\n#include \"b.hpp\"\n");
    CHECK_THROWS_WITH(input_files(spec), Catch::Contains("cannot list the headers of " + src));
    // A header added to a folder an include searches (it could shadow one): asked again.
    t.write("book/code/a.hpp", "#pragma once\n");
    t.write("cc.sh", "#!/bin/sh\nexec c++ \"$@\"\n");
    CHECK(relative(input_files(spec), t.root / "book") == first);
    t.write("cc.sh", "#!/bin/sh\nexit 1\n");
    t.write("book/code/new.hpp", "#pragma once\n");
    CHECK_THROWS_WITH(input_files(spec), Catch::Contains("cannot list the headers of " + src));
    // Without a folder to keep them in, every call asks the compiler.
    t.write("cc.sh", "#!/bin/sh\nexec c++ \"$@\"\n");
    spec.scan_cache.clear();
    CHECK(relative(input_files(spec), t.root / "book").size() == 2);
}

TEST_CASE("the input hash: environment counts, toolchain does not, older hashes hold",
          "[runner][inputs]") {
    TempTree t;
    const std::string src = t.write("book/a.cpp", "int main() {}\n");
    InputSpec spec;
    spec.source_root = (t.root / "book").string();
    spec.flags = "c++20 Release";
    spec.args = {"--quick"};
    auto base = compute_inputs(spec, {src});
    // The hash as runners made it before env and toolchain existed.
    const std::string file_hash = fnv1a_hex("int main() {}\n");
    CHECK(base["files"]["a.cpp"] == file_hash);
    CHECK(base["hash"] == fnv1a_hex("a.cpp=" + file_hash + "\nflags=c++20 Release\narg=--quick\n"));
    CHECK(base["env"] == json::object());
    spec.toolchain = {{"nvcc", "13.0.88"}};
    auto with_tools = compute_inputs(spec, {src});
    CHECK(with_tools["hash"] == base["hash"]);
    CHECK(with_tools["toolchain"]["nvcc"] == "13.0.88");
    spec.env = {{"BOOK_WARPS", "4"}};
    auto with_env = compute_inputs(spec, {src});
    CHECK(with_env["hash"] != base["hash"]);
    CHECK(with_env["env"]["BOOK_WARPS"] == "4");
}

TEST_CASE("input differences are named", "[runner][inputs]") {
    json a = {{"files", {{"code/a.cu", "1"}, {"code/b.hpp", "2"}}},
              {"flags", "f"},
              {"args", json::array()},
              {"hash", "x"}};
    json b = {{"files", {{"code/a.cu", "9"}, {"code/c.hpp", "3"}}},
              {"flags", "g"},
              {"args", {"--quick"}},
              {"hash", "y"}};
    auto d = diff_inputs(a, b).changes;
    REQUIRE(d.size() == 5);
    CHECK(d[0] == "code/a.cu changed");
    CHECK(d[1] == "code/c.hpp is new since the recording");
    CHECK(d[2] == "code/b.hpp is no longer an input");
    CHECK(d[3].find("compile flags changed") == 0);
    CHECK(d[4].find("arguments changed") == 0);
    CHECK(diff_inputs(a, a).changes.empty());
    json e = a;
    e["env"] = {{"K", "1"}};
    CHECK(diff_inputs(a, e).changes ==
          std::vector<std::string>{"environment changed (recorded {}, now {\"K\":\"1\"})"});
}

TEST_CASE("toolchain: compared where this build gives the key, named where it does not",
          "[runner][inputs]") {
    json rec = {{"files", json::object()},
                {"flags", ""},
                {"args", json::array()},
                {"hash", "x"},
                {"toolchain", {{"nvcc", "13.0.88"}}}};
    json same = rec, none = rec, newer = rec, more = rec;
    none["toolchain"] = json::object();
    newer["toolchain"]["nvcc"] = "13.1.0";
    more["toolchain"]["ncu"] = "2025.3";

    auto d = diff_inputs(rec, same);
    CHECK(d.changes.empty());
    CHECK(d.not_compared.empty());
    d = diff_inputs(rec, none);  // a machine without nvcc: not stale, but said so
    CHECK(d.changes.empty());
    CHECK(d.not_compared ==
          std::vector<std::string>{"nvcc (recorded 13.0.88; this build gives no nvcc version)"});
    d = diff_inputs(rec, newer);
    CHECK(d.changes == std::vector<std::string>{"nvcc changed (recorded 13.0.88, now 13.1.0)"});
    d = diff_inputs(rec, more);  // a tool the recording does not name
    REQUIRE(d.changes.size() == 1);
    CHECK(d.changes[0].find("ncu 2025.3 is used now, but the recording does not say") == 0);
    json old = rec;
    old.erase("toolchain");  // made before tool versions were recorded
    d = diff_inputs(old, same);
    CHECK(d.changes.empty());
    CHECK(d.not_compared.size() == 1);
}

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

// ---- tools ------------------------------------------------------------------------

namespace {
const std::string kDump =
    "\tcode for sm_90\n"
    "\t\tFunction : _Z5otherv\n"
    "        /*0000*/                   MOV R1, c[0x0][0x28] ;        /* 0x00000a00ff017624 */\n"
    "\t\tFunction : _Z7divergePjii\n"
    "        /*0000*/                   LDC R1, c[0x0][0x28] ;        /* 0x00000a00ff017b82 */\n"
    "                                                                 /* 0x000fe20000000800 */\n"
    "        /*0010*/                   BSSY B0, `(.L_x_1) ;          /* 0x0000011000007945 */\n"
    ".L_x_1:\n"
    "        /*0020*/                   BSYNC B0 ;                    /* 0x0000000000007941 */\n"
    "\t\tFunction : _Z17divergeXYZWVUTSRQv\n"
    "        /*0000*/                   EXIT ;                        /* 0x000000000000794d */\n"
    "\t\tFunction : _Z6reduceILi256EEvPf\n"
    "        /*0000*/                   NOP ;                         /* 0x0000000000007918 */\n"
    "\t\tFunction : _Z6reduceILi512EEvPf\n"
    "        /*0000*/                   EXIT ;                        /* 0x000000000000794d */\n"
    "\t\tFunction : _ZN4ch0317reduce_sequentialEPKfmPf\n"
    "        /*0000*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ; /* 0x0000000000007b1d */\n"
    "\tcode for sm_100\n"
    "\t\tFunction : _Z7divergePjii\n"
    "        /*0000*/                   LDC R1, c[0x0][0x37c] ;       /* 0x0000df00ff017b82 */\n";
}  // namespace

TEST_CASE("SASS of one function: addresses kept, encodings dropped, one arch", "[runner][sass]") {
    auto s = extract_sass(kDump, "diverge");
    CHECK(s ==
          "/*0000*/  LDC R1, c[0x0][0x28]\n/*0010*/  BSSY B0, `(.L_x_1)\n.L_x_1:\n/*0020*/  BSYNC "
          "B0\n");
    CHECK(extract_sass(kDump, "_Z7divergePjii") == s);
    CHECK_THROWS_WITH(extract_sass(kDump, "nothere"),
                      Catch::Contains("no function named 'nothere'"));
    // A name is a whole identifier: "diverge" is not "divergeXYZWVUTSRQ" (nor "iverge").
    CHECK_THROWS_WITH(extract_sass(kDump, "iverge"), Catch::Contains("no function named 'iverge'"));
    // Two template instances: ambiguous, until named by the mangled name.
    CHECK_THROWS_WITH(
        extract_sass(kDump, "reduce"),
        Catch::Contains("'reduce' names 2 kernels (_Z6reduceILi256EEvPf, _Z6reduceILi512EEvPf)"));
    CHECK(extract_sass(kDump, "_Z6reduceILi512EEvPf") == "/*0000*/  EXIT\n");
    // A kernel in a namespace whose name ends in a digit (ch03): the components
    // are read by their lengths, so "17reduce_sequential" after "4ch03" is found.
    CHECK(extract_sass(kDump, "reduce_sequential") == "/*0000*/  BAR.SYNC.DEFER_BLOCKING 0x0\n");
    CHECK_THROWS_WITH(extract_sass(kDump, "ch0317reduce_sequential"),
                      Catch::Contains("no function named"));
}

TEST_CASE("ncu: several kernels in one filter; metrics per labelled launch", "[runner][ncu]") {
    CHECK(ncu_kernel_filter({"diverge"}) == "regex:diverge");
    CHECK(ncu_kernel_filter({"reduce_naive", "reduce_sh.*"}) ==
          "regex:(reduce_naive)|(reduce_sh.*)");
    const std::string csv =
        "==PROF== Connected to process 1\n"
        "\"ID\",\"Process ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
        "\"0\",\"1\",\"diverge\",\"smsp__inst_executed.sum\",\"inst\",\"1,234\"\n"
        "\"0\",\"1\",\"diverge\",\"smsp__branch_targets_threads_divergent.sum\",\"\",\"n/a\"\n"
        "\"1\",\"1\",\"reduce\",\"smsp__inst_executed.sum\",\"inst\",\"2,468\"\n";
    auto m = parse_ncu_csv(csv, {"uniform", "divergent"});
    CHECK(m["uniform:smsp__inst_executed.sum"]["value"].get<double>() == 1234);
    CHECK(m["uniform:smsp__inst_executed.sum"]["kernel"] == "diverge");
    CHECK(m["divergent:smsp__inst_executed.sum"]["value"].get<double>() == 2468);
    CHECK(m["divergent:smsp__inst_executed.sum"]["kernel"] == "reduce");
    CHECK(m["uniform:smsp__branch_targets_threads_divergent.sum"]["value"].is_null());
    CHECK(m["uniform:smsp__branch_targets_threads_divergent.sum"]["text"] == "n/a");
    CHECK(parse_ncu_csv(csv, {}).contains("launch1:smsp__inst_executed.sum"));
    CHECK_THROWS_WITH(
        parse_ncu_csv(csv, {"one"}),
        "ncu profiled 2 launches (diverge, reduce), but 1 label names them (one): give "
        "one label per profiled launch, in launch order");
    CHECK_THROWS_WITH(parse_ncu_csv(csv, {"a", "b", "c"}),
                      Catch::Contains("but 3 labels name them"));
    CHECK_THROWS(parse_ncu_csv("nothing\n", {}));
}

TEST_CASE("sanitizer reports: the error count, and what changes from run to run masked",
          "[runner][sanitizer]") {
    CHECK(sanitizer_errors("========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n") ==
          0);
    CHECK(sanitizer_errors("========= ERROR SUMMARY: 1 error\n") == 1);
    CHECK(sanitizer_errors("=========\n========= ERROR SUMMARY: 1536 errors\n") == 1536);
    // More errors than printed: the line that says so is not the summary.
    CHECK(sanitizer_errors("========= ERROR SUMMARY: 316 errors were not printed. Use "
                           "--print-limit option to adjust the number of printed errors\n"
                           "========= ERROR SUMMARY: 416 errors\n") == 416);
    // racecheck's own summary: errors and warnings (hazards within a warp).
    const auto race = sanitizer_summary(
        "========= RACECHECK SUMMARY: 100 hazards displayed (0 errors, 2069 warnings)\n");
    CHECK(race.errors == 0);
    CHECK(race.warnings == 2069);
    CHECK(sanitizer_summary("========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 1 warning)")
              .errors == 1);
    CHECK(sanitizer_summary("========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 "
                            "warnings)")
              .warnings == 0);
    CHECK_THROWS_WITH(
        sanitizer_errors("========= COMPUTE-SANITIZER\nthe program crashed\n"),
        Catch::Contains("has neither an \"ERROR SUMMARY: <n> errors\" nor a \"RACECHECK SUMMARY"));
    const std::string report =
        "=========     at scale(float *, int)+0x70 in /home/me/book/code/ch/x.cu:12\n"
        "=========     Address 0x7f2a4e000400 is out of bounds\n"
        "=========     and is 1 bytes after the nearest allocation at 0x302000000 of size 1024 "
        "bytes\n"
        "=========     Host Frame: [0x2f9c05] in libcuda.so.1\n";
    CHECK(mask_sanitizer_report(report, "/home/me/book") ==
          "=========     at scale(float *, int)+0x70 in code/ch/x.cu:12\n"
          "=========     Address 0x… is out of bounds\n"
          "=========     and is 1 bytes after the nearest allocation at 0x… of size 1024 bytes\n"
          "=========     Host Frame: [0x2f9c05] in libcuda.so.1\n");
}

TEST_CASE("the driver's own version, from nvidia-smi or the kernel module", "[runner][driver]") {
    CHECK(parse_driver_version("580.65.06\n580.65.06\n") == "580.65.06");
    CHECK(parse_driver_version(
              "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.65.06  Sun Jul 27 "
              "2025\nGCC version: gcc 12\n") == "580.65.06");
    CHECK(parse_driver_version("NVIDIA-SMI has failed because it couldn't communicate\n").empty());
    CHECK(parse_driver_version("").empty());
}
