// Unit tests of the runner: the hashes, dependency lists and header closures, and a run's input
// hash. (The command line is tested end to end in runner.cmake, beside this file; what the tests
// share: runner_test.hpp.)
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
