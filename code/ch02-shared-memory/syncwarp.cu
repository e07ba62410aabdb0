// syncwarp: lanes of one warp passing values to each other.
//
// Since Volta each thread has its own program counter, and the lanes of a warp
// are not promised to run in step. An exchange through shared memory inside a
// warp therefore needs __syncwarp() between the writes and the reads (and again
// before the next writes); the shuffle intrinsics exchange registers and
// synchronize the lanes named in their mask in one instruction.
//
// Three kernels rotate each warp's values by one lane, three times over:
//   rotate_syncwarp  shared memory, with __syncwarp
//   rotate_shfl      __shfl_sync, no shared memory
//   rotate_nosync    shared memory without __syncwarp: the pre-Volta habit. It
//                    may well give the right answer on a given GPU and compiler;
//                    racecheck reports the hazard either way.
// --small runs the first two on one block (compute-sanitizer must find them
// clean); --nosync --small runs the last one alone, for racecheck's report.
#include <cstdio>
#include <string>
#include <vector>

#include "book/cuda.hpp"
#include "book/options.hpp"
#include "book/report.hpp"

namespace {

constexpr int kThreads = 256, kRounds = 3;
constexpr unsigned kAllLanes = 0xffffffffu;

// [listing:rotate-syncwarp]
__global__ void rotate_syncwarp(const unsigned* in, unsigned* out) {
    __shared__ unsigned s[kThreads];
    const int t = threadIdx.x, lane = t % 32, warp_base = t - lane;
    const int i = blockIdx.x * blockDim.x + t;
    unsigned v = in[i];
    for (int round = 0; round < kRounds; ++round) {
        s[t] = v;
        __syncwarp();  // all 32 writes land before any lane reads
        v = s[warp_base + (lane + 1) % 32];
        __syncwarp();  // all 32 reads are done before the next round writes
    }
    out[i] = v;
}
// [/listing:rotate-syncwarp]

// [listing:rotate-shfl]
__global__ void rotate_shfl(const unsigned* in, unsigned* out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x % 32;
    unsigned v = in[i];
    for (int round = 0; round < kRounds; ++round) v = __shfl_sync(kAllLanes, v, (lane + 1) % 32);
    out[i] = v;
}
// [/listing:rotate-shfl]

// [listing:rotate-nosync]
__global__ void rotate_nosync(const unsigned* in, unsigned* out) {
    __shared__ unsigned s[kThreads];
    const int t = threadIdx.x, lane = t % 32, warp_base = t - lane;
    const int i = blockIdx.x * blockDim.x + t;
    unsigned v = in[i];
    for (int round = 0; round < kRounds; ++round) {
        s[t] = v;                            // no __syncwarp: nothing orders these writes
        v = s[warp_base + (lane + 1) % 32];  // before the other lanes' reads
    }
    out[i] = v;
}
// [/listing:rotate-nosync]

// Mismatches against the CPU: after kRounds rotations, lane l holds what lane
// (l + kRounds) mod 32 of its warp started with.
long long count_mismatches(const std::vector<unsigned>& in, const std::vector<unsigned>& out) {
    long long bad = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
        const std::size_t lane = i % 32, base = i - lane;
        bad += out[i] == in[base + (lane + kRounds) % 32] ? 0 : 1;
    }
    return bad;
}

int run(int argc, char** argv) {
    book::options opts("Lanes of a warp exchanging values: __syncwarp, shuffles, and neither");
    bool small = false, nosync_only = false;
    opts.flag("--small", small, "one block (for compute-sanitizer)");
    opts.flag("--nosync", nosync_only, "run only the kernel without __syncwarp");
    if (const auto status = opts.parse(argc, argv)) return *status;

    const int blocks = small ? 1 : 4096;
    const std::size_t n = static_cast<std::size_t>(blocks) * kThreads;
    book::device_buffer<unsigned> in(n), out(n);
    book::fill_random_u32(in.data(), n, 99);
    const std::vector<unsigned> host_in = in.to_host();

    struct variant {
        const char* name;
        void (*kernel)(const unsigned*, unsigned*);
    };
    std::vector<variant> variants = {
        {"syncwarp", rotate_syncwarp}, {"shfl", rotate_shfl}, {"nosync", rotate_nosync}};
    if (nosync_only)
        variants = {{"nosync", rotate_nosync}};
    else if (small)
        variants.pop_back();  // --small alone: the correct kernels only, which must be clean
    std::printf(
        "\n%d blocks of %d threads; each warp rotates its values by one lane,\n"
        "%d times over\n\n",
        blocks, kThreads, kRounds);
    long long bad_synced = 0;
    for (const variant& v : variants) {
        BOOK_CUDA_CHECK(cudaMemset(out.data(), 0, out.bytes()));  // poison: inputs are never 0
        v.kernel<<<blocks, kThreads>>>(in.data(), out.data());
        BOOK_CHECK_LAUNCH();
        const long long bad = count_mismatches(host_in, out.to_host());
        book::report(std::string("mismatches_") + v.name, static_cast<double>(bad), "count");
        if (std::string(v.name) != "nosync") bad_synced += bad;
        std::printf("%-9s %lld of %zu values in the wrong place\n", v.name, bad, n);
    }
    if (!nosync_only) book::report("mismatches", static_cast<double>(bad_synced), "count");
    return 0;
}

}  // namespace

int main(int argc, char** argv) { return book::gpu_main(argc, argv, run); }
