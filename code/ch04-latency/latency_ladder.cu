// latency_ladder: how long one instruction's result takes, from an FP32 add to
// a load from device memory, in SM clock cycles and in nanoseconds.
//
// Each figure is a dependent chain run by one thread (one warp for the
// shuffle): every instruction needs the last one's result, so the time per
// instruction is its latency, nothing overlapped. The chains are timed with
// clock64 (SM cycles) and converted to nanoseconds with the SM clock this run
// measures (clock64 against globaltimer while one thread spins).
//
//   arithmetic: FP32 add, FP32 fused multiply-add, FP64 fused multiply-add,
//               32-bit integer multiply, a warp shuffle;
//   memory:     a shared-memory load, a global load that hits L1, one that
//               hits L2, one that goes to device memory (a cold walk of a
//               random chain, L2 flushed); the same cold walk as the chain's
//               lines spread over a growing footprint (8 MiB up to 32 GiB):
//               the address translation's (TLB's) share; and a warm walk (the
//               footprint read just before) over 1 MiB to 512 MiB: the L2's
//               capacity.
//
// Every chain's end value is checked against the host's (results:
// mismatches).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "book/cuda.hpp"
#include "chase.hpp"
#include "device_clock.cuh"

namespace ch04 {

constexpr int kUnroll = 128;      // chain steps per loop round
constexpr int kShflUnroll = 127;  // odd, so the rotation's end is no multiple of 32
constexpr int kSmemWords = 1024;  // the shared-memory chain: 1024 words, 4 KiB

// [listing:chain-fma]
// One thread, one chain: each fma needs the result of the one before.
__global__ void chain_fma(float x, float a, float b, int rounds, float* out, long long* cycles) {
    const long long c0 = sm_cycles();
    for (int r = 0; r < rounds; ++r) {
#pragma unroll
        for (int u = 0; u < kUnroll; ++u)
            asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x) : "f"(a), "f"(b));
    }
    *out = x;  // waits for the last fma
    *cycles = sm_cycles() - c0;
}
// [/listing:chain-fma]

__global__ void chain_fadd(float x, float a, float, int rounds, float* out, long long* cycles) {
    const long long c0 = sm_cycles();
    for (int r = 0; r < rounds; ++r) {
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) asm volatile("add.f32 %0, %0, %1;" : "+f"(x) : "f"(a));
    }
    *out = x;
    *cycles = sm_cycles() - c0;
}

__global__ void chain_dfma(double x, double a, double b, int rounds, double* out,
                           long long* cycles) {
    const long long c0 = sm_cycles();
    for (int r = 0; r < rounds; ++r) {
#pragma unroll
        for (int u = 0; u < kUnroll; ++u)
            asm volatile("fma.rn.f64 %0, %0, %1, %2;" : "+d"(x) : "d"(a), "d"(b));
    }
    *out = x;
    *cycles = sm_cycles() - c0;
}

__global__ void chain_imul(unsigned x, unsigned a, unsigned, int rounds, unsigned* out,
                           long long* cycles) {
    const long long c0 = sm_cycles();
    for (int r = 0; r < rounds; ++r) {
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) asm volatile("mul.lo.u32 %0, %0, %1;" : "+r"(x) : "r"(a));
    }
    *out = x;
    *cycles = sm_cycles() - c0;
}

// One warp: each lane takes the value of the lane after it, again and again.
__global__ void chain_shfl(unsigned seed, int rounds, unsigned* out, long long* cycles) {
    const unsigned lane = threadIdx.x;
    const int src = static_cast<int>((lane + 1) & 31u);
    unsigned x = lane * 7u + seed;
    const long long c0 = sm_cycles();
    for (int r = 0; r < rounds; ++r) {
#pragma unroll
        for (int u = 0; u < kShflUnroll; ++u) x = __shfl_sync(0xffffffffu, x, src);
    }
    out[lane] = x;
    const long long c1 = sm_cycles();
    if (lane == 0) *cycles = c1 - c0;
}

// One thread chases a cycle through shared memory: each word holds the
// shared-memory address of the next.
__global__ void chase_smem(const unsigned* next, long steps, unsigned* out, long long* cycles) {
    __shared__ unsigned s[kSmemWords];
    const auto base = static_cast<unsigned>(__cvta_generic_to_shared(s));
    for (int i = 0; i < kSmemWords; ++i) s[i] = base + 4u * next[i];
    unsigned a = base;  // start at word 0
    const long long c0 = sm_cycles();
    for (long i = 0; i < steps; ++i) asm volatile("ld.shared.u32 %0, [%0];" : "+r"(a)::"memory");
    *out = (a - base) / 4u;
    *cycles = sm_cycles() - c0;
}

namespace {

// A footprint as a result name's part: "8mib", or "16kib" below 1 MiB.
std::string size_name(std::size_t bytes) {
    return bytes >= (std::size_t{1} << 20) ? std::to_string(bytes >> 20) + "mib"
                                           : std::to_string(bytes >> 10) + "kib";
}

struct arith_result {
    double cycles;  // per instruction, median of the launches
    long bad;       // launches whose end value differs from the host's
};

// Launch a chain kernel `launches` times; each end value against the host's.
template <class T, class Kernel, class Host>
arith_result time_chain(Kernel kernel, T x, T a, T b, int rounds, int launches, Host host) {
    book::device_buffer<T> out(1);
    book::device_buffer<long long> cycles(1);
    T expected = x;
    for (long i = 0; i < static_cast<long>(rounds) * kUnroll; ++i) expected = host(expected, a, b);
    std::vector<double> per;
    long bad = 0;
    for (int k = 0; k < launches; ++k) {
        kernel<<<1, 1>>>(x, a, b, rounds, out.data(), cycles.data());
        BOOK_CHECK_LAUNCH();
        const T got = out.to_host()[0];
        if (!(got == expected)) ++bad;
        per.push_back(static_cast<double>(cycles.to_host()[0]) / (double(rounds) * kUnroll));
    }
    return {median(per), bad};
}

arith_result time_shfl(int rounds, int launches) {
    book::device_buffer<unsigned> out(32);
    book::device_buffer<long long> cycles(1);
    const unsigned seed = 12345u;
    const long steps = static_cast<long>(rounds) * kShflUnroll;
    std::vector<double> per;
    long bad = 0;
    for (int k = 0; k < launches; ++k) {
        chain_shfl<<<1, 32>>>(seed, rounds, out.data(), cycles.data());
        BOOK_CHECK_LAUNCH();
        const std::vector<unsigned> got = out.to_host();
        for (unsigned lane = 0; lane < 32; ++lane)
            if (got[lane] != static_cast<unsigned>((lane + steps) % 32) * 7u + seed) {
                ++bad;
                break;
            }
        per.push_back(static_cast<double>(cycles.to_host()[0]) / static_cast<double>(steps));
    }
    return {median(per), bad};
}

arith_result time_smem(long steps, int launches) {
    // A random cycle through all 1024 words (Sattolo's algorithm: one cycle).
    std::vector<unsigned> perm(kSmemWords), next(kSmemWords);
    for (int i = 0; i < kSmemWords; ++i) perm[i] = static_cast<unsigned>(i);
    for (int i = kSmemWords - 1; i > 0; --i)
        std::swap(perm[i], perm[book::random_u32(99, static_cast<std::uint64_t>(i)) % i]);
    for (int i = 0; i < kSmemWords; ++i) next[i] = perm[i];  // word i holds its successor
    unsigned expected = 0;
    for (long i = 0; i < steps; ++i) expected = next[expected];
    book::device_buffer<unsigned> d_next(kSmemWords), out(1);
    d_next.from_host(next);
    book::device_buffer<long long> cycles(1);
    std::vector<double> per;
    long bad = 0;
    for (int k = 0; k < launches; ++k) {
        chase_smem<<<1, 1>>>(d_next.data(), steps, out.data(), cycles.data());
        BOOK_CHECK_LAUNCH();
        if (out.to_host()[0] != expected) ++bad;
        per.push_back(static_cast<double>(cycles.to_host()[0]) / static_cast<double>(steps));
    }
    return {median(per), bad};
}

int run(int argc, char** argv) {
    book::options opts("Latency of dependent chains, FP32 add to device memory, and the TLB");
    bool quick = false;
    opts.flag("--quick", quick, "small sizes, for compute-sanitizer");
    if (const auto status = opts.parse(argc, argv)) return *status;

    const int rounds = quick ? 2 : 63;   // 63 x 128 = 8064 dependent instructions
    const int launches = quick ? 1 : 5;  // the median of these is each figure
    const long mem_steps = quick ? 64 : 8192;
    const std::size_t sweep_lines = quick ? 64 : 32768;
    const int sms = book::sm_count();
    // The clock the device reports as its peak (kHz); asked without throwing,
    // since CUDA 13 keeps it only as an attribute (0 where a driver lacks it).
    int device = 0, peak_khz = 0;
    BOOK_CUDA_CHECK(cudaGetDevice(&device));
    if (cudaDeviceGetAttribute(&peak_khz, cudaDevAttrClockRate, device) != cudaSuccess) {
        (void)cudaGetLastError();
        peak_khz = 0;
    }
    const double peak_mhz = peak_khz / 1e3;

    // The clock: spin a while first (an idle GPU runs slow), then measure it
    // before and after the chains.
    measure_sm_clock_mhz(quick ? 1.0 : 200.0);
    const double mhz_before = measure_sm_clock_mhz(quick ? 1.0 : 20.0);

    long bad = 0;
    auto note = [&](const arith_result& r) {
        bad += r.bad;
        return r.cycles;
    };
    const double fadd = note(time_chain<float>(chain_fadd, 0.0f, 1.0f, 0.0f, rounds, launches,
                                               [](float x, float a, float) { return x + a; }));
    const double fma =
        note(time_chain<float>(chain_fma, 1.0f, 0.999f, 0.25f, rounds, launches,
                               [](float x, float a, float b) { return std::fma(x, a, b); }));
    const double dfma =
        note(time_chain<double>(chain_dfma, 1.0, 0.999, 0.25, rounds, launches,
                                [](double x, double a, double b) { return std::fma(x, a, b); }));
    const double imul =
        note(time_chain<unsigned>(chain_imul, 3u, 0x2545F491u, 0u, rounds, launches,
                                  [](unsigned x, unsigned a, unsigned) { return x * a; }));
    const double shfl = note(time_shfl(rounds, launches));
    const double smem = note(time_smem(mem_steps, launches));

    // The global-memory chains share one 2 MiB region in one large page.
    aligned_region small(std::size_t{2} << 20);
    l2_flusher flusher(quick ? (std::size_t{1} << 20) : 4 * book::l2_cache_bytes());
    long bad_walks = 0;
    auto walked = [&](const chase_timing& t) {
        if (!t.end_ok) ++bad_walks;
        return t;
    };
    // L1: 64 lines in 16 KiB, walked once to bring them in, then timed.
    const chain l1_chain(small.region(), 16 << 10, 64, 41);
    const chase_timing l1 = walked(l1_chain.walk(chase_path::l1, 64, mem_steps, launches));
    // L2 and device memory: 8192 lines in 2 MiB (one large page, so one
    // translation), bypassing L1. Warm: one walk first brings every line
    // into L2. Cold: L2 flushed before the walk, every load goes to memory.
    const std::size_t lines = quick ? 64 : 8192;
    const chain page_chain(small.region(), std::size_t{2} << 20, lines, 43);
    const chase_timing l2 =
        walked(page_chain.walk(chase_path::l2, static_cast<long>(lines), mem_steps, launches));
    const chase_timing hbm =
        walked(page_chain.walk(chase_path::l2, 0, mem_steps, launches, &flusher));

    // The footprint sweep: the same cold walk, 32768 lines spread over 8 MiB
    // to 32 GiB (at most half the free memory). Each line is visited once, so
    // every load misses L2; what grows is how many large pages the walk
    // touches, and so how often its address misses the TLBs.
    std::size_t free_bytes = 0, total_bytes = 0;
    BOOK_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    const std::size_t smallest = sweep_lines * kLineBytes;  // 8 MiB (quick: 16 KiB)
    std::size_t largest = quick ? 4 * smallest : std::size_t{32} << 30;
    while (largest > smallest && largest > free_bytes / 2) largest /= 2;
    std::vector<std::size_t> footprints;
    std::vector<double> sweep_cycles;
    {
        aligned_region big(largest);
        for (std::size_t f = smallest; f <= largest; f *= 2) {
            const chain c(big.region(), f, sweep_lines, 1000 + footprints.size());
            const chase_timing t = walked(
                c.walk(chase_path::l2, 0, static_cast<long>(sweep_lines), quick ? 1 : 3, &flusher));
            footprints.push_back(f);
            sweep_cycles.push_back(t.cycles_per_step);
        }
    }
    // The L2's capacity: walks of the same kind over 1 MiB to 512 MiB, warm
    // this time: before each walk a kernel reads the whole footprint, which
    // leaves in L2 what fits of it. Below the L2's size every load hits L2;
    // far above it nearly every load goes to memory.
    std::vector<std::size_t> warm_footprints;
    std::vector<double> warm_cycles;
    {
        const std::size_t warm_smallest = quick ? (std::size_t{16} << 10) : std::size_t{1} << 20;
        const std::size_t warm_largest = quick ? 4 * warm_smallest : std::size_t{512} << 20;
        aligned_region warm(warm_largest);
        BOOK_CUDA_CHECK(cudaMemset(warm.region(), 0, warm_largest));  // read whole, below
        for (std::size_t f = warm_smallest; f <= warm_largest; f *= 2) {
            const std::size_t n = std::min(sweep_lines, f / kLineBytes);
            const chain c(warm.region(), f, n, 2000 + warm_footprints.size());
            std::vector<double> per;
            for (int r = 0; r < (quick ? 1 : 3); ++r) {
                read_through(warm.region(), f);
                per.push_back(walked(c.walk(chase_path::l2, 0, static_cast<long>(sweep_lines), 1))
                                  .cycles_per_step);
            }
            warm_footprints.push_back(f);
            warm_cycles.push_back(median(per));
        }
    }
    measure_sm_clock_mhz(quick ? 1.0 : 100.0);  // the clock up again after the allocations
    const double mhz_after = measure_sm_clock_mhz(quick ? 1.0 : 20.0);
    const double mhz = 0.5 * (mhz_before + mhz_after);
    auto ns = [&](double cycles) { return cycles / mhz * 1e3; };

    struct row {
        const char* key;
        const char* what;
        double cycles;
    };
    const row rows[] = {
        {"fadd", "FP32 add (FADD)", fadd},
        {"fma", "FP32 fused multiply-add (FFMA)", fma},
        {"dfma", "FP64 fused multiply-add (DFMA)", dfma},
        {"imul", "32-bit integer multiply (IMAD)", imul},
        {"shfl", "warp shuffle (SHFL)", shfl},
        {"smem", "shared-memory load (LDS)", smem},
        {"l1", "global load, L1 hit", l1.cycles_per_step},
        {"l2", "global load, L2 hit", l2.cycles_per_step},
        {"hbm", "global load, device memory", hbm.cycles_per_step},
    };
    for (const row& r : rows) {
        book::report(std::string("lat_") + r.key + "_cycles", r.cycles, "cycles");
        book::report(std::string("lat_") + r.key + "_ns", ns(r.cycles), "ns");
    }
    book::report("lat_l2_timer_ns", l2.ns_per_step, "ns");
    book::report("lat_hbm_timer_ns", hbm.ns_per_step, "ns");
    book::report("hbm_timer_over_clock", hbm.ns_per_step / ns(hbm.cycles_per_step), "ratio");
    book::report("sm_clock_mhz", mhz, "MHz");
    book::report("sm_clock_before_mhz", mhz_before, "MHz");
    book::report("sm_clock_after_mhz", mhz_after, "MHz");
    book::report("sm_clock_after_over_before", mhz_after / mhz_before, "ratio");
    if (peak_mhz > 0) {
        book::report("sm_clock_peak_mhz", peak_mhz, "MHz");
        book::report("sm_clock_of_peak", mhz / peak_mhz, "fraction");
    }
    book::report("l1_over_smem", l1.cycles_per_step / smem, "ratio");
    book::report("l2_over_l1", l2.cycles_per_step / l1.cycles_per_step, "ratio");
    book::report("hbm_over_l2", hbm.cycles_per_step / l2.cycles_per_step, "ratio");
    book::report("smem_over_fma", smem / fma, "ratio");
    for (std::size_t i = 0; i < footprints.size(); ++i) {
        const std::string f = size_name(footprints[i]);
        book::report("chase_" + f + "_ns", ns(sweep_cycles[i]), "ns");
        book::report("chase_" + f + "_over_hbm", sweep_cycles[i] / hbm.cycles_per_step, "ratio");
    }
    for (std::size_t i = 0; i < warm_footprints.size(); ++i) {
        const std::string f = size_name(warm_footprints[i]);
        book::report("warm_" + f + "_ns", ns(warm_cycles[i]), "ns");
        book::report("warm_" + f + "_over_l2", warm_cycles[i] / l2.cycles_per_step, "ratio");
    }
    book::report("warm_smallest_over_l2", warm_cycles.front() / l2.cycles_per_step, "ratio");
    book::report("warm_largest_over_l2", warm_cycles.back() / l2.cycles_per_step, "ratio");
    book::report("warm_largest_over_hbm", warm_cycles.back() / hbm.cycles_per_step, "ratio");
    book::report("chase_smallest_over_hbm", sweep_cycles.front() / hbm.cycles_per_step, "ratio");
    book::report("chase_largest_over_smallest", sweep_cycles.back() / sweep_cycles.front(),
                 "ratio");
    book::report("chase_largest_mib", static_cast<double>(footprints.back()) / (1 << 20), "MiB");
    book::report("mismatches", static_cast<double>(bad), "count");
    book::report("bad_walks", static_cast<double>(bad_walks), "count");
    book::report("sms", sms, "SMs");

    std::printf(
        "\nSM clock %.0f MHz (measured: %.0f before the chains, %.0f after; "
        "peak %.0f)\n",
        mhz, mhz_before, mhz_after, peak_mhz);
    std::printf("\n%-32s %9s %9s\n", "one dependent step", "cycles", "ns");
    for (const row& r : rows) std::printf("%-32s %9.1f %9.1f\n", r.what, r.cycles, ns(r.cycles));
    std::printf("(globaltimer: L2 hit %.1f ns, device memory %.1f ns)\n", l2.ns_per_step,
                hbm.ns_per_step);
    std::printf("\ncold walk of %zu lines, one per segment of the footprint\n", sweep_lines);
    std::printf("%12s %9s %9s %12s\n", "footprint", "cycles", "ns", "x 2 MiB walk");
    for (std::size_t i = 0; i < footprints.size(); ++i)
        std::printf("%12s %9.1f %9.1f %12.3f\n", size_name(footprints[i]).c_str(), sweep_cycles[i],
                    ns(sweep_cycles[i]), sweep_cycles[i] / hbm.cycles_per_step);
    std::printf("\nwarm walk (the footprint read just before) of up to %zu lines\n", sweep_lines);
    std::printf("%12s %9s %9s %12s\n", "footprint", "cycles", "ns", "x L2 hit");
    for (std::size_t i = 0; i < warm_footprints.size(); ++i)
        std::printf("%12s %9.1f %9.1f %12.3f\n", size_name(warm_footprints[i]).c_str(),
                    warm_cycles[i], ns(warm_cycles[i]), warm_cycles[i] / l2.cycles_per_step);
    std::printf("\nchains whose end differs from the host's: %ld; walks: %ld\n", bad, bad_walks);
    return 0;
}

}  // namespace

}  // namespace ch04

int main(int argc, char** argv) { return book::gpu_main(argc, argv, ch04::run); }
