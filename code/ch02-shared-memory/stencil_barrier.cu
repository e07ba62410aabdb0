// stencil_barrier: what the barrier in the tiled stencil is for, shown by
// taking it out and by putting it where it must not be.
//
//   tiled          the chapter's tiled kernel (stencil_kernels.cuh), R = 3
//   nosync         the same without __syncthreads: a thread may read tile
//                  entries before the threads that load them have written them.
//                  --delay makes the threads that load the tile's last 2R
//                  entries (the right halo) wait that many clock cycles first.
//   branch         __syncthreads on both sides of a branch that splits warp 0:
//                  two different barrier instructions in one warp.
//   branch_one_side  __syncthreads only on the side the halo loaders take; the
//                  others skip it. Undefined behaviour: it may hang, or let the
//                  waiting threads go once the others have exited. Not in the
//                  default run; alone (--branch-one-side), a watchdog gives up
//                  after 10 s and says so.
// The default run repeats each kernel on fresh input and counts the outputs
// that differ from the CPU (integer input: exact). One of --tiled, --nosync,
// --branch, --branch-one-side runs that kernel alone; with --small, once on
// 4096 floats, for compute-sanitizer (racecheck, synccheck).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "book/cuda.hpp"
#include "book/options.hpp"
#include "book/report.hpp"
#include "stencil_host.hpp"
#include "stencil_kernels.cuh"

namespace {

constexpr int R = 3, kThreads = 256;
constexpr std::uint64_t kSeed = 777;

__device__ void spin(long long cycles) {
    const long long t0 = clock64();
    while (clock64() - t0 < cycles) {}
}

// [listing:tiled-nosync]
// stencil_tiled without its barrier.
__global__ void stencil_tiled_nosync(const float* in, float* out, long long n, long long delay) {
    extern __shared__ float tile[];  // tile[k] holds in[start - R + k]
    const long long start = blockIdx.x * static_cast<long long>(blockDim.x);
    const int width = blockDim.x + 2 * R;
    for (int k = threadIdx.x; k < width; k += blockDim.x) {
        const long long j = start - R + k;
        const float v = (j >= 0 && j < n) ? in[j] : 0.0f;
        if (k >= blockDim.x) spin(delay);  // the right halo's loaders are slow
        tile[k] = v;
    }
    // no __syncthreads(): nothing makes the reads below wait for those writes
    const long long i = start + threadIdx.x;
    if (i >= n) return;
    float sum = 0.0f;
    for (int d = 0; d <= 2 * R; ++d) sum += tile[threadIdx.x + d];
    out[i] = sum;
}
// [/listing:tiled-nosync]

// [listing:barrier-in-branch]
// Each thread loads its own entry; the first 2R threads (lanes of warp 0) also
// load the right halo. Then a barrier on each side of the branch: warp 0 is
// split between two __syncthreads() calls.
__global__ void stencil_tiled_branch(const float* in, float* out, long long n) {
    extern __shared__ float tile[];
    const long long start = blockIdx.x * static_cast<long long>(blockDim.x);
    const long long j = start - R + threadIdx.x;
    tile[threadIdx.x] = (j >= 0 && j < n) ? in[j] : 0.0f;
    if (threadIdx.x < 2 * R) {
        const long long h = j + blockDim.x;
        tile[threadIdx.x + blockDim.x] = (h >= 0 && h < n) ? in[h] : 0.0f;
        __syncthreads();  // wrong: inside a branch that splits a warp
    } else {
        __syncthreads();
    }
    const long long i = start + threadIdx.x;
    if (i >= n) return;
    float sum = 0.0f;
    for (int d = 0; d <= 2 * R; ++d) sum += tile[threadIdx.x + d];
    out[i] = sum;
}
// [/listing:barrier-in-branch]

// The halo loaders wait at a barrier the other threads never reach.
__global__ void stencil_tiled_branch_one_side(const float* in, float* out, long long n) {
    extern __shared__ float tile[];
    const long long start = blockIdx.x * static_cast<long long>(blockDim.x);
    const long long j = start - R + threadIdx.x;
    tile[threadIdx.x] = (j >= 0 && j < n) ? in[j] : 0.0f;
    if (threadIdx.x < 2 * R) {
        const long long h = j + blockDim.x;
        tile[threadIdx.x + blockDim.x] = (h >= 0 && h < n) ? in[h] : 0.0f;
        __syncthreads();  // wrong: only these 2R threads ever get here
    }
    const long long i = start + threadIdx.x;
    if (i >= n) return;
    float sum = 0.0f;
    for (int d = 0; d <= 2 * R; ++d) sum += tile[threadIdx.x + d];
    out[i] = sum;
}

__global__ void fill_integers(float* d, long long n, std::uint64_t seed) {
    const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
    if (i < n) d[i] = 1.0f + static_cast<float>(book::random_u32(seed, i) >> 28);
}

// Launch one kernel and wait for it, at most 10 s. Returns false on a hang.
bool launch(const std::string& kernel, const float* in, float* out, long long n, long long delay) {
    const unsigned blocks = static_cast<unsigned>((n + kThreads - 1) / kThreads);
    const std::size_t smem = sizeof(float) * ch02::tile_floats(kThreads, R);
    if (kernel == "tiled")
        ch02::stencil_tiled<R><<<blocks, kThreads, smem>>>(in, out, n);
    else if (kernel == "nosync")
        stencil_tiled_nosync<<<blocks, kThreads, smem>>>(in, out, n, delay);
    else if (kernel == "branch")
        stencil_tiled_branch<<<blocks, kThreads, smem>>>(in, out, n);
    else
        stencil_tiled_branch_one_side<<<blocks, kThreads, smem>>>(in, out, n);
    BOOK_CHECK_LAUNCH();
    const auto t0 = std::chrono::steady_clock::now();
    cudaError_t s;
    while ((s = cudaStreamQuery(0)) == cudaErrorNotReady) {
        if (std::chrono::steady_clock::now() - t0 > std::chrono::seconds(10)) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    BOOK_CUDA_CHECK(s);
    return true;
}

struct tally {
    long long mismatches = 0;
    int bad_launches = 0, launches = 0;
};

// `trials` launches, each on fresh input, each output checked against the CPU.
tally run_trials(const std::string& kernel, long long n, int trials, long long delay) {
    book::device_buffer<float> in(static_cast<std::size_t>(n)), out(static_cast<std::size_t>(n));
    tally t;
    for (int k = 0; k < trials; ++k) {
        fill_integers<<<static_cast<unsigned>((n + 255) / 256), 256>>>(in.data(), n, kSeed + k);
        BOOK_CHECK_LAUNCH();
        BOOK_CUDA_CHECK(cudaMemset(out.data(), 0xFF, out.bytes()));
        if (!launch(kernel, in.data(), out.data(), n, delay)) {
            // A kernel that never ends: freeing memory would wait for it forever,
            // so say so and leave at once; the driver ends the context.
            std::printf("%s: launch %d of %d did not finish within 10 s (a hang)\n", kernel.c_str(),
                        k + 1, trials);
            book::report("hung", 1, "bool");
            std::fflush(stdout);
            std::fflush(stderr);
            std::_Exit(3);
        }
        const ch02::comparison c = ch02::compare_integers(out.to_host(), in.to_host(), R);
        ++t.launches;
        t.mismatches += c.mismatches;
        t.bad_launches += c.mismatches > 0 ? 1 : 0;
    }
    return t;
}

int run(int argc, char** argv) {
    book::options opts("The tiled stencil's barrier: taken out, and put inside a branch");
    std::string kernel;
    bool small = false;
    int trials = 20, log2n = 22;
    long long delay = 0;
    opts.flag("--small", small, "one launch on 4096 floats (for compute-sanitizer)");
    opts.option("--trials", trials, "launches per kernel, each on fresh input", 1, 1000);
    opts.option("--log2n", log2n, "n = 2^log2n floats", 4, 28);
    opts.option("--delay", delay,
                "with --kernel nosync: clock cycles the right halo's loaders wait", 0, 100000000);
    bool k_tiled = false, k_nosync = false, k_branch = false, k_one_side = false;
    opts.flag("--tiled", k_tiled, "run only the tiled kernel (with its barrier)");
    opts.flag("--nosync", k_nosync, "run only the kernel without the barrier");
    opts.flag("--branch", k_branch, "run only the kernel with a barrier on each side of a branch");
    opts.flag("--branch-one-side", k_one_side,
              "run only the kernel with a barrier on one side (may hang)");
    if (const auto status = opts.parse(argc, argv)) return *status;
    const int chosen = k_tiled + k_nosync + k_branch + k_one_side;
    if (chosen > 1) {
        std::fprintf(stderr, "stencil_barrier: error: choose at most one kernel\n");
        return 2;
    }
    kernel = k_tiled      ? "tiled"
             : k_nosync   ? "nosync"
             : k_branch   ? "branch"
             : k_one_side ? "branch_one_side"
                          : "";
    const long long n = small ? 4096 : (1LL << log2n);
    if (small) trials = 1;

    if (!kernel.empty()) {
        const tally t = run_trials(kernel, n, trials, delay);
        book::report("mismatches", static_cast<double>(t.mismatches), "count");
        book::report("bad_launches", t.bad_launches, "count");
        book::report("launches", t.launches, "count");
        book::report("hung", 0, "bool");
        std::printf(
            "%s, n = %lld, delay %lld cycles:\n"
            "%d of %d launches gave wrong outputs, %lld wrong outputs in all\n",
            kernel.c_str(), n, delay, t.bad_launches, t.launches, t.mismatches);
        return 0;
    }

    struct row {
        std::string kernel;
        long long delay;
    };
    const std::vector<row> rows = {{"tiled", 0},      {"nosync", 0}, {"nosync", 1000},
                                   {"nosync", 10000}, {"tiled", 0},  {"branch", 0}};
    std::printf(
        "\nR = %d, n = %lld floats, %d threads per block;\n"
        "%d launches per row, each on fresh input, every output checked\n\n",
        R, n, kThreads, trials);
    std::printf("%-8s %14s %14s %16s\n", "kernel", "delay (cycles)", "bad launches",
                "wrong outputs");
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const tally t = run_trials(rows[r].kernel, n, trials, rows[r].delay);
        std::string tag = rows[r].kernel;
        if (rows[r].kernel == "nosync") tag += "_delay" + std::to_string(rows[r].delay);
        if (r == 4) tag += "_again";  // the tiled kernel again, after the racy ones
        book::report(tag + "_mismatches", static_cast<double>(t.mismatches), "count");
        book::report(tag + "_bad_launches", t.bad_launches, "count");
        std::printf("%-8s %14lld %11d/%-3d %16lld\n", rows[r].kernel.c_str(), rows[r].delay,
                    t.bad_launches, t.launches, t.mismatches);
    }
    book::report("trials", trials, "count");
    book::report("n", static_cast<double>(n), "count");
    return 0;
}

}  // namespace

int main(int argc, char** argv) { return book::gpu_main(argc, argv, run); }
