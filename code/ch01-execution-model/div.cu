// div: what does it cost when the lanes of one warp take different paths?
//
// One kernel, two ways to pick the path. per_warp=1 splits every warp by lane
// parity (divergent); per_warp=0 splits by block parity (every warp uniform).
// Both do the same work per thread. The default run times both over grids of
// 1 to 32 "waves" (a wave fills every SM once) with CUDA events, warm-up,
// fresh non-zero input per launch and medians. --first-launch first repeats
// the measurement of a widely copied version of this program (one
// std::chrono-timed first launch per mode) to show what it gets wrong.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "book/cuda.hpp"

// [listing:diverge-kernel]
// Each thread runs one of two loops on its own value. Path A: x = 3x + 1.
// Path B: x = (x xor x/8) + 7. Odd lanes (per_warp=1) or odd blocks
// (per_warp=0) take path A; the others take path B.
__global__ void diverge(unsigned* d, int iters, int per_warp, unsigned* sm_of_block) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned chooser = per_warp ? threadIdx.x : blockIdx.x;
    unsigned x = d[i];
    if (chooser & 1u) {
        for (int k = 0; k < iters; ++k) x = x * 3u + 1u;
    } else {
        for (int k = 0; k < iters; ++k) x = (x ^ (x >> 3)) + 7u;
    }
    d[i] = x;
    // [/listing:diverge-kernel]
    // [listing:placement]
    // Asked for, thread 0 of each block records the SM it ran on (%smid).
    if (sm_of_block != nullptr && threadIdx.x == 0) {
        unsigned sm;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
        sm_of_block[blockIdx.x] = sm;
    }
    // [/listing:placement]
    // [listing:diverge-end]
}
// [/listing:diverge-end]

namespace {

constexpr int kThreads = 256;
constexpr std::uint64_t kSeed = 20240601;

struct Pair {
    book::timing_stats uniform, divergent;
};

// Time both modes on a grid of `blocks` blocks; every launch reads its own
// freshly filled array, and the arrays together are twice the L2 or more.
Pair time_both(int blocks, int iters, const book::repeat_counts& repeats) {
    const std::size_t n = static_cast<std::size_t>(blocks) * kThreads;
    book::rotating_buffers<unsigned> input(n,
                                           static_cast<std::size_t>(repeats.warmup + repeats.reps));
    Pair out{};
    for (int per_warp = 0; per_warp < 2; ++per_warp) {
        // [listing:timing]
        book::fill_random_u32(input.all(), input.total(), kSeed + per_warp);
        input.rewind();
        const book::timing_stats t = book::time_launches(
            [&] { diverge<<<blocks, kThreads>>>(input.next(), iters, per_warp, nullptr); },
            repeats);
        // [/listing:timing]
        (per_warp ? out.divergent : out.uniform) = t;
    }
    return out;
}

// Launch one wave of `diverge` once in each mode, recording which SM ran each
// block, and count the SMs whose blocks all have the same parity (so that, in
// the uniform mode, each of them runs one path only).
void report_placement(int wave_blocks, int sms, int iters) {
    const std::size_t n = static_cast<std::size_t>(wave_blocks) * kThreads;
    book::device_buffer<unsigned> data(n), sm_of_block(static_cast<std::size_t>(wave_blocks));
    for (int per_warp = 0; per_warp < 2; ++per_warp) {
        const char* mode = per_warp ? "divergent" : "uniform";
        book::fill_random_u32(data.data(), n, kSeed + 200 + per_warp);
        diverge<<<wave_blocks, kThreads>>>(data.data(), iters, per_warp, sm_of_block.data());
        BOOK_CHECK_LAUNCH();
        const std::vector<unsigned> sm_of = sm_of_block.to_host();
        std::vector<int> odd(sms, 0), all(sms, 0);
        for (int b = 0; b < wave_blocks; ++b) {
            const unsigned sm = sm_of[b];
            if (sm >= static_cast<unsigned>(sms)) throw std::runtime_error("%smid out of range");
            ++all[sm];
            odd[sm] += b & 1;
        }
        int used = 0, pure_even = 0, pure_odd = 0, most = 0;
        for (int s = 0; s < sms; ++s) {
            if (all[s] == 0) continue;
            ++used;
            pure_even += odd[s] == 0 ? 1 : 0;
            pure_odd += odd[s] == all[s] ? 1 : 0;
            most = std::max(most, all[s]);
        }
        const std::string tag = per_warp ? "_divergent" : "";
        book::report("placement_sms_used" + tag, used, "SMs");
        book::report("placement_pure_sms" + tag, pure_even + pure_odd, "SMs");
        book::report("placement_pure_even_sms" + tag, pure_even, "SMs");
        book::report("placement_pure_odd_sms" + tag, pure_odd, "SMs");
        book::report("placement_max_blocks_per_sm" + tag, most, "blocks");
        std::printf(
            "%s launch, one wave: %d SMs used, at most %d blocks each;\n"
            "  %d hold even blocks only, %d odd blocks only\n",
            mode, used, most, pure_even, pure_odd);
    }
}

unsigned reference(unsigned x, bool path_a, int iters) {
    for (int k = 0; k < iters; ++k) x = path_a ? x * 3u + 1u : (x ^ (x >> 3)) + 7u;
    return x;
}

// Run both modes once on known input and compare a sample of the outputs
// (every 97th element, the first and the last) with the CPU.
long count_mismatches(int blocks, int iters) {
    const std::size_t n = static_cast<std::size_t>(blocks) * kThreads;
    book::device_buffer<unsigned> d(n);
    long bad = 0;
    for (int per_warp = 0; per_warp < 2; ++per_warp) {
        const std::uint64_t seed = kSeed + 100 + per_warp;
        book::fill_random_u32(d.data(), n, seed);
        diverge<<<blocks, kThreads>>>(d.data(), iters, per_warp, nullptr);
        BOOK_CHECK_LAUNCH();
        bad += book::count_mismatches(d.to_host(), book::sampled_indices(n), [&](std::size_t i) {
            const std::size_t thread = i % kThreads, block = i / kThreads;
            const bool path_a = ((per_warp ? thread : block) & 1u) != 0;
            return reference(book::random_u32(seed, i), path_a, iters);
        });
    }
    return bad;
}

// The widely copied measurement, kept as it was: zeroed input, std::chrono around
// launch + synchronize, first launch of the kernel timed. Must run before
// anything else launches `diverge`, so that loading the kernel (lazy by
// default since CUDA 12.2) lands inside the first timed launch, as it did there.
void first_launch_method(int iters, const book::repeat_counts& repeats) {
    const int blocks = 1024;
    book::device_buffer<unsigned> d(static_cast<std::size_t>(blocks) * kThreads);
    BOOK_CUDA_CHECK(cudaMemset(d.data(), 0, d.bytes()));
    double ms[3] = {};
    // [listing:first-launch]
    for (int launch = 0; launch < 3; ++launch) {  // modes 0, 1, then 0 again
        const int per_warp = launch == 1 ? 1 : 0;
        const auto t0 = std::chrono::steady_clock::now();
        diverge<<<blocks, kThreads>>>(d.data(), iters, per_warp, nullptr);
        BOOK_CHECK_LAUNCH();
        BOOK_CUDA_CHECK(cudaDeviceSynchronize());
        ms[launch] =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count();
    }
    // [/listing:first-launch]
    const char* loading = std::getenv("CUDA_MODULE_LOADING");
    book::report_text("cuda_module_loading", loading ? loading : "unset (lazy by default)");
    book::report("first_launch_blocks", blocks, "blocks");
    book::report("first_launch_ms_uniform", ms[0], "ms");
    book::report("first_launch_ms_divergent", ms[1], "ms");
    book::report("first_launch_ms_uniform_again", ms[2], "ms");

    const Pair right = time_both(blocks, iters, repeats);
    book::report_timing("right_uniform", right.uniform);
    book::report_timing("right_divergent", right.divergent);
    const double ratio = right.divergent.median_ms / right.uniform.median_ms;
    book::report("right_ratio", ratio, "ratio");

    // How much of one host-timed launch is launch and synchronisation, not the kernel.
    const double overhead = ms[2] - right.uniform.median_ms;
    book::report("host_overhead_ms", overhead, "ms");
    book::report("host_overhead_fraction", overhead / ms[2], "fraction");

    std::printf("\n%d blocks x %d threads, %d iterations\n", blocks, kThreads, iters);
    std::printf("CUDA_MODULE_LOADING=%s\n", loading ? loading : "unset (lazy by default)");
    std::printf("\nthe widely copied method: first launch, host clock\n");
    std::printf("  uniform    %8.3f ms\n", ms[0]);
    std::printf("  divergent  %8.3f ms\n", ms[1]);
    std::printf("  uniform    %8.3f ms  (the same launch once more)\n", ms[2]);
    std::printf("\nwarm-up, CUDA events, median of %d\n", repeats.reps);
    std::printf("  uniform    %8.4f ms\n", right.uniform.median_ms);
    std::printf("  divergent  %8.4f ms\n", right.divergent.median_ms);
    std::printf("  ratio      %8.2f\n", ratio);
}

// Least squares fit of y = t0 + slope * x.
void fit_line(const std::vector<double>& x, const std::vector<double>& y, double& t0,
              double& slope) {
    const double n = static_cast<double>(x.size());
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        sx += x[i];
        sy += y[i];
        sxx += x[i] * x[i];
        sxy += x[i] * y[i];
    }
    slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
    t0 = (sy - slope * sx) / n;
}

int run(int argc, char** argv) {
    book::options opts("Time a branch that splits every warp against one that splits none");
    bool first_launch = false, profile = false, quick = false;
    opts.flag("--first-launch", first_launch,
              "time first launches with a host clock, then do it right");
    opts.flag("--profile", profile, "each mode once at 1 and at 32 waves (for ncu)");
    opts.flag("--quick", quick, "small sizes, for compute-sanitizer");
    if (const auto status = opts.parse(argc, argv)) return *status;
    const int iters = quick ? 20 : 2000;
    const book::repeat_counts repeats = book::repeats_for(quick);

    if (first_launch) {  // first, before anything else loads the kernel
        first_launch_method(iters, repeats);
        return 0;
    }

    const int blocks_per_sm = book::blocks_per_sm(diverge, kThreads);
    const int sms = book::sm_count();
    const int wave_blocks = quick ? 4 : blocks_per_sm * sms;

    if (profile) {  // for Nsight Compute: each mode at one wave, then at 32 waves
        for (int w : {1, 32}) {
            const std::size_t n = static_cast<std::size_t>(w) * wave_blocks * kThreads;
            book::device_buffer<unsigned> a(n), b(n);
            book::fill_random_u32(a.data(), n, kSeed);
            book::fill_random_u32(b.data(), n, kSeed + 1);
            diverge<<<w * wave_blocks, kThreads>>>(a.data(), iters, 0, nullptr);
            BOOK_CHECK_LAUNCH();
            diverge<<<w * wave_blocks, kThreads>>>(b.data(), iters, 1, nullptr);
            BOOK_CHECK_LAUNCH();
            BOOK_CUDA_CHECK(cudaDeviceSynchronize());
            std::printf("profiled %d wave(s), %d blocks: uniform, then divergent\n", w,
                        w * wave_blocks);
        }
        return 0;
    }

    if (!quick) report_placement(wave_blocks, sms, iters);
    const long bad = count_mismatches(wave_blocks, iters);
    book::report("mismatches", static_cast<double>(bad), "count");
    book::report("blocks_per_sm", blocks_per_sm, "blocks");
    book::report("wave_blocks", wave_blocks, "blocks");
    book::report("threads_per_block", kThreads, "threads");
    book::report("iters", iters, "count");

    const std::vector<int> waves =
        quick ? std::vector<int>{1, 2} : std::vector<int>{1, 2, 4, 8, 16, 32};
    {  // bring the clocks up before the first timed configuration
        book::device_buffer<unsigned> spin(static_cast<std::size_t>(wave_blocks) * kThreads);
        book::fill_random_u32(spin.data(), spin.size(), kSeed);
        book::warm_up_clocks(
            [&] { diverge<<<wave_blocks, kThreads>>>(spin.data(), iters, 1, nullptr); },
            repeats.clock_warmup_ms);
    }
    std::printf("\n%d threads/block, %d blocks/SM, one wave = %d blocks\n", kThreads, blocks_per_sm,
                wave_blocks);
    std::printf("%d iterations; median of %d launches; spread = (p90 - p10) / median\n\n", iters,
                repeats.reps);
    std::printf("%5s %7s %11s %7s %12s %7s %6s\n", "waves", "blocks", "uniform ms", "spread",
                "divergent ms", "spread", "ratio");
    std::vector<double> x, yu, yd;
    for (int w : waves) {
        const Pair t = time_both(w * wave_blocks, iters, repeats);
        const std::string tag = "_w" + std::to_string(w);
        book::report_timing("uniform" + tag, t.uniform);
        book::report_timing("divergent" + tag, t.divergent);
        const double ratio = t.divergent.median_ms / t.uniform.median_ms;
        book::report("ratio" + tag, ratio, "ratio");
        x.push_back(w);
        yu.push_back(t.uniform.median_ms);
        yd.push_back(t.divergent.median_ms);
        const auto spread = [](const book::timing_stats& st) {
            return 100.0 * (st.p90_ms - st.p10_ms) / st.median_ms;
        };
        std::printf("%5d %7d %11.4f %6.1f%% %12.4f %6.1f%% %6.2f\n", w, w * wave_blocks,
                    t.uniform.median_ms, spread(t.uniform), t.divergent.median_ms,
                    spread(t.divergent), ratio);
    }
    double t0u = 0, su = 0, t0d = 0, sd = 0;
    fit_line(x, yu, t0u, su);
    fit_line(x, yd, t0d, sd);
    book::report("fit_t0_ms_uniform", t0u, "ms");
    book::report("fit_slope_ms_uniform", su, "ms/wave");
    book::report("fit_t0_ms_divergent", t0d, "ms");
    book::report("fit_slope_ms_divergent", sd, "ms/wave");
    book::report("slope_ratio", sd / su, "ratio");
    std::printf("\nstraight-line fits, t = t0 + slope * waves:\n");
    std::printf("  uniform    t0 %.4f ms, slope %.4f ms/wave\n", t0u, su);
    std::printf("  divergent  t0 %.4f ms, slope %.4f ms/wave\n", t0d, sd);
    std::printf("  slope ratio %.2f\n", sd / su);
    std::printf("\nCPU reference, sampled outputs of both modes: %ld mismatches\n", bad);
    return 0;
}

}  // namespace

int main(int argc, char** argv) { return book::gpu_main(argc, argv, run); }
