// temporal: k steps of the chapter's stencil per trip to global memory.
//
//   step:  x'[i] = x[i-R] + ... + x[i+R], values outside [0, n) counting as 0
//   k steps: the step applied k times, the zero boundary at every step.
//
// One step of the stencil is a copy's worth of traffic (each float read once and
// written once), so the best one-step kernel runs at the copy's speed and k steps
// take k copies. stencil_temporal<R, K, V> loads a block's tile once, with a halo
// of K x halo_pad(R) floats on each side, applies K steps to it in shared memory
// (each step valid on a region halo_pad(R) narrower on each side than the last),
// and writes only the last step: one copy's traffic for K steps.
//
// Modes:
//   (default)  R = 3 on 2^28 floats: cudaMemcpy, the best one-step kernels of the
//              chapter, and stencil_temporal at K = 1 .. 8, in the same run; per
//              step, the time of a K-step pass / K against the best one-step kernel.
//              Each K's output is compared with K launches of the one-step kernel
//              (all 2^28 outputs, exactly), and K = 1's with the CPU.
//   --tune     the same at K = 1, 2, 4, 8 for several block shapes (for exploring).
//   --check    every K, at sizes around the tile and the array's ends, against K
//              applications of the CPU reference, exactly.
//   --profile  K = 1, 2, 4, 8 launched once each (for Nsight Compute).
// Input: random 0s and 1s, so that every partial sum of up to 8 steps at R = 3
// is an integer below 7^8 < 2^24, exact in float in any order of addition.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "book/cuda.hpp"
#include "book/options.hpp"
#include "book/report.hpp"
#include "stencil_host.hpp"
#include "stencil_kernels.cuh"
#include "stencil_plan.hpp"

namespace ch02 {

/// In a temporal tile: the four floats of chunk slot q hold the elements
/// start + 4 (q - P) .. + 3, where P = K x halo_pad(R) / 4 halo chunks sit on each
/// side of the block's own chunks. Those outside [0, n) are set to 0.
__device__ __forceinline__ float4 zero_outside(float4 v, long long first, long long n) {
    if (first < 0 || first >= n) v.x = 0.0f;
    if (first + 1 < 0 || first + 1 >= n) v.y = 0.0f;
    if (first + 2 < 0 || first + 2 >= n) v.z = 0.0f;
    if (first + 3 < 0 || first + 3 >= n) v.w = 0.0f;
    return v;
}

// [listing:temporal]
// K steps per trip to global memory. The block owns V x blockDim.x chunks of
// four outputs; its tile holds them and P = K x P1 chunks on each side, where
// P1 = halo_pad(R) / 4 is one step's halo. After s steps, the slots
// [s P1, slots - s P1) are valid: each step reads its neighbours from the last
// one's buffer, writes the other, and meets the block at a barrier before the
// next step reads it. The last step goes from shared memory straight to global
// memory. Outside [0, n) every step writes 0 (only the blocks at the ends check).
// Dynamic shared memory: 2 x temporal_layout(R, K, V x blockDim.x).stride float4s.
template <int R, int K, int V>
__global__ void stencil_temporal(const float* __restrict__ in, float* __restrict__ out,
                                 long long n) {
    extern __shared__ __align__(128) float4 buffers[];
    const int chunks = V * blockDim.x;
    const temporal_layout tl(R, K, chunks);
    const int P = tl.P, slots = chunks + 2 * P;
    const long long per_block = outputs_per_block(blockDim.x, kVec * V);
    const long long start = block_start(blockIdx.x, per_block);
    const bool interior = block_is_interior(start, per_block, kVec * P, n);
    float4* from = buffers + tl.lead;  // from[q]: slot q
    float4* to = from + tl.stride;
    if (interior) {  // all V of a thread's loads in flight at once, then the halo's
        const float4* in4 = reinterpret_cast<const float4*>(in + start);
        float4 r[V];
#pragma unroll
        for (int v = 0; v < V; ++v) r[v] = __ldg(in4 + threadIdx.x + v * blockDim.x);
        for (int h = threadIdx.x; h < 2 * P; h += blockDim.x)
            from[h < P ? h : chunks + h] = __ldg(in4 + (h < P ? h - P : chunks + h - P));
#pragma unroll
        for (int v = 0; v < V; ++v) from[P + threadIdx.x + v * blockDim.x] = r[v];
    } else {
        float* tile = reinterpret_cast<float*>(from);
        for (int k = threadIdx.x; k < kVec * slots; k += blockDim.x)
            tile[k] = load_checked(in, start - kVec * P + k, n);
    }
    __syncthreads();  // the tile is loaded
    for (int s = 1; s < K; ++s) {
        for (int q = tl.first_step_slot + threadIdx.x; q < slots - tl.P1; q += blockDim.x) {
            float4 v = window_sum4<R>([&](int c) { return from[q + c]; });
            if (!interior) v = zero_outside(v, start + kVec * static_cast<long long>(q - P), n);
            to[q] = v;
        }
        __syncthreads();  // step s is written before step s + 1 reads it
        float4* t = from;
        from = to;
        to = t;
    }
#pragma unroll
    for (int v = 0; v < V; ++v) {
        const int m = threadIdx.x + v * blockDim.x;
        const float4 r = window_sum4<R>([&](int c) { return from[P + m + c]; });
        const long long p = start + static_cast<long long>(kVec) * m;
        if (interior)
            reinterpret_cast<float4*>(out)[p / kVec] = r;
        else if (p < n)
            store_checked(out, p, r, n);
    }
}
// [/listing:temporal]

}  // namespace ch02

namespace {

constexpr std::uint64_t kSeed = 20261202;
constexpr int kRadius = 3;
constexpr int kMaxSteps = 8;
// The chapter's shape of stencil_temporal: V = 2 chunks of four outputs per
// thread, 256 threads per block (the best at K = 4 in --tune on the H200).
constexpr int kV = 2;
constexpr int kThreads = 256;

// Random 0s and 1s.
__global__ void fill_bits(float* d, long long n, std::uint64_t seed) {
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
         i += stride)
        d[i] = static_cast<float>(book::random_u32(seed, static_cast<std::uint64_t>(i)) >> 31);
}

void fill(float* d, long long n, std::uint64_t seed) {
    if (n == 0) return;
    const long long blocks = std::min<long long>((n + 255) / 256, 4096);
    fill_bits<<<static_cast<unsigned>(blocks), 256>>>(d, n, seed);
    BOOK_CHECK_LAUNCH();
}

// Outputs of a and b that differ (bitwise as floats), added into *count.
__global__ void count_differences(const float* a, const float* b, long long n,
                                  unsigned long long* count) {
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    unsigned long long mine = 0;
    for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
         i += stride)
        mine += a[i] == b[i] ? 0 : 1;
    if (mine != 0) atomicAdd(count, mine);
}

long long differences(const float* a, const float* b, long long n) {
    if (n == 0) return 0;
    book::device_buffer<unsigned long long> count(1);
    BOOK_CUDA_CHECK(cudaMemset(count.data(), 0, sizeof(unsigned long long)));
    count_differences<<<1024, 256>>>(a, b, n, count.data());
    BOOK_CHECK_LAUNCH();
    unsigned long long h = 0;
    BOOK_CUDA_CHECK(cudaMemcpy(&h, count.data(), sizeof h, cudaMemcpyDeviceToHost));
    return static_cast<long long>(h);
}

std::vector<float> to_host(const float* d, long long n) {
    std::vector<float> h(static_cast<std::size_t>(n));
    if (n > 0) BOOK_CUDA_CHECK(cudaMemcpy(h.data(), d, sizeof(float) * n, cudaMemcpyDeviceToHost));
    return h;
}

// One kernel the program times: a name, its steps per launch, and its launcher.
struct kernel {
    std::string name;
    int steps;  // stencil steps one launch applies
    std::function<void(const float*, float*, long long)> launch;
    std::size_t smem = 0;     // dynamic shared memory per block, bytes
    int blocks_per_sm = 0;    // resident blocks per SM (the occupancy calculator), 0: not asked
    double extra_work = 0.0;  // slots computed over all steps / (steps x own slots) - 1
};

template <class Kernel>
void launch_blocks(Kernel k, long long per_block, std::size_t smem, int threads, const float* in,
                   float* out, long long n) {
    const long long blocks = ch02::blocks_for(n, per_block);
    if (blocks == 0) return;
    if (smem > 48 * 1024)
        BOOK_CUDA_CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             static_cast<int>(smem)));
    k<<<static_cast<unsigned>(blocks), threads, smem>>>(in, out, n);
    BOOK_CHECK_LAUNCH();
}

template <int K, int V>
kernel temporal(int threads) {
    const long long per_block = ch02::outputs_per_block(threads, ch02::kVec * V);
    const ch02::temporal_layout tl(kRadius, K, V * threads);
    const std::size_t smem = 2 * sizeof(float4) * static_cast<std::size_t>(tl.stride);
    std::string name = "temporal_k" + std::to_string(K);
    if (V != kV || threads != kThreads)
        name += "_v" + std::to_string(V) + "_t" + std::to_string(threads);
    kernel k{name, K, [=](const float* in, float* out, long long n) {
                 launch_blocks(ch02::stencil_temporal<kRadius, K, V>, per_block, smem, threads, in,
                               out, n);
             }};
    k.smem = smem;
    if (smem > 48 * 1024)
        BOOK_CUDA_CHECK(cudaFuncSetAttribute(ch02::stencil_temporal<kRadius, K, V>,
                                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             static_cast<int>(smem)));
    BOOK_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &k.blocks_per_sm, ch02::stencil_temporal<kRadius, K, V>, threads, smem));
    // Steps 1 .. K-1 compute [first_step_slot, slots - P1); the last, the own chunks.
    const int chunks = V * threads, slots = chunks + 2 * tl.P;
    const double computed =
        static_cast<double>(K - 1) * (slots - tl.P1 - tl.first_step_slot) + chunks;
    k.extra_work = computed / (static_cast<double>(K) * chunks) - 1.0;
    return k;
}

template <int V>
std::vector<kernel> temporal_all(int threads) {
    return {temporal<1, V>(threads), temporal<2, V>(threads), temporal<3, V>(threads),
            temporal<4, V>(threads), temporal<5, V>(threads), temporal<6, V>(threads),
            temporal<7, V>(threads), temporal<8, V>(threads)};
}

// The chapter's one-step kernels this program times beside the temporal ones.
std::vector<kernel> one_step_kernels() {
    const int threads = 256;
    return {
        {"vec_x1", 1,
         [=](const float* in, float* out, long long n) {
             launch_blocks(ch02::stencil_vec<kRadius, 1>, ch02::outputs_per_block(threads, 4), 0,
                           threads, in, out, n);
         }},
        {"vec_x4", 1,
         [=](const float* in, float* out, long long n) {
             launch_blocks(ch02::stencil_vec<kRadius, 4>, ch02::outputs_per_block(threads, 16), 0,
                           threads, in, out, n);
         }},
        {"tiled_vec_x4", 1,
         [=](const float* in, float* out, long long n) {
             const long long per_block = ch02::outputs_per_block(threads, 16);
             launch_blocks(ch02::stencil_tiled_vec<kRadius, 4>, per_block,
                           sizeof(float) * ch02::tile_floats(per_block, ch02::halo_pad(kRadius)),
                           threads, in, out, n);
         }},
    };
}

// ---------------------------------------------------------------------------
// --check

int check_mode(bool quick) {
    const std::vector<int> block_sizes =
        quick ? std::vector<int>{64} : std::vector<int>{32, 96, 256};
    std::vector<long long> sizes = {0,  1,   2,    3,    4,    5,    7,    23,   24,
                                    25, 100, 1023, 1024, 1025, 4096, 4099, 12345};
    if (!quick) {
        const long long more[] = {65536, 65536 + 3, 100003, (1 << 20) + 3};
        sizes.insert(sizes.end(), std::begin(more), std::end(more));
    }
    long long cases = 0, failed = 0, outputs = 0, wrong = 0;
    for (long long n : sizes) {
        book::device_buffer<float> in(static_cast<std::size_t>(n)),
            out(static_cast<std::size_t>(n));
        fill(in.data(), n, kSeed + static_cast<std::uint64_t>(n));
        // want[k - 1]: the CPU's k steps (exact: integers below 2^24).
        std::vector<std::vector<float>> want;
        std::vector<float> x = to_host(in.data(), n);
        for (int k = 1; k <= kMaxSteps; ++k) {
            const std::vector<double> y = ch02::stencil_reference_integers(x, kRadius);
            x.assign(y.begin(), y.end());
            want.push_back(x);
        }
        for (int threads : block_sizes) {
            std::vector<kernel> ks = temporal_all<kV>(threads);
            if (!quick) {
                const std::vector<kernel> v4 = temporal_all<4>(threads);
                ks.insert(ks.end(), v4.begin(), v4.end());
            }
            for (const kernel& k : ks) {
                if (n > 0) BOOK_CUDA_CHECK(cudaMemset(out.data(), 0xFF, sizeof(float) * n));
                k.launch(in.data(), out.data(), n);
                BOOK_CUDA_CHECK(cudaDeviceSynchronize());
                const std::vector<float> got = to_host(out.data(), n);
                const std::vector<float>& w = want[static_cast<std::size_t>(k.steps - 1)];
                long long bad = 0, first = -1;
                for (long long i = 0; i < n; ++i)
                    if (got[static_cast<std::size_t>(i)] != w[static_cast<std::size_t>(i)]) {
                        if (first < 0) first = i;
                        ++bad;
                    }
                ++cases;
                outputs += n;
                wrong += bad;
                if (bad > 0) {
                    ++failed;
                    std::printf("MISMATCH %s (%d threads), n = %lld: %lld wrong, first at %lld\n",
                                k.name.c_str(), threads, n, bad, first);
                }
            }
        }
    }
    book::report("check_cases", static_cast<double>(cases), "count");
    book::report("check_failed_cases", static_cast<double>(failed), "count");
    book::report("check_outputs", static_cast<double>(outputs), "count");
    book::report("mismatches", static_cast<double>(wrong), "count");
    std::printf("\n%lld cases (K = 1 .. %d x block shape x size), %lld failed\n", cases, kMaxSteps,
                failed);
    std::printf(
        "%lld outputs compared exactly with K applications of the CPU stencil, %lld wrong\n",
        outputs, wrong);
    return 0;
}

// ---------------------------------------------------------------------------
// Timing

struct bench {
    long long n;
    int warmup, reps;
    book::rotating_buffers<float> input;  // arrays read in turn, together over 2x the L2
    book::device_buffer<float> out, chain_a, chain_b;

    bench(long long n_, int warmup_, int reps_)
        : n(n_),
          warmup(warmup_),
          reps(reps_),
          input(static_cast<std::size_t>(n_), 2),
          out(static_cast<std::size_t>(n_)),
          chain_a(static_cast<std::size_t>(n_)),
          chain_b(static_cast<std::size_t>(n_)) {
        for (std::size_t s = 0; s < input.count(); ++s) fill(input.slot(s), n, kSeed + s);
    }

    book::timing_stats time(const kernel& k) {
        input.rewind();
        return book::time_launches([&] { k.launch(input.next(), out.data(), n); }, warmup, reps);
    }

    book::timing_stats time_copy() {
        input.rewind();
        const std::size_t bytes = sizeof(float) * static_cast<std::size_t>(n);
        return book::time_launches(
            [&] {
                BOOK_CUDA_CHECK(
                    cudaMemcpyAsync(out.data(), input.next(), bytes, cudaMemcpyDeviceToDevice, 0));
            },
            warmup, reps);
    }

    // steps launches of `one` on the first array; returns the buffer holding the result.
    const float* chain(const kernel& one, int steps) {
        const float* src = input.slot(0);
        float* dst = chain_a.data();
        for (int s = 0; s < steps; ++s) {
            one.launch(src, dst, n);
            src = dst;
            dst = dst == chain_a.data() ? chain_b.data() : chain_a.data();
        }
        BOOK_CUDA_CHECK(cudaDeviceSynchronize());
        return src;
    }

    // Outputs of one launch of k on the first array that differ from `want`.
    long long check(const kernel& k, const float* want) {
        BOOK_CUDA_CHECK(cudaMemset(out.data(), 0xFF, sizeof(float) * n));  // poison: a NaN
        k.launch(input.slot(0), out.data(), n);
        BOOK_CUDA_CHECK(cudaDeviceSynchronize());
        return differences(out.data(), want, n);
    }
};

std::string size_text(long long n) {
    for (int e = 0; e < 62; ++e)
        if (n == (1LL << e)) return "2^" + std::to_string(e);
    return std::to_string(n);
}

int steps_mode(long long n, int warmup, int reps) {
    bench b(n, warmup, reps);
    const std::vector<kernel> ones = one_step_kernels();
    book::warm_up_clocks([&] { ones[1].launch(b.input.slot(0), b.out.data(), n); }, 200.0);

    // The one-step kernels: checked with the CPU, then timed beside cudaMemcpy.
    const std::vector<float> host_in = to_host(b.input.slot(0), n);
    const book::timing_stats copy = b.time_copy();
    book::report_timing("copy", copy);
    book::report("n", static_cast<double>(n), "count");
    book::report("radius", kRadius, "count");
    std::printf("\nR = %d, n = %s floats, median of %d launches; x copy: cudaMemcpy time / time\n",
                kRadius, size_text(n).c_str(), reps);
    std::printf("\n%-14s %5s %8s %8s %7s %6s %6s %6s %6s\n", "kernel", "steps", "ms", "ms/step",
                "x copy", "/ best", "KiB", "blk/SM", "extra");
    std::printf("%-14s %5s %8.4f %8s %7.3f %6s %6s %6s %6s\n", "cudaMemcpy", "-", copy.median_ms,
                "-", 1.0, "-", "-", "-", "-");
    long long bad_total = 0;
    double best_ms = 0.0;
    std::string best_name;
    for (const kernel& k : ones) {
        k.launch(b.input.slot(0), b.out.data(), n);
        BOOK_CUDA_CHECK(cudaDeviceSynchronize());
        const std::vector<float> got = to_host(b.out.data(), n);
        const long long bad = ch02::compare_integers(got, host_in, kRadius).mismatches;
        const book::timing_stats t = b.time(k);
        book::report_timing(k.name, t);
        book::report(k.name + "_over_copy", copy.median_ms / t.median_ms, "ratio");
        book::report(k.name + "_mismatches", static_cast<double>(bad), "count");
        bad_total += bad;
        if (bad == 0 && (best_ms == 0.0 || t.median_ms < best_ms)) {
            best_ms = t.median_ms;
            best_name = k.name;
        }
        std::printf("%-14s %5d %8.4f %8.4f %7.3f %6s %6s %6s %6s\n", k.name.c_str(), 1, t.median_ms,
                    t.median_ms, copy.median_ms / t.median_ms, "", "-", "-", "-");
    }
    const kernel& one = ones[1];  // vec_x4: the reference chain
    book::report("one_step_ms", best_ms, "ms");
    book::report("temporal_threads", kThreads, "threads");
    book::report("temporal_chunks_per_thread", kV, "count");
    book::report_text("one_step_kernel", best_name);

    // The temporal kernels: each K against K launches of vec_x4 (checked above).
    double best_ratio = 0.0;
    int best_k = 0;
    for (const kernel& k : temporal_all<kV>(kThreads)) {
        const long long bad = b.check(k, b.chain(one, k.steps));
        const book::timing_stats t = b.time(k);
        const double per_step = t.median_ms / k.steps;
        const double ratio = per_step / best_ms;
        book::report_timing(k.name, t);
        book::report(k.name + "_ms_per_step", per_step, "ms");
        book::report(k.name + "_step_over_one_step", ratio, "ratio");
        book::report(k.name + "_over_copy", copy.median_ms / t.median_ms, "ratio");
        book::report(k.name + "_mismatches", static_cast<double>(bad), "count");
        bad_total += bad;
        if (bad == 0 && (best_k == 0 || ratio < best_ratio)) {
            best_ratio = ratio;
            best_k = k.steps;
        }
        book::report(k.name + "_smem_bytes", static_cast<double>(k.smem), "bytes");
        book::report(k.name + "_blocks_per_sm", k.blocks_per_sm, "count");
        book::report(k.name + "_extra_work", k.extra_work, "fraction");
        std::printf("%-14s %5d %8.4f %8.4f %7.3f %6.3f %6.1f %6d %5.1f%%\n", k.name.c_str(),
                    k.steps, t.median_ms, per_step, copy.median_ms / t.median_ms, ratio,
                    k.smem / 1024.0, k.blocks_per_sm, 100.0 * k.extra_work);
    }
    const book::timing_stats copy_end = b.time_copy();
    book::report_timing("copy_end", copy_end);
    book::report("mismatches", static_cast<double>(bad_total), "count");
    book::report("best_step_over_one_step", best_ratio, "ratio");
    book::report("best_k", best_k, "count");
    std::printf("%-14s %5s %8.4f %8s %7.3f %6s %6s %6s %6s\n", "cudaMemcpy", "-",
                copy_end.median_ms, "-", copy.median_ms / copy_end.median_ms, "-", "-", "-", "-");
    std::printf(
        "\n/ best: time per step over the fastest one-step kernel's time; KiB: shared memory\n"
        "per block; blk/SM: resident blocks per SM; extra: slots computed beyond the block's\n"
        "own (the halo's redundant work); every output compared (one-step: with the CPU;\n"
        "K steps: with K launches of vec_x4), wrong: %lld\n",
        bad_total);
    std::printf("\nfastest one-step kernel: %s, %.4f ms\n", best_name.c_str(), best_ms);
    std::printf("fastest per step: K = %d, %.3f of the one-step kernel's time per step\n", best_k,
                best_ratio);
    return 0;
}

template <int V>
void tune_row(bench& b, int threads, double one_ms) {
    for (const kernel& k : temporal_all<V>(threads)) {
        if (k.steps != 1 && k.steps != 2 && k.steps != 4 && k.steps != 8) continue;
        const book::timing_stats t = b.time(k);
        const double ratio = t.median_ms / k.steps / one_ms;
        book::report("tune_" + k.name + "_step_over_one_step", ratio, "ratio");
        std::printf(" %6.3f", ratio);
    }
}

int tune_mode(long long n, int warmup, int reps) {
    bench b(n, warmup, reps);
    const std::vector<kernel> ones = one_step_kernels();
    book::warm_up_clocks([&] { ones[1].launch(b.input.slot(0), b.out.data(), n); }, 200.0);
    double one_ms = 0.0;
    for (const kernel& k : ones) {
        const double ms = b.time(k).median_ms;
        one_ms = one_ms == 0.0 ? ms : std::min(one_ms, ms);
    }
    std::printf(
        "\nn = %s, time per step / the fastest one-step kernel's (%.4f ms)\n"
        "%-10s %6s %6s %6s %6s\n",
        size_text(n).c_str(), one_ms, "V x thr", "K=1", "K=2", "K=4", "K=8");
    for (int threads : {128, 256, 512}) {
        std::printf("V2 x %-5d", threads);
        tune_row<2>(b, threads, one_ms);
        std::printf("\nV4 x %-5d", threads);
        tune_row<4>(b, threads, one_ms);
        std::printf("\nV8 x %-5d", threads);
        tune_row<8>(b, threads, one_ms);
        std::printf("\n");
    }
    return 0;
}

// K = 1, 2, 4, 8 once each, then vec_x4 (the runs' NCU_LABELS name them in this order).
int profile_mode(long long n) {
    book::device_buffer<float> in(static_cast<std::size_t>(n)), out(static_cast<std::size_t>(n));
    fill(in.data(), n, kSeed);
    std::printf("\nprofiled: R = %d, n = %s floats, one launch each:\n", kRadius,
                size_text(n).c_str());
    for (const kernel& k : temporal_all<kV>(kThreads)) {
        if (k.steps != 1 && k.steps != 2 && k.steps != 4 && k.steps != 8) continue;
        k.launch(in.data(), out.data(), n);
        std::printf("  %s\n", k.name.c_str());
    }
    one_step_kernels()[1].launch(in.data(), out.data(), n);
    std::printf("  vec_x4\n");
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());
    return 0;
}

int run(int argc, char** argv) {
    book::options opts("k steps of the stencil per trip to global memory (temporal blocking)");
    bool check = false, tune = false, profile = false, quick = false;
    int log2n = 28, warmup = 3, reps = 15;
    opts.flag("--check", check, "every K at awkward sizes against the CPU, exactly");
    opts.flag("--tune", tune, "K = 1, 2, 4, 8 at several block shapes");
    opts.flag("--profile", profile, "K = 1, 2, 4, 8 and vec_x4 once each (for Nsight Compute)");
    opts.flag("--quick", quick, "small sizes, for compute-sanitizer (with --check)");
    opts.option("--log2n", log2n, "n = 2^log2n floats for the timed modes", 10, 30);
    opts.option("--warmup", warmup, "untimed launches before the timed ones", 0, 100);
    opts.option("--reps", reps, "timed launches (the median is reported)", 1, 1000);
    if (const auto status = opts.parse(argc, argv)) return *status;
    const long long n = 1LL << log2n;
    if (check) return check_mode(quick);
    if (tune) return tune_mode(n, warmup, reps);
    if (profile) return profile_mode(n);
    return steps_mode(n, warmup, reps);
}

}  // namespace

int main(int argc, char** argv) { return book::gpu_main(argc, argv, run); }
