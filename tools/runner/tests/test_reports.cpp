// Unit tests of the runner: the SASS, ncu, sanitizer and driver readers. (The command line is
// tested end to end in runner.cmake, beside this file; what the tests share: runner_test.hpp.)
#include <catch2/catch.hpp>

#include <unistd.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>

#include <fmt/format.h>

#include "commands.hpp"
#include "runner.hpp"
#include "runner_test.hpp"

using namespace bookrun;
using namespace bookrun::test;
namespace fs = std::filesystem;

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

TEST_CASE("ncu: what a recording was profiled with, compared with the declaration",
          "[runner][ncu]") {
    RunSpec run;
    run.inputs.source_root = "/src";
    run.ncu_metrics = "m1,m2";
    run.ncu_labels = "a,b";
    run.ncu_kernels = {"k1", "k2"};
    run.ncu_args = {"--data=/src/data/x.bin"};
    json record = {{"ncu", {{"a:m1", {}}, {"a:m2", {}}, {"b:m1", {}}, {"b:m2", {}}}}};
    // A recording made before "ncu_profile" existed: not stale, and said so.
    InputDiff d = ncu_changes(record, run);
    CHECK(d.changes.empty());
    REQUIRE(d.not_compared.size() == 1);
    CHECK_THAT(d.not_compared[0], Catch::Contains("kernels, arguments and cache control"));
    // One made now: compared (the kernels as a set; machine paths as <source>).
    record["ncu_profile"] = ncu_profile(run);
    CHECK(record["ncu_profile"]["args"] == json::array({"--data=<source>/data/x.bin"}));
    CHECK(record["ncu_profile"]["cache_control"] == "all");
    RunSpec reordered = run;
    reordered.ncu_kernels = {"k2", "k1"};
    d = ncu_changes(record, reordered);
    CHECK(d.changes.empty());
    CHECK(d.not_compared.empty());
    RunSpec changed = run;
    changed.ncu_kernels = {"k1"};
    changed.ncu_args = {};
    changed.ncu_cache_control = "none";
    d = ncu_changes(record, changed);
    REQUIRE(d.changes.size() == 3);
    CHECK(d.changes[0] ==
          "the kernels Nsight Compute profiles changed (recorded: k1, k2; declared: k1)");
    CHECK(d.changes[1] ==
          "the profiled run's arguments changed (recorded [\"--data=<source>/data/x.bin\"], "
          "declared [])");
    CHECK(d.changes[2] == "Nsight Compute's cache control changed (recorded all, declared none)");
    // A run that declares no profile compares nothing.
    CHECK(ncu_changes(record, RunSpec{}).changes.empty());
}

TEST_CASE("clocks: a reading, the reasons that slow the GPU, a repeat that throttled",
          "[runner][clocks]") {
    const json idle = parse_clocks("1980, 2619, 0x0000000000000001\n");
    CHECK(idle ==
          json{{"sm_mhz", 1980}, {"mem_mhz", 2619}, {"throttle_reasons", "0x0000000000000001"}});
    // What nvidia-smi prints where it has no figure, or two GPUs, or nothing.
    for (const char* bad : {"[N/A], 2619, 0x0000000000000000", "1980, 2619",
                            "1980, 2619, 0x0\n1755, 2619, 0x0", "", "1980, 2619, 4"})
        CHECK_THROWS_WITH(parse_clocks(bad), Catch::StartsWith("nvidia-smi printed \""));
    // NVML's bits: idle, applications clocks, sync boost and display clock are no slowdown.
    CHECK(slowdown_reasons(0x0).empty());
    CHECK(slowdown_reasons(0x1 | 0x2 | 0x10 | 0x100).empty());
    CHECK(slowdown_reasons(0x4) == std::vector<std::string>{"SW power cap"});
    CHECK(slowdown_reasons(0x8 | 0x20 | 0x40 | 0x80) ==
          std::vector<std::string>{"HW slowdown", "SW thermal slowdown", "HW thermal slowdown",
                                   "HW power brake slowdown"});
    CHECK(slowdown_reasons(0x1000) == std::vector<std::string>{"an unknown reason (0x1000)"});
    const json capped = parse_clocks("1410, 2619, 0x0000000000000005");
    const json c = repeat_clocks(idle, capped);
    CHECK(c["throttled"] == json::array({"SW power cap"}));
    CHECK(repeat_clocks(idle, idle).contains("throttled") == false);
    CHECK(repeat_clocks(idle, {{"not_read", "why"}}) == json{{"not_read", "why"}});
    const json record = {{"clocks", {repeat_clocks(idle, idle), c, {{"not_read", "why"}}}}};
    CHECK(throttle_notes(record) ==
          std::vector<std::string>{"repeat 2 of 3 ran while the GPU throttled: SW power cap"});
    CHECK(throttle_notes(json::object()).empty());
    CHECK_NOTHROW(check_clocks(record["clocks"], "v.json"));
    json edited = record["clocks"];
    edited[1].erase("throttled");
    CHECK_THROWS_WITH(check_clocks(edited, "v.json"),
                      Catch::StartsWith("v.json: 'clocks.1.throttled' is [], but its readings' "
                                        "bitmasks give [\"SW power cap\"]"));
}

TEST_CASE("clocks: without an nvidia-smi to run, not read, and not asked again",
          "[runner][clocks]") {
    ClockReader missing{"/nonexistent/nvidia-smi", "0"};
    CHECK(missing.read() ==
          json{{"not_read", "/nonexistent/nvidia-smi is not a program this runner can run"}});
    ClockReader off_path{"bookrun-no-such-nvidia-smi", "0"};
    CHECK(off_path.read() == json{{"not_read", "bookrun-no-such-nvidia-smi is not on PATH"}});
    CHECK(off_path.read() == json{{"not_read", "bookrun-no-such-nvidia-smi is not on PATH"}});
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
