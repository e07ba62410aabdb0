// Chapter 3, exercise 5, solved: the chapter's two-pass reduction, which is the
// book's reference for the exercise's speed points.
#include "fast_sum.cuh"

#include <algorithm>

namespace ch03ex5 {

namespace {

constexpr int kThreads = 256;

// The block's sum of v, in thread 0: shuffles in each warp, then warp 0 over the
// warps' sums.
__device__ float block_sum(float v) {
    __shared__ float warp_sum[kThreads / 32];
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
    if (threadIdx.x % 32 == 0) warp_sum[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = threadIdx.x < kThreads / 32 ? warp_sum[threadIdx.x] : 0.0f;
        for (int offset = 16; offset > 0; offset >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, offset);
    }
    return v;
}

// Pass 1: each block's share by a grid-stride loop, four independent loads in
// flight per thread, into partial[blockIdx.x].
__global__ void partial_sums(const float* __restrict__ x, std::size_t n,
                             float* __restrict__ partial) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * kThreads;
    std::size_t i = static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x;
    float a = 0.0f, b = 0.0f, c = 0.0f, d = 0.0f;
    for (; i + 3 * stride < n; i += 4 * stride) {
        a += x[i];
        b += x[i + stride];
        c += x[i + 2 * stride];
        d += x[i + 3 * stride];
    }
    for (; i < n; i += stride) a += x[i];
    const float s = block_sum((a + b) + (c + d));
    if (threadIdx.x == 0) partial[blockIdx.x] = s;
}

// Pass 2: one block over the partial results.
__global__ void final_sum(const float* __restrict__ partial, int count, float* __restrict__ out) {
    float v = 0.0f;
    for (int i = static_cast<int>(threadIdx.x); i < count; i += kThreads) v += partial[i];
    const float s = block_sum(v);
    if (threadIdx.x == 0) *out = s;
}

int blocks_for(std::size_t n) {
    static const int per_gpu = [] {
        int device = 0, sms = 0;
        BOOK_CUDA_CHECK(cudaGetDevice(&device));
        BOOK_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return sms * 8;  // 8 blocks of 256 threads per SM: 2048 threads, a full SM
    }();
    const std::size_t needed = (n + 4 * kThreads - 1) / (4 * kThreads);
    return static_cast<int>(std::max<std::size_t>(
        1, std::min<std::size_t>({needed, static_cast<std::size_t>(per_gpu), kScratchFloats})));
}

}  // namespace

void sum(const float* x, std::size_t n, float* out, float* scratch) {
    const int blocks = blocks_for(n);
    partial_sums<<<blocks, kThreads>>>(x, n, scratch);
    BOOK_CHECK_LAUNCH();
    final_sum<<<1, kThreads>>>(scratch, blocks, out);
    BOOK_CHECK_LAUNCH();
}

}  // namespace ch03ex5
