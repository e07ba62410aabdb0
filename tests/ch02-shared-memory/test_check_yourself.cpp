// Chapter 2's "check yourself" answers, one test per question id. Each test is
// tagged [cy:<id>]; the book's build fails if a question has no test or a test
// has no question. Each answer is checked against a model of the kernels'
// indexing written here (the widely copied stencil's loads, the tiled kernel's
// writers and readers, shared-memory banks), and that model against the records
// the built book shows (book::test::record: on a GPU machine the runs of this
// build, elsewhere the committed recordings it imported).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "book/test/records.hpp"
#include "ch02_record_texts.hpp"
#include "stencil_plan.hpp"

namespace {

using book::test::answer;
using book::test::record;
using book::test::result;
using ch02test::check_value;

// ---- the widely copied stencil (stencil_seed.cu), modelled ------------------------------

struct seed_model {
    std::set<long long> reads_outside;     // indices of `in` outside [0, n) that a load reads
    std::vector<long long> wrong_outputs;  // outputs in [0, n) whose window holds such an index
    long long writes_outside = 0;          // outputs the kernel writes at gid >= n
};

// The loads of the widely copied kernel, thread by thread: in[gid] into tile[t + R],
// and for t < R also in[gid - R] into tile[t] and in[gid + block] into
// tile[t + R + block]; the store out[gid] by every thread. Output gid sums
// tile[t .. t + 2R], which holds in[gid - R .. gid + R] as loaded, with no check.
seed_model model_seed(long long n, int block, int radius) {
    seed_model m;
    const long long blocks = (n + block - 1) / block;
    auto outside = [n](long long j) { return j < 0 || j >= n; };
    for (long long b = 0; b < blocks; ++b)
        for (int t = 0; t < block; ++t) {
            const long long gid = b * block + t;
            std::vector<long long> loads = {gid};
            if (t < radius) {
                loads.push_back(gid - radius);
                loads.push_back(gid + block);
            }
            for (long long j : loads)
                if (outside(j)) m.reads_outside.insert(j);
            if (gid >= n) {
                ++m.writes_outside;
                continue;
            }
            for (long long j = gid - radius; j <= gid + radius; ++j)
                if (outside(j)) {
                    m.wrong_outputs.push_back(gid);
                    break;
                }
        }
    return m;
}

// ---- the chapter's tiled kernel (stencil_tiled): who writes, who reads --------------------

// The thread that writes tile entry k in stencil_tiled's loop: thread k, and for
// the entries past the block, thread k - block on its second trip.
int writer(int k, int block) { return k % block; }

// The threads of a block that read (t .. t + 2R) a tile entry another warp wrote.
std::vector<int> cross_warp_readers(int block, int radius) {
    std::vector<int> readers;
    for (int t = 0; t < block; ++t)
        for (int k = t; k <= t + 2 * radius; ++k)
            if (writer(k, block) / 32 != t / 32) {
                readers.push_back(t);
                break;
            }
    return readers;
}

// ---- banks -------------------------------------------------------------------------------

// The ways of one warp-wide load of 4-byte words: the most distinct words any of
// the 32 banks must deliver (lanes asking for the same word share it).
int ways(const std::vector<long long>& words) {
    std::map<long long, std::set<long long>> per_bank;
    for (long long w : words) per_bank[w % 32].insert(w);
    std::size_t most = 0;
    for (const auto& [bank, distinct] : per_bank) most = std::max(most, distinct.size());
    return static_cast<int>(most);
}

std::vector<long long> lanes(long long (*word)(long long lane)) {
    std::vector<long long> w;
    for (long long lane = 0; lane < 32; ++lane) w.push_back(word(lane));
    return w;
}

int strided_ways(long long stride) {
    std::vector<long long> w;
    for (long long lane = 0; lane < 32; ++lane) w.push_back(lane * stride);
    return ways(w);
}

}  // namespace

TEST_CASE("the widely copied stencil reads past both ends", "[ch02][cy:ch02-bounds-bug]") {
    // The model: with n = 1,024, the first three and the last three outputs, from
    // reads of in[-3..-1] and in[1024..1026]; with n = 1,000 also 24 stores past the end.
    const seed_model m1024 = model_seed(1024, 256, 3);
    CHECK(m1024.wrong_outputs == std::vector<long long>{0, 1, 2, 1021, 1022, 1023});
    CHECK(m1024.reads_outside == std::set<long long>{-3, -2, -1, 1024, 1025, 1026});
    CHECK(m1024.writes_outside == 0);
    const seed_model m1000 = model_seed(1000, 256, 3);
    CHECK(m1000.wrong_outputs == std::vector<long long>{0, 1, 2, 997, 998, 999});
    CHECK(m1000.writes_outside == 24);

    // The GPU agrees with the model (the guards hold a non-zero sentinel, so every
    // read outside the array makes its outputs wrong).
    const auto seed = record("stencil-seed");
    CHECK(result(seed, "seed_n1024_mismatches") == static_cast<double>(m1024.wrong_outputs.size()));
    CHECK(result(seed, "seed_n1024_first_mismatch") == m1024.wrong_outputs.front());
    CHECK(result(seed, "seed_n1024_last_mismatch") == m1024.wrong_outputs.back());
    CHECK(result(seed, "seed_n1024_guard_writes") == m1024.writes_outside);
    CHECK(result(seed, "seed_n1000_mismatches") == static_cast<double>(m1000.wrong_outputs.size()));
    CHECK(result(seed, "seed_n1000_last_mismatch") == m1000.wrong_outputs.back());
    CHECK(result(seed, "seed_n1000_guard_writes") == m1000.writes_outside);
    for (const std::string n : {"1024", "1000"}) {
        INFO("the fixed kernel at n = " << n);
        CHECK(result(seed, "fixed_n" + n + "_mismatches") == 0);
        CHECK(result(seed, "fixed_n" + n + "_guard_writes") == 0);
    }

    // memcheck, on arrays of exactly n = 1,000 floats: a read before the array by
    // thread 0 of block 0 (in[-3]) and after it by thread 232 of block 3 (in[1000]).
    const auto mc = record("stencil-seed-memcheck");
    CHECK(result(mc, "sanitizer_errors") >= 1);
    const std::string report = book::test::text(mc, "sanitizer:memcheck");
    CHECK(ch02test::memcheck_says(report, 0, 0, "before the nearest allocation"));
    CHECK(ch02test::memcheck_says(report, 232, 3, "after the nearest allocation"));
    CHECK(result(record("stencil-fixed-memcheck"), "sanitizer_errors") == 0);

    // The figures the answer states (answers.json): counted from the model, the
    // radius the model was run with, and the n memcheck was run at.
    const auto a = [](const char* name) { return answer("ch02-bounds-bug", name); };
    CHECK(a("radius") == 3);  // the question's R
    const seed_model m = model_seed(1024, 256, static_cast<int>(a("radius")));
    CHECK(m.wrong_outputs == m1024.wrong_outputs);
    const auto before = std::count_if(m.wrong_outputs.begin(), m.wrong_outputs.end(),
                                      [](long long o) { return o < 512; });
    CHECK(a("wrong_first") == before);
    CHECK(a("wrong_last") == static_cast<double>(m.wrong_outputs.size()) - before);
    CHECK(a("first_block") == m.wrong_outputs.front() / 256);
    // The threads that load before the array: block 0's first R (in[gid - R] < 0).
    CHECK(std::count_if(m.reads_outside.begin(), m.reads_outside.end(),
                        [](long long j) { return j < 0; }) == a("radius"));
    // The reads outside the array, before it and past its end (the model's n = 1,024).
    std::vector<long long> reads_before, reads_after;
    for (long long j : m.reads_outside) (j < 0 ? reads_before : reads_after).push_back(j);
    REQUIRE(!reads_before.empty());
    REQUIRE(!reads_after.empty());
    CHECK(a("before_from") == reads_before.front());
    CHECK(a("before_to") == reads_before.back());
    CHECK(a("after_from") == reads_after.front());
    CHECK(a("after_to") == reads_after.back());
    const auto& args = mc.at("inputs").at("args");
    const auto n_at = std::find(args.begin(), args.end(), "--n");
    REQUIRE(n_at != args.end());
    REQUIRE(n_at + 1 != args.end());
    CHECK(a("memcheck_n") == std::stod((n_at + 1)->get<std::string>()));
}

TEST_CASE("a load's ways are the most distinct words in one bank", "[ch02][cy:ch02-bank-ways]") {
    CHECK(strided_ways(2) == 2);  // lanes i and i + 16 share bank 2i mod 32
    CHECK(strided_ways(32) == 32);
    CHECK(strided_ways(33) == 1);
    CHECK(ways(std::vector<long long>(32, 5)) == 1);  // one word for all: a broadcast

    // The program's "ways" column is the model's, and the measured cost follows it.
    const auto bank = record("bank-conflicts");
    const std::map<std::string, int> patterns = {
        {"stride1", strided_ways(1)},
        {"stride2", strided_ways(2)},
        {"stride3", strided_ways(3)},
        {"stride4", strided_ways(4)},
        {"stride8", strided_ways(8)},
        {"stride16", strided_ways(16)},
        {"stride32", strided_ways(32)},
        {"stride33", strided_ways(33)},
        {"stride64", strided_ways(64)},
        {"tile_rows", ways(lanes([](long long i) { return 7 * 32 + i; }))},  // tile[7][i], 32 x 32
        {"tile_columns", ways(lanes([](long long i) { return i * 32 + 7; }))},         // tile[i][7]
        {"tile_columns_padded", ways(lanes([](long long i) { return i * 33 + 7; }))},  // 32 x 33
    };
    for (const auto& [name, w] : patterns) {
        INFO("pattern " << name << ", " << w << " ways");
        CHECK(result(bank, name + "_ways") == w);
        CHECK(result(bank, name + "_over_stride1") == Approx(w).epsilon(0.05));
    }
    // Nsight Compute's passes per load instruction, as the answer quotes them.
    CHECK(check_value(bank, "ncu-stride2-wavefronts") == Approx(2).margin(0.01));
    CHECK(check_value(bank, "ncu-stride32-wavefronts") == Approx(32).margin(0.01));
    // The figures the answer states (answers.json).
    const auto a = [](const char* name) { return answer("ch02-bank-ways", name); };
    const auto sa = static_cast<long long>(a("stride_a")),
               sb = static_cast<long long>(a("stride_b"));
    const auto sc = static_cast<long long>(a("stride_c")),
               banks = static_cast<long long>(a("banks"));
    CHECK(sa == 2);  // the question's three strides
    CHECK(sb == 32);
    CHECK(sc == 33);
    CHECK(banks == 32);  // the bank of word w is w mod banks, as ways() models it
    CHECK(ways(lanes([](long long i) { return i; })) == 1);
    CHECK(a("ways_a") == strided_ways(sa));
    CHECK(a("ways_b") == strided_ways(sb));
    CHECK(a("ways_c") == strided_ways(sc));
    for (long long i = 0; i < 32; ++i) {
        INFO("lane " << i);
        CHECK(a("bank_b") == (sb * i) % banks);  // every lane in one bank
        CHECK((sc * i) % banks == i % banks);    // stride 33: bank i mod 32
        const long long partner = i + static_cast<long long>(a("partner"));
        if (partner < 32) CHECK((sa * i) % banks == (sa * partner) % banks);
        for (long long j = i + 1; j < 32; ++j)  // and no other lane shares it
            if (j != partner) CHECK((sa * i) % banks != (sa * j) % banks);
    }
}

TEST_CASE("the tiled kernel's threads read what other warps wrote", "[ch02][cy:ch02-why-barrier]") {
    // The last 2R threads of every warp, and no other thread.
    const int block = 256, radius = 3;
    std::vector<int> want;
    for (int w = 0; w < block / 32; ++w)
        for (int t = 32 * w + 32 - 2 * radius; t < 32 * (w + 1); ++t) want.push_back(t);
    CHECK(cross_warp_readers(block, radius) == want);
    // The last warp's last thread reads the tile's last 2R entries, which warp 0 writes.
    for (int k = block; k < block + 2 * radius; ++k) CHECK(writer(k, block) / 32 == 0);

    // Without the barrier every launch went wrong; with it none did.
    const auto barrier = record("stencil-barrier");
    CHECK(result(barrier, "nosync_delay0_bad_launches") == result(barrier, "trials"));
    CHECK(result(barrier, "nosync_delay0_mismatches") > 0);
    CHECK(result(barrier, "tiled_mismatches") == 0);
    // racecheck reported hazards between warps (errors), and none with the barrier.
    const auto racy = ch02test::racecheck_summary(
        book::test::text(record("stencil-nosync-racecheck"), "sanitizer:racecheck"));
    CHECK(racy.errors > 0);
    const auto clean = ch02test::racecheck_summary(
        book::test::text(record("stencil-tiled-racecheck"), "sanitizer:racecheck"));
    CHECK(clean.hazards == 0);
    CHECK(clean.errors + clean.warnings == 0);

    // The figures the answer states (answers.json).
    const auto a = [](const char* name) { return answer("ch02-why-barrier", name); };
    CHECK(a("radius") == radius);
    const int readers = static_cast<int>(a("readers"));
    CHECK(readers == 2 * radius);  // the halo's entries, R on each side
    std::vector<int> last_of_each;
    for (int w = 0; w < block / 32; ++w)
        for (int t = 32 * (w + 1) - readers; t < 32 * (w + 1); ++t) last_of_each.push_back(t);
    CHECK(cross_warp_readers(block, radius) == last_of_each);
    for (int k = block; k < block + readers; ++k) {
        INFO("tile entry " << k);
        CHECK(writer(k, block) / 32 == a("writer_warp"));
        CHECK(writer(k, block) < readers);  // the first `readers` threads
    }
}

TEST_CASE("a barrier in each branch of a split warp is still wrong",
          "[ch02][cy:ch02-barrier-in-branch]") {
    // threadIdx.x < 6 splits warp 0 of a 256-thread block, and no other warp.
    std::vector<int> split;
    for (int w = 0; w < 8; ++w) {
        int below = 0;
        for (int lane = 0; lane < 32; ++lane) below += (32 * w + lane < 6) ? 1 : 0;
        if (below > 0 && below < 32) split.push_back(w);
    }
    CHECK(split == std::vector<int>{0});
    CHECK(split ==
          std::vector<int>{static_cast<int>(answer("ch02-barrier-in-branch", "split_warp"))});

    const auto barrier = record("stencil-barrier");
    CHECK(result(barrier, "branch_bad_launches") == result(barrier, "trials"));
    const auto sync = record("stencil-branch-synccheck");
    CHECK(result(sync, "sanitizer_errors") >= 1);
    const std::string report = book::test::text(sync, "sanitizer:synccheck");
    CHECK(report.find("Barrier error detected. Divergent thread(s) in warp.") != std::string::npos);
    // Every thread it names lies in warp 0, the warp the condition splits.
    const auto threads = ch02test::reported_threads(report);
    REQUIRE_FALSE(threads.empty());
    CHECK(std::all_of(threads.begin(), threads.end(), [](int t) { return t / 32 == 0; }));
    CHECK(std::all_of(threads.begin(), threads.end(), [](int t) {
        return t / 32 == answer("ch02-barrier-in-branch", "split_warp");
    }));
    // The answer's count is the record's.
    CHECK(ch02test::error_summary(report) == result(sync, "sanitizer_errors"));
}

TEST_CASE("a stencil output needs 8 bytes of DRAM traffic, as a copy",
          "[ch02][cy:ch02-bytes-per-output]") {
    const auto steps = record("stencil-steps");
    // The steps' GB/s are bytes read plus written, 2 x 4 bytes per output.
    const double n = result(steps, "n");
    CHECK(result(steps, "copy_gbps") ==
          Approx(2.0 * sizeof(float) * n / (result(steps, "copy_ms") * 1e6)).epsilon(1e-6));
    // With seven loads per output, one output per thread, from a tile or with 16-byte
    // loads, each kernel reads from DRAM what the copy kernel reads: every input once.
    const double copy = result(steps, "ncu:copy_vec_x4:dram__bytes_read.sum");
    for (const std::string k : {"plain", "tiled", "plain_k4", "vec_x1", "tiled_vec_x4"}) {
        INFO("kernel " << k);
        CHECK(result(steps, "ncu:" + k + ":dram__bytes_read.sum") / copy ==
              Approx(1.0).margin(0.05));
    }
    CHECK(check_value(steps, "ncu-plain-reads-dram-once") ==
          Approx(result(steps, "ncu:plain:dram__bytes_read.sum") / copy));
    // The figures the answer states (answers.json): a float in, a float out, and
    // the plain kernel's loads as its SASS has them.
    const auto a = [](const char* name) { return answer("ch02-bytes-per-output", name); };
    CHECK(a("float_bytes") == sizeof(float));
    CHECK(a("bytes") == 2 * a("float_bytes"));
    CHECK(result(steps, "copy_gbps") ==
          Approx(a("bytes") * n / (result(steps, "copy_ms") * 1e6)).epsilon(1e-6));
    CHECK(a("plain_loads") == 2 * 3 + 1);  // in[i - R .. i + R] at R = 3
    const auto plain = ch02test::global_loads(
        book::test::text(steps, "sass:_ZN4ch0213stencil_plainILi3EEEvPKfPfx"));
    CHECK(plain.narrow == a("plain_loads"));
}

TEST_CASE("the tile saved no DRAM traffic, and cost a barrier", "[ch02][cy:ch02-tiling-pays]") {
    const auto steps = record("stencil-steps");
    // The plain kernel's repeated loads hit in L1; the tiled kernel's mostly miss.
    CHECK(result(steps, "ncu:plain:l1tex__t_sector_hit_rate.pct") >= 70);
    CHECK(result(steps, "ncu:tiled:l1tex__t_sector_hit_rate.pct") <= 25);
    // The same DRAM bytes.
    CHECK(check_value(steps, "ncu-tiled-same-dram-bytes") == Approx(1.0).margin(0.03));
    // Its warps wait at the barrier; the plain kernel has none.
    CHECK(result(steps,
                 "ncu:tiled:smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio") >=
          1);
    CHECK(result(steps,
                 "ncu:plain:smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio") <
          0.05);
    // And it was slower.
    CHECK(result(steps, "tiled_ms") > result(steps, "plain_ms"));
}

TEST_CASE("16-byte loads, not more outputs per thread, reach the copy", "[ch02][cy:ch02-float4]") {
    const auto steps = record("stencil-steps");
    auto ncu = [&](const std::string& k, const std::string& metric) {
        return result(steps, "ncu:" + k + ":" + metric);
    };
    // plain_k4: as many instructions and L1 load requests as the plain kernel.
    CHECK(ncu("plain_k4", "smsp__inst_executed.sum") / ncu("plain", "smsp__inst_executed.sum") ==
          Approx(1.0).margin(0.1));
    const std::string requests = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
    CHECK(ncu("plain_k4", requests) / ncu("plain", requests) == Approx(1.0).margin(0.1));
    // vec_x1: a fraction of them.
    CHECK(ncu("plain", "smsp__inst_executed.sum") / ncu("vec_x1", "smsp__inst_executed.sum") >= 3);
    CHECK(ncu("plain", requests) / ncu("vec_x1", requests) >= 5);
    // Three 16-byte loads for four outputs at R = 3 (2P + 1 float4s, P = 1), against
    // seven 4-byte loads per output in the plain kernel.
    const int p = ch02::halo_pad(3) / ch02::kVec;
    const auto vec = ch02test::global_loads(
        book::test::text(steps, "sass:_ZN4ch0211stencil_vecILi3ELi1EEEvPKfPfx"));
    CHECK(vec.wide == 2 * p + 1);
    const auto plain = ch02test::global_loads(
        book::test::text(steps, "sass:_ZN4ch0213stencil_plainILi3EEEvPKfPfx"));
    CHECK(plain.wide == 0);
    CHECK(plain.narrow == 2 * 3 + 1);
    // Only vec_x1 reached the copy.
    CHECK(result(steps, "vec_x1_over_copy") >= 0.95);
    CHECK(result(steps, "plain_k4_over_copy") <= 0.8);
    // The figures the answer states (answers.json).
    const auto a = [](const char* name) { return answer("ch02-float4", name); };
    CHECK(a("radius") == 3);  // the kernel's template argument, stencil_vec<3, 1>
    CHECK(a("outputs") == ch02::kVec);
    CHECK(a("wide_bytes") == sizeof(float) * ch02::kVec);  // a float4
    CHECK(a("wide_bytes") == 128 / 8);                     // LDG.E.128
    CHECK(a("narrow_bytes") == sizeof(float));
    CHECK(a("wide_loads") == vec.wide);
    CHECK(a("wide_loads") == 2 * (ch02::halo_pad(static_cast<int>(a("radius"))) / ch02::kVec) + 1);
}

TEST_CASE("32 KiB per block: shared memory limits the blocks per SM",
          "[ch02][cy:ch02-smem-occupancy]") {
    const auto smem = record("smem-info");
    const double per_sm = result(smem, "smem_per_sm_kb");
    const double reserved = result(smem, "smem_reserved_per_block_kb");
    const double by_threads = result(smem, "max_threads_per_sm") / 256;
    // Each block takes its shared memory plus the reserved part; the SM's thread
    // limit caps the count. (At 113 KiB and above the probe's own few bytes of
    // static shared memory and the allocation's granularity count too, so the
    // model is checked where they do not matter.)
    for (const int kb : {0, 32, 64, 100}) {
        INFO(kb << " KiB per block");
        const double model =
            std::min(by_threads, static_cast<double>(static_cast<int>(per_sm / (kb + reserved))));
        CHECK(result(smem, "predicted_blocks_smem" + std::to_string(kb) + "k") == model);
        CHECK(result(smem, "measured_blocks_smem" + std::to_string(kb) + "k") == model);
    }
    // The number the answer quotes (the table's default carve-out) is the model's,
    // and at 32 KiB shared memory is the limit, not threads.
    CHECK(result(smem, "blocks_smem32k_carveout_default") ==
          static_cast<double>(static_cast<int>(per_sm / (32 + reserved))));
    CHECK(result(smem, "blocks_smem32k_carveout_default") < by_threads);
    CHECK(result(smem, "blocks_smem0k_carveout_default") == by_threads);
    // The answer's shared memory per block (answers.json) is the question's, and
    // the count it quotes is the model's for it.
    const double kb = answer("ch02-smem-occupancy", "smem_kb");
    CHECK(kb == 32);
    CHECK(result(smem, "predicted_blocks_smem" + std::to_string(static_cast<int>(kb)) + "k") ==
          result(smem, "blocks_smem32k_carveout_default"));
    CHECK(result(smem, "blocks_smem32k_carveout_default") ==
          static_cast<double>(static_cast<int>(per_sm / (kb + reserved))));
}

// ---- several steps per trip (temporal.cu) -------------------------------------------------

TEST_CASE("K steps need a halo of K step-halos, and redundant work",
          "[ch02][cy:ch02-temporal-halo]") {
    const auto run = record("temporal-steps");
    const auto a = [](const char* name) { return answer("ch02-temporal-halo", name); };
    // The question's kernel is the program's: its K = 4 row, at the shape it reports.
    const int threads = static_cast<int>(result(run, "temporal_threads"));
    const int per_thread = static_cast<int>(result(run, "temporal_chunks_per_thread"));
    CHECK(threads == 256);
    CHECK(per_thread == 2);
    const int radius = static_cast<int>(a("radius"));
    const int steps = static_cast<int>(a("steps"));
    CHECK(radius == static_cast<int>(result(run, "radius")));
    const int chunks = per_thread * threads;
    const ch02::temporal_layout tl(radius, steps, chunks);
    CHECK(a("step_halo") == ch02::halo_pad(radius));
    CHECK(a("step_halo") == ch02::kVec * tl.P1);
    CHECK(a("halo_floats") == ch02::kVec * tl.P);
    CHECK(a("halo_floats") == a("steps") * a("step_halo"));
    CHECK(a("own_floats") == ch02::kVec * chunks);
    CHECK(a("last_smem_step") == steps - 1);  // the last step writes global memory
    // The redundant work, by a model of the tile slot by slot that knows nothing of
    // the program's count. Slot q (from -lead, the buffer's first, on) is at index
    // q + lead. Backwards from the last step: it reads the slots within P1 of the
    // block's own, so step K-1 must have computed those, step K-2 one step-halo
    // more on each side, and so on: the least a block can compute.
    const int slots = chunks + 2 * tl.P, lead = tl.lead, span = lead + slots;
    const auto at = [&](int q) { return static_cast<std::size_t>(q + lead); };
    std::vector<std::vector<bool>> needed(steps, std::vector<bool>(span, false));
    for (int q = tl.P; q < tl.P + chunks; ++q) needed[steps - 1][at(q)] = true;  // the last step
    for (int s = steps - 1; s >= 1; --s)
        for (int q = -lead; q < slots; ++q)
            if (needed[s][at(q)])
                for (int c = -tl.P1; c <= tl.P1; ++c) needed[s - 1][at(q + c)] = true;
    long long least = chunks;  // slots computed over steps 1 .. K, at the least
    for (int s = 1; s < steps; ++s)
        least += std::count(needed[s - 1].begin(), needed[s - 1].end(), true);
    const double min_extra = static_cast<double>(least) / (static_cast<double>(steps) * chunks) - 1;
    CHECK(a("min_extra") == Approx(min_extra).epsilon(1e-9));
    // Forwards, the program's steps 1 .. K-1 by its loop: which slots hold right
    // values after each step (a slot is right if its whole window was; the loaded
    // tile is [0, slots)), and how many it computes that no later step needs.
    std::vector<bool> valid(span, false);
    for (int q = 0; q < slots; ++q) valid[at(q)] = true;
    long long computed = chunks, feeds_nothing = 0;
    for (int s = 1; s < steps; ++s) {
        std::vector<bool> next(span, false);
        for (int q = tl.first_step_slot; q < slots - tl.P1; ++q) {
            ++computed;
            bool ok = q - tl.P1 >= -lead;
            for (int c = -tl.P1; ok && c <= tl.P1; ++c) ok = valid[at(q + c)];
            next[at(q)] = ok;
            if (!needed[s - 1][at(q)]) ++feeds_nothing;
        }
        valid = next;
    }
    for (int q = tl.P - tl.P1; q < tl.P + chunks + tl.P1; ++q) {
        INFO("slot " << q << ", read by the last step");
        CHECK(valid[at(q)]);  // what the program computes covers what the last step reads
    }
    CHECK(feeds_nothing > 0);  // the answer's claim: some computed slots feed nothing
    // The program's own count of its redundant work is the slots the model saw it
    // compute, and more than the least.
    const double extra = result(run, "temporal_k4_extra_work");
    CHECK(extra == Approx(static_cast<double>(computed) / (static_cast<double>(steps) * chunks) - 1)
                       .epsilon(1e-9));
    CHECK(extra > min_extra);
    // Two buffers of the layout's stride, in float4s.
    CHECK(result(run, "temporal_k4_smem_bytes") == 2.0 * 16 * tl.stride);
    // Every step's first slot puts a warp's stores on a 128-byte row, in both buffers.
    for (int k = 1; k <= 8; ++k) {
        const ch02::temporal_layout l(radius, k, chunks);
        INFO("K = " << k);
        CHECK((l.lead + l.first_step_slot) % 8 == 0);
        CHECK((l.lead + l.P) % 8 == 0);
        CHECK(l.stride % 8 == 0);
        CHECK(l.first_step_slot <= l.P1);            // covers the region valid after step 1
        CHECK(l.first_step_slot - l.P1 >= -l.lead);  // its reads stay in the buffer
        CHECK(l.lead + chunks + 2 * l.P <= l.stride);
    }
}

TEST_CASE("past K = 4 shared memory, not DRAM, sets the time of a step",
          "[ch02][cy:ch02-temporal-limit]") {
    const auto run = record("temporal-steps");
    const auto a = [](const char* name) { return answer("ch02-temporal-limit", name); };
    // Per four outputs and step: the window of 2 P1 + 1 float4s, one float4 stored.
    const ch02::temporal_layout tl(3, 8, 512);
    CHECK(a("shared_loads") == 2 * tl.P1 + 1);
    CHECK(a("shared_stores") == 1);
    CHECK(a("outputs") == ch02::kVec);  // one float4 of outputs
    // The two K the answer compares are the record's temporal_k4 and temporal_k8.
    CHECK(a("k_low") == 4);
    CHECK(a("k_high") == 2 * a("k_low"));  // "halves the DRAM traffic per step"
    // K = 8 reads what one step reads from DRAM, DRAM is mostly idle and the
    // shared-memory pipe mostly busy.
    CHECK(check_value(run, "ncu-same-dram-bytes") == Approx(1.0).margin(0.03));
    const std::string pipe =
        "l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed";
    const std::string dram = "dram__throughput.avg.pct_of_peak_sustained_elapsed";
    CHECK(result(run, "ncu:k8:" + pipe) >= 1.5 * result(run, "ncu:k8:" + dram));
    CHECK(result(run, "ncu:k8:" + dram) <= 0.65 * result(run, "ncu:k1:" + dram));
    CHECK(result(run, "ncu:k8:" + pipe) > result(run, "ncu:k1:" + pipe));
    CHECK(result(run, "ncu:k8:" + dram) < result(run, "ncu:k1:" + dram));
    // Half the traffic per step, much less than half the time.
    CHECK(result(run, "temporal_k8_step_over_one_step") >
          0.5 * result(run, "temporal_k4_step_over_one_step"));
}
