// bank_conflicts: what a warp's shared-memory load costs when its 32 addresses
// fall into the same banks.
//
// Shared memory is split into banks (32 on NVIDIA GPUs since Maxwell, each
// 4 bytes wide); 4-byte words at addresses 4k land in bank k mod 32. A warp's
// load is served in as many passes ("wavefronts") as the most distinct words
// any one bank must deliver. Two kernels measure it:
//   strided_reads  lane i reads word i * stride: stride 1 is one pass, stride 2
//                  two (lanes i and i + 16 share a bank), stride 32 thirty-two;
//   tile_reads     a 32 x 32 tile read by rows, by columns, and by columns of a
//                  tile padded to 32 x 33.
// Each block (32 warps) runs alone on its SM: it asks for more dynamic shared
// memory than half an SM holds. Its thread 0 times the loads with clock64, so
// the result is in SM cycles per warp-wide load, whatever the clock speed.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "book/cuda.hpp"
#include "book/options.hpp"
#include "book/report.hpp"

namespace {

constexpr int kThreads = 1024;  // 32 warps
constexpr int kWords = 8192;    // the words strided_reads uses (32 KiB)
constexpr int kUnroll = 32;     // loads per loop trip

// The loads' results go into four sums (no long chain of dependent adds), and
// the shared array is read through a volatile pointer so that every trip loads
// again. The loop of each warp is timed between two barriers.

// [listing:strided-reads]
__global__ void strided_reads(float* out, long long* cycles, int stride, int iters) {
    // kWords used; the launch asks for more, to be alone on the SM.
    extern __shared__ float words[];
    for (int k = threadIdx.x; k < kWords; k += blockDim.x) words[k] = static_cast<float>(k);
    __syncthreads();
    const int lane = threadIdx.x % 32;
    // lane * stride, plus multiples of 32 words: the same bank as lane * stride.
    const volatile float* p = words + (lane * stride) % (kWords - kUnroll * 32);
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    const long long t0 = clock64();
    for (int it = 0; it < iters; ++it) {
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) acc[u % 4] += p[u * 32];
    }
    __syncthreads();
    const long long t1 = clock64();
    if (threadIdx.x == 0) cycles[blockIdx.x] = t1 - t0;
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc[0] + acc[1] + acc[2] + acc[3];
}
// [/listing:strided-reads]

// [listing:tile-reads]
// COLUMNS: lane i reads row i of column c (tile[i][c]); otherwise row c, column
// i (tile[c][i]). PAD: 0 for a 32 x 32 tile, 1 for 32 x 33.
template <int PAD, bool COLUMNS>
__global__ void tile_reads(float* out, long long* cycles, int iters) {
    __shared__ float tile[32][32 + PAD];
    for (int k = threadIdx.x; k < 32 * 32; k += blockDim.x)
        tile[k / 32][k % 32] = static_cast<float>(k);
    __syncthreads();
    const int lane = threadIdx.x % 32;
    const volatile float(*t)[32 + PAD] = tile;
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    const long long t0 = clock64();
    for (int it = 0; it < iters; ++it) {
#pragma unroll
        for (int c = 0; c < 32; ++c) acc[c % 4] += COLUMNS ? t[lane][c] : t[c][lane];
    }
    __syncthreads();
    const long long t1 = clock64();
    if (threadIdx.x == 0) cycles[blockIdx.x] = t1 - t0;
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc[0] + acc[1] + acc[2] + acc[3];
}
// [/listing:tile-reads]

struct pattern {
    std::string name;  // result names: <name>_cycles_per_load, ...
    std::string what;  // what lane i reads
    int stride;        // strided_reads' stride, or 0 for a tile kernel
    void (*tile)(float*, long long*, int);
    int ways;  // the bank conflict's degree, worked out by hand: distinct words per bank
};

struct measured {
    double cycles_per_load;  // SM cycles per warp-wide load (median over blocks)
    book::timing_stats t;
};

class bench {
public:
    // blocks: 0 for one per SM.
    bench(int iters, int blocks) : iters_(iters) {
        sms_ = blocks > 0 ? blocks : book::device_attribute(cudaDevAttrMultiProcessorCount);
        const int per_sm = book::device_attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor);
        const int optin = book::device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin);
        // More than half of an SM's shared memory: one block per SM.
        smem_ = std::min(optin - 2048, per_sm / 2 + 4096);
        for (auto* f : {&tile_reads<0, false>, &tile_reads<0, true>, &tile_reads<1, true>})
            BOOK_CUDA_CHECK(
                cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_));
        BOOK_CUDA_CHECK(cudaFuncSetAttribute(strided_reads,
                                             cudaFuncAttributeMaxDynamicSharedMemorySize, smem_));
        out_ = book::device_buffer<float>(static_cast<std::size_t>(sms_) * kThreads);
        cycles_ = book::device_buffer<long long>(static_cast<std::size_t>(sms_));
    }

    void launch(const pattern& p) {
        if (p.tile)
            p.tile<<<sms_, kThreads, smem_>>>(out_.data(), cycles_.data(), iters_);
        else
            strided_reads<<<sms_, kThreads, smem_>>>(out_.data(), cycles_.data(), p.stride, iters_);
    }

    measured run(const pattern& p, int warmup, int reps) {
        measured m{};
        m.t = book::time_launches([&] { launch(p); }, warmup, reps);
        std::vector<long long> c = cycles_.to_host();  // the last launch's
        std::sort(c.begin(), c.end());
        const double loads = static_cast<double>(kThreads / 32) * iters_ * (p.tile ? 32 : kUnroll);
        m.cycles_per_load = static_cast<double>(c[c.size() / 2]) / loads;
        return m;
    }

    int sms() const { return sms_; }

private:
    int iters_, sms_ = 0, smem_ = 0;
    book::device_buffer<float> out_;
    book::device_buffer<long long> cycles_;
};

int run(int argc, char** argv) {
    book::options opts(
        "Shared-memory bank conflicts: strided loads and a 32 x 32 tile read by columns");
    bool quick = false, profile = false;
    int iters = 2000;
    opts.flag("--quick", quick, "two blocks, two iterations, for compute-sanitizer");
    opts.flag("--profile", profile,
              "launch stride 1, 2, 32, then row, column, padded column once each (for ncu)");
    opts.option("--iters", iters, "loop trips per warp (32 loads each)", 1, 100000);
    if (const auto status = opts.parse(argc, argv)) return *status;
    if (quick) iters = std::min(iters, 2);
    if (profile) iters = std::min(iters, 10);

    const std::vector<pattern> patterns = {
        {"stride1", "word i", 1, nullptr, 1},
        {"stride2", "word 2i", 2, nullptr, 2},
        {"stride3", "word 3i (odd)", 3, nullptr, 1},
        {"stride4", "word 4i", 4, nullptr, 4},
        {"stride8", "word 8i", 8, nullptr, 8},
        {"stride16", "word 16i", 16, nullptr, 16},
        {"stride32", "word 32i", 32, nullptr, 32},
        {"stride33", "word 33i (odd)", 33, nullptr, 1},
        {"stride64", "word 64i", 64, nullptr, 32},
        {"tile_rows", "tile[c][i] of 32 x 32", 0, &tile_reads<0, false>, 1},
        {"tile_columns", "tile[i][c] of 32 x 32", 0, &tile_reads<0, true>, 32},
        {"tile_columns_padded", "tile[i][c] of 32 x 33", 0, &tile_reads<1, true>, 1},
    };
    bench b(iters, quick ? 2 : 0);  // --quick: two blocks, under a sanitizer every load is slow

    if (profile) {
        for (const char* name :
             {"stride1", "stride2", "stride32", "tile_rows", "tile_columns", "tile_columns_padded"})
            for (const pattern& p : patterns)
                if (p.name == name) {
                    b.launch(p);
                    BOOK_CHECK_LAUNCH();
                }
        BOOK_CUDA_CHECK(cudaDeviceSynchronize());
        std::printf(
            "profiled, one launch each, in this order: stride1, stride2, stride32,\n"
            "tile_rows, tile_columns, tile_columns_padded\n");
        return 0;
    }

    const int warmup = quick ? 1 : 3, reps = quick ? 2 : 15;
    book::report("blocks", b.sms(), "blocks");
    book::report("iters", iters, "count");
    std::printf(
        "\n%d blocks of %d threads, one per SM; each warp makes %d loop trips\n"
        "of %d warp-wide shared-memory loads; c: the loop's column\n",
        b.sms(), kThreads, iters, kUnroll);
    std::printf("\n%-20s %-22s %4s %11s %9s\n", "pattern", "lane i reads", "ways", "cycles/load",
                "x stride1");
    double base = 0.0;
    for (const pattern& p : patterns) {
        const measured m = b.run(p, warmup, reps);
        if (p.name == "stride1") base = m.cycles_per_load;
        const double ratio = m.cycles_per_load / base;
        book::report(p.name + "_cycles_per_load", m.cycles_per_load, "cycles");
        book::report(p.name + "_over_stride1", ratio, "ratio");
        book::report(p.name + "_ways", p.ways, "count");
        book::report_timing(p.name, m.t);
        std::printf("%-20s %-22s %4d %11.2f %9.2f\n", p.name.c_str(), p.what.c_str(), p.ways,
                    m.cycles_per_load, ratio);
    }
    std::printf(
        "\nways: distinct 4-byte words the busiest bank must deliver for one load\n"
        "cycles/load: SM cycles per warp-wide load (clock64, median over blocks)\n");
    return 0;
}

}  // namespace

int main(int argc, char** argv) { return book::gpu_main(argc, argv, run); }
