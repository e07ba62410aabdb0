// issue_rate: how many FP32 fused multiply-adds a scheduler issues per cycle,
// against the independent chains each warp runs (k) and the warps each
// scheduler holds (w).
//
// A warp can issue an FMA whose inputs are ready; one that needs the last
// FMA's result waits the latency L. With w warps of k independent chains a
// scheduler has w x k FMAs it may issue in any window of L cycles, so the
// model is rate = min(peak, w x k / L), and the scheduler reaches its peak
// (one FMA per cycle) from ceil(L / k) warps on. L is measured here: the
// cycles per FMA of one chain in one warp per scheduler.
//
// One block per SM of 4 x w warps (the SM's four schedulers take warps in
// turn, so w each); every thread's chains are checked against the host's.
//
// What the schedulers issue besides the FMAs must not be what limits them: a
// round of the timed loop holds kPerRound FMAs over all k chains (unrolled), so
// its counter, compare and branch are 3 instructions in kPerRound + 3. The
// multiplier and addend are constants of the program, which the compiler may
// encode in the FFMA itself rather than read from registers. The run's SASS
// shows the loop of one and of two chains, and each FFMA's operands
// (SASS_FUNCTIONS in CMakeLists.txt).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "book/cuda.hpp"
#include "device_clock.cuh"
#include "little.hpp"

namespace ch04 {

constexpr int kPerRound = 128;  // FMAs per thread per loop round, over all its chains
constexpr float kA = 0.999f;    // every FMA is x = x * kA + kB
constexpr float kB = 0.25f;

// [listing:chains]
// Each thread runs K independent chains: x[j] needs only x[j]'s last result,
// so the K FMAs of one step may issue back to back.
template <int K>
__global__ void fma_chains(int rounds, float* out, long long* cycles) {
    float x[K];
#pragma unroll
    for (int j = 0; j < K; ++j) x[j] = static_cast<float>(threadIdx.x % 61u + j);
    __syncthreads();
    const long long c0 = sm_cycles();
    for (int r = 0; r < rounds; ++r) {
#pragma unroll
        for (int u = 0; u < kPerRound / K; ++u)
#pragma unroll
            for (int j = 0; j < K; ++j) x[j] = fmaf(x[j], kA, kB);
    }
    __syncthreads();  // every warp of the block is done
    const long long c1 = sm_cycles();
    // [/listing:chains]
    float s = 0.0f;
#pragma unroll
    for (int j = 0; j < K; ++j) s += x[j];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
    if (threadIdx.x == 0) cycles[blockIdx.x] = c1 - c0;
}

namespace {

using kernel_t = void (*)(int, float*, long long*);

double median_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

int run(int argc, char** argv) {
    book::options opts("FMA issue rate against independent chains and warps per scheduler");
    bool quick = false;
    opts.flag("--quick", quick, "small sizes, for compute-sanitizer");
    if (const auto status = opts.parse(argc, argv)) return *status;

    const int sms = book::sm_count();
    const int steps = quick ? 256 : 4096;  // FMAs per chain
    const int launches = quick ? 1 : 5;
    const int ks[] = {1, 2, 4, 8};
    const kernel_t kernels[] = {fma_chains<1>, fma_chains<2>, fma_chains<4>, fma_chains<8>};
    const int max_w = quick ? 2 : 8;  // warps per scheduler: blocks of 128 x w threads

    book::device_buffer<float> out(static_cast<std::size_t>(sms) * 128 * max_w);
    book::device_buffer<long long> cycles(static_cast<std::size_t>(sms));
    BOOK_CUDA_CHECK(cudaMemset(out.data(), 0, out.bytes()));  // copied whole, written in part
    book::warm_up_clocks([&] { kernels[3]<<<sms, 128 * max_w>>>(32, out.data(), cycles.data()); },
                         quick ? 1.0 : 200.0);

    // rate[w - 1][ki]: FMAs (warp instructions) per cycle per scheduler.
    std::vector<std::vector<double>> rate(max_w, std::vector<double>(4));
    long bad = 0;
    for (int w = 1; w <= max_w; ++w) {
        for (int ki = 0; ki < 4; ++ki) {
            const int k = ks[ki];
            const int rounds = steps * k / kPerRound;
            const int threads = 128 * w;
            std::vector<double> per_launch;
            for (int l = 0; l < launches; ++l) {
                kernels[ki]<<<sms, threads>>>(rounds, out.data(), cycles.data());
                BOOK_CHECK_LAUNCH();
                const std::vector<long long> c = cycles.to_host();
                std::vector<double> per_block(c.begin(), c.end());
                per_launch.push_back(median_of(per_block));
            }
            // Every thread's chains against the host's: a chain's end depends
            // only on its start, t % 61 + j (std::fma rounds as fmaf does).
            const std::vector<float> got = out.to_host();
            const long n_steps = static_cast<long>(rounds) * (kPerRound / k);
            std::vector<float> end_of(61 + 8);
            for (std::size_t v = 0; v < end_of.size(); ++v) {
                float x = static_cast<float>(v);
                for (long i = 0; i < n_steps; ++i) x = std::fma(x, kA, kB);
                end_of[v] = x;
            }
            for (int t = 0; t < threads; ++t) {
                float s = 0.0f;
                for (int j = 0; j < k; ++j) s += end_of[static_cast<std::size_t>(t % 61 + j)];
                for (int blk = 0; blk < sms; blk += std::max(1, sms / 4))
                    if (got[static_cast<std::size_t>(blk) * threads + t] != s) ++bad;
            }
            rate[w - 1][ki] = double(w) * k * n_steps / median_of(per_launch);
        }
    }

    const double latency = 1.0 / rate[0][0];  // one chain, one warp per scheduler
    double peak = 0;
    for (const auto& row : rate)
        for (double r : row) peak = std::max(peak, r);
    // The peak the rule assumes: the measured one to the nearest half FMA per
    // cycle (one per cycle on an SM with 32 FP32 lanes per scheduler).
    const double peak_rule = std::max(0.5, std::round(peak * 2) / 2);
    const double l_whole = std::round(latency);
    double worst = 0;
    for (int w = 1; w <= max_w; ++w)
        for (int ki = 0; ki < 4; ++ki) {
            const double model = std::min(peak, w * ks[ki] / latency);
            worst = std::max(worst, std::fabs(model / rate[w - 1][ki] - 1.0));
            book::report("rate_w" + std::to_string(w) + "_k" + std::to_string(ks[ki]),
                         rate[w - 1][ki], "FMA/cycle");
        }
    long rule_misses = 0;
    std::vector<int> needed(4), rule(4);
    for (int ki = 0; ki < 4; ++ki) {
        needed[ki] = -1;  // none of the measured w reached 0.9 of the peak
        for (int w = max_w; w >= 1; --w)
            if (rate[w - 1][ki] >= 0.9 * peak) needed[ki] = w;
        rule[ki] = warps_to_hide(l_whole, peak_rule, ks[ki]);
        if (needed[ki] != rule[ki]) ++rule_misses;
        book::report("warps_needed_k" + std::to_string(ks[ki]), needed[ki], "warps");
        book::report("warps_rule_k" + std::to_string(ks[ki]), rule[ki], "warps");
    }
    book::report("lat_fma_cycles", latency, "cycles");
    book::report("peak_rate", peak, "FMA/cycle");
    book::report("peak_rule", peak_rule, "FMA/cycle");
    book::report("model_worst_error", worst, "fraction");
    book::report("rule_misses", static_cast<double>(rule_misses), "count");
    // The most that one and two chains per warp reached, over every w, as a
    // fraction of the peak: the rule says enough warps reach it whatever k is.
    for (int ki = 0; ki < 2; ++ki) {
        double best = 0;
        for (int w = 1; w <= max_w; ++w) best = std::max(best, rate[w - 1][ki]);
        book::report("best_k" + std::to_string(ks[ki]) + "_of_peak", best / peak, "fraction");
    }
    book::report("fma_per_round", kPerRound, "FMAs");
    book::report("mismatches", static_cast<double>(bad), "count");
    if (max_w >= 4) {
        book::report("k4_w1_over_k1_w4", rate[0][2] / rate[3][0], "ratio");
        book::report("w4_k1_over_w1_k1", rate[3][0] / rate[0][0], "ratio");
        book::report("peak_over_latency_bound", peak / rate[0][0], "ratio");
    }

    std::printf("\nFMA latency L = %.2f cycles (one chain, one warp per scheduler)\n", latency);
    std::printf("peak %.3f FMAs per cycle per scheduler\n", peak);
    std::printf("\nFMAs issued per cycle per scheduler (model: min(peak, w x k / L))\n");
    std::printf("%4s", "w");
    for (int k : ks) std::printf("   k=%d  model", k);
    std::printf("\n");
    for (int w = 1; w <= max_w; ++w) {
        std::printf("%4d", w);
        for (int ki = 0; ki < 4; ++ki)
            std::printf(" %6.3f %6.3f", rate[w - 1][ki], std::min(peak, w * ks[ki] / latency));
        std::printf("\n");
    }
    std::printf(
        "\nwarps per scheduler to reach 0.9 of the peak, measured and by the rule\n"
        "ceil(L x peak / k) = ceil(%.0f x %.1f / k):\n",
        l_whole, peak_rule);
    for (int ki = 0; ki < 4; ++ki)
        std::printf("  k=%d: measured %d, rule %d\n", ks[ki], needed[ki], rule[ki]);
    std::printf("model's worst error %.3f; threads whose chains differ from the host's: %ld\n",
                worst, bad);
    return 0;
}

}  // namespace

}  // namespace ch04

int main(int argc, char** argv) { return book::gpu_main(argc, argv, ch04::run); }
