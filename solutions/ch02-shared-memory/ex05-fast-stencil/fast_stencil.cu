// Chapter 2, exercise 5, solved: the chapter's tiled stencil with 16-byte loads
// (stencil_tiled_vec of code/ch02-shared-memory/stencil_kernels.cuh, at R = 3 and
// two chunks of 4 outputs per thread), which is the book's reference for the
// exercise's speed points.
#include "fast_stencil.cuh"

namespace ch02ex5 {

namespace {

constexpr int kThreads = 256;
constexpr int kChunks = 2;                                 // float4 chunks of outputs per thread
constexpr long long kPerBlock = 4LL * kChunks * kThreads;  // outputs per block
// The halo: kRadius rounded up to a whole float4 on each side, one chunk.
constexpr int kPad = 4;
static_assert(kRadius <= kPad, "the halo is one float4 on each side");

// The block's outputs [start, start + kPerBlock) from a shared tile: slot 1 + m
// holds the block's chunk m, slots 0 and kChunks x kThreads + 1 the halo. An
// interior block loads its chunks with 16-byte loads, all in flight before any is
// stored; a block at either end of the array loads float by float, with zeros
// outside [0, n).
__global__ void stencil_tiled_vec(const float* __restrict__ in, float* __restrict__ out,
                                  long long n) {
    __shared__ float4 tile[kChunks * kThreads + 2];
    const long long start = blockIdx.x * kPerBlock;
    if (start - kPad >= 0 && start + kPerBlock + kPad <= n) {
        const auto* in4 = reinterpret_cast<const float4*>(in + start);
        float4 r[kChunks];
#pragma unroll
        for (int v = 0; v < kChunks; ++v) r[v] = __ldg(in4 + threadIdx.x + v * kThreads);
        float4 halo{};
        if (threadIdx.x < 2) halo = __ldg(in4 + (threadIdx.x == 0 ? -1 : kChunks * kThreads));
#pragma unroll
        for (int v = 0; v < kChunks; ++v) tile[1 + threadIdx.x + v * kThreads] = r[v];
        if (threadIdx.x < 2) tile[threadIdx.x == 0 ? 0 : kChunks * kThreads + 1] = halo;
    } else {
        auto* floats = reinterpret_cast<float*>(tile);
        for (int k = threadIdx.x; k < kPerBlock + 2 * kPad; k += kThreads) {
            const long long j = start - kPad + k;
            floats[k] = (j >= 0 && j < n) ? in[j] : 0.0f;
        }
    }
    __syncthreads();  // the whole tile is written before anyone reads it
#pragma unroll
    for (int v = 0; v < kChunks; ++v) {
        const int m = threadIdx.x + v * kThreads;
        const long long p = start + 4LL * m;
        if (p >= n) break;
        // Chunk m and its neighbours, three float4 reads of the tile: e[4 + j] is
        // output p + j's own input.
        float e[12];
#pragma unroll
        for (int q = 0; q < 3; ++q) {
            const float4 c = tile[m + q];
            e[4 * q] = c.x;
            e[4 * q + 1] = c.y;
            e[4 * q + 2] = c.z;
            e[4 * q + 3] = c.w;
        }
        float s[4];
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            s[j] = 0.0f;
#pragma unroll
            for (int d = -kRadius; d <= kRadius; ++d) s[j] += e[4 + j + d];
        }
        if (p + 4 <= n) {
            reinterpret_cast<float4*>(out)[p / 4] = make_float4(s[0], s[1], s[2], s[3]);
        } else {
            for (int j = 0; j < 4 && p + j < n; ++j) out[p + j] = s[j];
        }
    }
}

}  // namespace

void stencil(const float* in, float* out, std::size_t n) {
    if (n == 0) return;
    const auto blocks = (static_cast<long long>(n) + kPerBlock - 1) / kPerBlock;
    stencil_tiled_vec<<<static_cast<unsigned>(blocks), kThreads>>>(in, out,
                                                                   static_cast<long long>(n));
    BOOK_CHECK_LAUNCH();
}

}  // namespace ch02ex5
