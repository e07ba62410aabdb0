// warp_tail: does the Kepler-era warp-synchronous tail still add up?
//
// Four kernels differ only in how the last warp adds a block's final 64
// values (warp_tails.cuh): by shuffles, through shared memory with
// __syncwarp(), the Kepler-era way with `volatile` and no barrier, and the
// same without `volatile`. Each block of 256 threads adds 512 whole numbers;
// every block's sum is compared with the exact sum on the CPU, over many
// blocks and many fresh inputs. Run it under compute-sanitizer racecheck
// (--quick keeps the grid small) to see what the tool says about each tail.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "book/cuda.hpp"
#include "book/options.hpp"
#include "book/report.hpp"
#include "page_print.hpp"
#include "reduce_plan.hpp"
#include "warp_tails.cuh"

namespace {

constexpr unsigned kThreads = 256;               // threads per block
constexpr std::size_t kPerBlock = 2 * kThreads;  // values per block

// [listing:tree-to-64]
// Two values per thread, then the shared-memory tree down to s[0..63].
__device__ void tree_to_64(const float* x, float* s) {
    const unsigned tid = threadIdx.x;
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * kPerBlock + tid;
    s[tid] = x[i] + x[i + kThreads];
    __syncthreads();
    for (unsigned stride = kThreads / 2; stride > 32; stride >>= 1) {
        if (tid < stride) s[tid] += s[tid + stride];
        __syncthreads();
    }
}
// [/listing:tree-to-64]

__global__ void sum_tail_shfl(const float* x, float* out) {
    __shared__ float s[kThreads];
    tree_to_64(x, s);
    if (threadIdx.x < 32) {
        const float v = tail_shfl(s, threadIdx.x);
        if (threadIdx.x == 0) out[blockIdx.x] = v;
    }
}

__global__ void sum_tail_syncwarp(const float* x, float* out) {
    __shared__ float s[kThreads];
    tree_to_64(x, s);
    if (threadIdx.x < 32) {
        const float v = tail_syncwarp(s, threadIdx.x);
        if (threadIdx.x == 0) out[blockIdx.x] = v;
    }
}

// [listing:sum-tail-volatile]
__global__ void sum_tail_volatile(const float* x, float* out) {
    __shared__ float s[kThreads];
    tree_to_64(x, s);
    if (threadIdx.x < 32) {
        const float v = tail_volatile(s, threadIdx.x);
        if (threadIdx.x == 0) out[blockIdx.x] = v;
    }
}
// [/listing:sum-tail-volatile]

__global__ void sum_tail_plain(const float* x, float* out) {
    __shared__ float s[kThreads];
    tree_to_64(x, s);
    if (threadIdx.x < 32) {
        const float v = tail_plain(s, threadIdx.x);
        if (threadIdx.x == 0) out[blockIdx.x] = v;
    }
}

__global__ void fill_small_ints(float* x, std::size_t n, std::uint64_t seed) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += stride)
        x[i] = ch03::small_int_float(book::random_u32(seed, i));
}

struct tail {
    const char* key;
    const char* what;
    void (*kernel)(const float*, float*);
    bool correct;  // correct CUDA: a mismatch is a failure of this program
    bool selected;
    long mismatched = 0, checked = 0;
};

int run(int argc, char** argv) {
    book::options opts("The last warp of a block reduction: shuffles, __syncwarp, volatile, plain");
    std::vector<tail> tails = {
        {"shfl", "__shfl_down_sync", sum_tail_shfl, true, false},
        {"syncwarp", "shared memory + __syncwarp", sum_tail_syncwarp, true, false},
        {"volatile", "volatile, no barrier (Kepler era)", sum_tail_volatile, false, false},
        {"plain", "no volatile, no barrier", sum_tail_plain, false, false},
    };
    for (tail& t : tails)
        opts.flag("--" + std::string(t.key), t.selected,
                  std::string("run the ") + t.what + " tail");
    bool quick = false;
    int trials = 200, blocks = 0;
    long long seed = 5;
    opts.flag("--quick", quick, "one trial of 4 blocks (for compute-sanitizer)");
    opts.option("--trials", trials, "fresh inputs per tail", 1, 100000);
    opts.option("--blocks", blocks, "blocks per trial (0: 16 per SM)", 0, 1 << 20);
    opts.option("--seed", seed, "first seed of the random input", 0);
    if (const auto status = opts.parse(argc, argv)) return *status;
    bool any = false;
    for (const tail& t : tails) any = any || t.selected;
    for (tail& t : tails) t.selected = t.selected || !any;  // none named: all four
    if (quick) {
        trials = 1;
        blocks = 4;
    }
    if (blocks == 0) blocks = 16 * book::device_attribute(cudaDevAttrMultiProcessorCount);

    const std::size_t n = static_cast<std::size_t>(blocks) * kPerBlock;
    book::device_buffer<float> x(n), out(static_cast<std::size_t>(blocks));
    for (int trial = 0; trial < trials; ++trial) {
        // [listing:tail-trial]
        const std::uint64_t s = static_cast<std::uint64_t>(seed) * 1000003u + trial;
        fill_small_ints<<<256, 256>>>(x.data(), n, s);
        BOOK_CHECK_LAUNCH();
        const std::vector<float> host = x.to_host();
        std::vector<std::int64_t> expected(blocks, 0);  // whole numbers: exact in int64
        for (std::size_t i = 0; i < n; ++i)
            expected[i / kPerBlock] += static_cast<std::int64_t>(host[i]);
        for (tail& t : tails) {
            if (!t.selected) continue;
            BOOK_CUDA_CHECK(cudaMemset(out.data(), 0xFF, out.bytes()));  // NaN
            t.kernel<<<blocks, kThreads>>>(x.data(), out.data());
            BOOK_CHECK_LAUNCH();
            const std::vector<float> got = out.to_host();
            for (int b = 0; b < blocks; ++b)
                if (static_cast<double>(got[b]) != static_cast<double>(expected[b])) ++t.mismatched;
            t.checked += blocks;
        }
        // [/listing:tail-trial]
    }

    ch03::page_print("\n%d trials x %d blocks of %u threads, each block adding %zu whole numbers\n",
                     trials, blocks, kThreads, kPerBlock);
    ch03::page_print("%-10s %-36s %14s %14s\n", "tail", "how the last warp adds", "blocks checked",
                     "wrong sums");
    int status = 0;
    book::report("sms", book::device_attribute(cudaDevAttrMultiProcessorCount), "SMs");
    for (const tail& t : tails) {
        if (!t.selected) continue;
        ch03::page_print("%-10s %-36s %14ld %14ld\n", t.key, t.what, t.checked, t.mismatched);
        book::report(std::string("blocks_checked_") + t.key, static_cast<double>(t.checked),
                     "count");
        book::report(std::string("wrong_sums_") + t.key, static_cast<double>(t.mismatched),
                     "count");
        if (t.correct && t.mismatched > 0) status = 1;
    }
    return status;
}

}  // namespace

int main(int argc, char** argv) { return book::gpu_main(argc, argv, run); }
