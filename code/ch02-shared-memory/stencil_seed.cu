// stencil_seed: the widely copied tiled stencil, exactly as it circulates, and
// what it does at the ends of the array.
//
// The widely copied kernel loads its halo with in[gid - RADIUS] and in[gid + blockDim.x]
// and never looks at n: block 0 reads 3 floats before the array, the last block
// 3 floats after it, and when n is not a multiple of the block size the last
// block also reads and writes past the end with its own elements.
//
// By default the program puts guard zones around both arrays (inside one
// allocation, so nothing faults): the input's guards hold a sentinel, the
// output's guards are poisoned, and the program counts the outputs that differ
// from the CPU reference (zero boundary) and the guard words the kernel wrote.
// It runs the widely copied kernel and the chapter's fixed tiled kernel on the same
// input, at n a multiple of the block and at n not one.
// With --exact the arrays are allocated to the float, without guards, and only
// --kernel runs: under compute-sanitizer memcheck, every access past an end is
// an error in its report.
#include <cstdio>
#include <string>
#include <vector>

#include "book/cuda.hpp"
#include "book/options.hpp"
#include "book/report.hpp"
#include "stencil_host.hpp"
#include "stencil_kernels.cuh"

#define BLOCK 256
#define RADIUS 3

// [listing:seed-stencil]
// The widely copied kernel, unchanged (only its comments are ours).
__global__ void stencil(const float* in, float* out, int n) {
    __shared__ float tile[BLOCK + 2 * RADIUS];

    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    int lid = threadIdx.x + RADIUS;

    tile[lid] = in[gid];  // gid may be >= n in the last block
    if (threadIdx.x < RADIUS) {
        tile[lid - RADIUS] = in[gid - RADIUS];          // block 0: in[-3], in[-2], in[-1]
        tile[lid + blockDim.x] = in[gid + blockDim.x];  // last block: past the end
    }

    __syncthreads();

    float sum = 0.0f;
    for (int d = -RADIUS; d <= RADIUS; ++d) sum += tile[lid + d];
    out[gid] = sum;  // gid may be >= n in the last block
}
// [/listing:seed-stencil]

namespace {

constexpr long long kGuard = 1024;         // floats of guard before and after each array
constexpr float kInputSentinel = 1000.0f;  // what the input's guards hold
constexpr std::uint64_t kSeed = 4242;

std::vector<float> input_values(long long n) {
    std::vector<float> v(static_cast<std::size_t>(n));
    for (long long i = 0; i < n; ++i)
        v[static_cast<std::size_t>(i)] =
            1.0f + static_cast<float>(book::random_u32(kSeed, i) >> 28);
    return v;
}

void launch(const std::string& kernel, const float* in, float* out, long long n) {
    const int blocks = static_cast<int>((n + BLOCK - 1) / BLOCK);
    if (blocks == 0) return;
    if (kernel == "seed") {
        stencil<<<blocks, BLOCK>>>(in, out, static_cast<int>(n));
    } else {  // the chapter's tiled kernel: zero boundary, checked loads, n respected
        const std::size_t smem = sizeof(float) * ch02::tile_floats(BLOCK, RADIUS);
        ch02::stencil_tiled<RADIUS><<<blocks, BLOCK, smem>>>(in, out, n);
    }
    BOOK_CHECK_LAUNCH();
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());
}

struct outcome {
    long long mismatches = 0, first = -1, last = -1, guard_writes = 0;
};

// Run `kernel` on n floats placed between guard zones.
outcome run_guarded(const std::string& kernel, long long n) {
    const std::vector<float> values = input_values(n);
    std::vector<float> host_in(static_cast<std::size_t>(n + 2 * kGuard), kInputSentinel);
    std::copy(values.begin(), values.end(), host_in.begin() + kGuard);
    book::device_buffer<float> in(host_in.size()), out(host_in.size());
    in.from_host(host_in);
    BOOK_CUDA_CHECK(cudaMemset(out.data(), 0xFF, out.bytes()));  // poison: all bits set, a NaN
    launch(kernel, in.data() + kGuard, out.data() + kGuard, n);
    const std::vector<float> got = out.to_host();
    const std::vector<double> want = ch02::stencil_reference_integers(values, RADIUS);
    outcome o;
    for (long long i = 0; i < n; ++i)
        if (!(got[static_cast<std::size_t>(kGuard + i)] == want[static_cast<std::size_t>(i)])) {
            ++o.mismatches;
            if (o.first < 0) o.first = i;
            o.last = i;
        }
    for (std::size_t k = 0; k < got.size(); ++k) {
        const bool guard =
            static_cast<long long>(k) < kGuard || static_cast<long long>(k) >= kGuard + n;
        if (guard && got[k] == got[k]) ++o.guard_writes;  // no longer the NaN poison
    }
    return o;
}

// n floats in allocations of exactly n floats (for memcheck).
outcome run_exact(const std::string& kernel, long long n) {
    const std::vector<float> values = input_values(n);
    book::device_buffer<float> in(static_cast<std::size_t>(n)), out(static_cast<std::size_t>(n));
    in.from_host(values);
    BOOK_CUDA_CHECK(cudaMemset(out.data(), 0xFF, out.bytes()));
    launch(kernel, in.data(), out.data(), n);
    const ch02::comparison c =
        ch02::compare_exact(out.to_host(), ch02::stencil_reference_integers(values, RADIUS));
    return {c.mismatches, c.first_mismatch, -1, 0};
}

int run(int argc, char** argv) {
    book::options opts(
        "The widely copied tiled stencil at the ends of the array, beside the fixed one");
    bool exact = false;
    long long n = 1000;
    std::string kernel = "seed";
    opts.flag("--exact", exact,
              "allocate exactly n floats, no guards; run --kernel only (for memcheck)");
    opts.option("--n", n, "floats (with --exact)", 1, 1 << 24);
    bool fixed = false;
    opts.flag("--fixed", fixed,
              "with --exact: run the fixed kernel instead of the widely copied one");
    if (const auto status = opts.parse(argc, argv)) return *status;
    if (fixed) kernel = "fixed";

    if (exact) {
        const outcome o = run_exact(kernel, n);
        book::report("mismatches", static_cast<double>(o.mismatches), "count");
        std::printf(
            "%s kernel, n = %lld, arrays of exactly n floats:\n"
            "%lld outputs differ from the CPU reference\n",
            kernel.c_str(), n, o.mismatches);
        return 0;
    }

    std::printf(
        "\nR = %d, %d threads per block; %lld guard floats before and after each\n"
        "array: the input's hold %.0f, the output's are poisoned (NaN)\n\n",
        RADIUS, BLOCK, kGuard, kInputSentinel);
    std::printf("%-6s %6s %11s %7s %7s %13s\n", "kernel", "n", "mismatches", "first", "last",
                "guard writes");
    for (const long long size : {1024LL, 1000LL}) {
        for (const char* k : {"seed", "fixed"}) {
            const outcome o = run_guarded(k, size);
            const std::string tag = std::string(k) + "_n" + std::to_string(size);
            book::report(tag + "_mismatches", static_cast<double>(o.mismatches), "count");
            book::report(tag + "_first_mismatch", static_cast<double>(o.first), "index");
            book::report(tag + "_last_mismatch", static_cast<double>(o.last), "index");
            book::report(tag + "_guard_writes", static_cast<double>(o.guard_writes), "count");
            std::printf("%-6s %6lld %11lld %7lld %7lld %13lld\n", k, size, o.mismatches, o.first,
                        o.last, o.guard_writes);
        }
    }
    std::printf(
        "\nfirst/last: the first and last output that differs (-1: none)\n"
        "guard writes: words written outside [0, n)\n");
    return 0;
}

}  // namespace

int main(int argc, char** argv) { return book::gpu_main(argc, argv, run); }
