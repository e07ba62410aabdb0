// The readers of chapter 2's record texts (ch02_record_texts.hpp), on excerpts of
// the reports and SASS that the chapter's programs produced on the H200 (the
// exploration run), and on texts built to make each reader fail.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "ch02_record_texts.hpp"

namespace {

// memcheck on the widely copied stencil, n = 1,000 (excerpt).
const std::string kMemcheck = R"(========= COMPUTE-SANITIZER
========= Invalid __global__ read of size 4 bytes
=========     at stencil(const float *, float *, int)+0xa0 in stencil_seed.cu:39
=========     by thread (232,0,0) in block (3,0,0)
=========     Access to 0x7f061c800fa0 is out of bounds
=========     and is 1 bytes after the nearest allocation at 0x7f061c800000 of size 4,000 bytes
=========     Saved host backtrace up to driver entry point at kernel launch time
========= 
========= Invalid __global__ read of size 4 bytes
=========     at stencil(const float *, float *, int)+0xc0 in stencil_seed.cu:41
=========     by thread (0,0,0) in block (0,0,0)
=========     Access to 0x7f061c7ffff4 is out of bounds
=========     and is 12 bytes before the nearest allocation at 0x7f061c800000 of size 4,000 bytes
=========     Saved host backtrace up to driver entry point at kernel launch time
========= 
========= Target application returned an error
========= ERROR SUMMARY: 30 errors
)";

// synccheck on the barrier in a branch (excerpt).
const std::string kSynccheck = R"(========= COMPUTE-SANITIZER
========= Barrier error detected. Divergent thread(s) in warp.
=========     at <unnamed>::stencil_tiled_branch(const float *, float *, long long)+0x170 in stencil_barrier.cu:77
=========     by thread (6,0,0) in block (8,0,0)
=========     Saved host backtrace up to driver entry point at kernel launch time
========= 
========= Barrier error detected. Divergent thread(s) in warp.
=========     at <unnamed>::stencil_tiled_branch(const float *, float *, long long)+0x170 in stencil_barrier.cu:77
=========     by thread (31,0,0) in block (8,0,0)
========= ERROR SUMMARY: 416 errors
========= ERROR SUMMARY: 316 errors were not printed. Use --print-limit option to adjust the number of printed errors
)";

// SASS lines as the runner records them (address, instruction).
const std::string kSassVec = R"(/*0180*/  LDG.E.128.CONSTANT R8, desc[UR4][R16.64+-0x10]
/*0190*/  LDG.E.128.CONSTANT R4, desc[UR4][R16.64]
/*01a0*/  LDG.E.128.CONSTANT R12, desc[UR4][R16.64+0x10]
/*03a0*/  STG.E.128 desc[UR4][R2.64], R16
/*0580*/  @P4 LDG.E R12, desc[UR4][R4.64]
/*0630*/  @!P0 LDG.E R16, desc[UR4][R4.64+-0x8]
)";

}  // namespace

TEST_CASE("memcheck_says finds an error's thread and what it says", "[ch02][record-texts]") {
    CHECK(ch02test::memcheck_says(kMemcheck, 0, 0, "before the nearest allocation"));
    CHECK(ch02test::memcheck_says(kMemcheck, 232, 3, "after the nearest allocation"));
    CHECK_FALSE(ch02test::memcheck_says(kMemcheck, 0, 0, "after the nearest allocation"));
    CHECK_FALSE(ch02test::memcheck_says(kMemcheck, 232, 0, "after the nearest allocation"));
    CHECK_FALSE(ch02test::memcheck_says(kMemcheck, 23, 3, "after the nearest allocation"));
    CHECK_FALSE(ch02test::memcheck_says("", 0, 0, "before"));
}

TEST_CASE("error_summary reads the summary line", "[ch02][record-texts]") {
    CHECK(ch02test::error_summary(kMemcheck) == 30);
    CHECK(ch02test::error_summary(kSynccheck) == 416);
    CHECK(ch02test::error_summary("========= ERROR SUMMARY: 0 errors\n") == 0);
    CHECK(ch02test::error_summary("========= ERROR SUMMARY: 1 error\n") == 1);
    // The line about errors not printed is no summary, wherever it stands.
    CHECK(ch02test::error_summary("========= ERROR SUMMARY: 316 errors were not printed. Use "
                                  "--print-limit\n========= ERROR SUMMARY: 416 errors\n") == 416);
}

TEST_CASE("racecheck_summary reads hazards, errors and warnings", "[ch02][record-texts]") {
    const auto s = ch02test::racecheck_summary(
        "...\n========= RACECHECK SUMMARY: 100 hazards displayed (1289 errors, 15540 warnings)\n");
    CHECK(s.hazards == 100);
    CHECK(s.errors == 1289);
    CHECK(s.warnings == 15540);
    const auto none = ch02test::racecheck_summary(
        "========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n");
    CHECK(none.hazards + none.errors + none.warnings == 0);
}

TEST_CASE("reported_threads lists every thread a report names", "[ch02][record-texts]") {
    CHECK(ch02test::reported_threads(kSynccheck) == std::vector<int>{6, 31});
    CHECK(ch02test::reported_threads(kMemcheck) == std::vector<int>{232, 0});
    CHECK(ch02test::reported_threads("no threads here").empty());
}

TEST_CASE("global_loads tells 16-byte loads from narrower ones", "[ch02][record-texts]") {
    const auto c = ch02test::global_loads(kSassVec);
    CHECK(c.wide == 3);
    CHECK(c.narrow == 2);
    const auto none =
        ch02test::global_loads("/*0010*/  LDS R2, [R0]\n/*0020*/  STG.E desc[UR4][R2.64], R9\n");
    CHECK(none.wide + none.narrow == 0);
}
