/// @file one_pass_max.cuh
/// @brief Chapter 3, exercise 3: the maximum of an array in one launch, the
/// last block to finish combining the blocks' results.
#pragma once

#include <cmath>
#include <vector>

#include "book/cuda.hpp"

namespace ch03ex3 {

/// Threads per block of every launch (a multiple of 32).
inline constexpr int kThreads = 256;

/// The largest `v` of the block, in thread 0 (the other threads get partial
/// results): each warp by shuffles, lane 0 of each warp leaves the warp's
/// maximum in shared memory, and warp 0 combines those. Every thread of the
/// block must call it; blockDim.x is a multiple of 32. It ends without a
/// barrier: two calls in a row need a __syncthreads() between them.
/// (Device code, so only for nvcc: the tests that include this header are host
/// code, compiled by the host compiler.)
#ifdef __CUDACC__
__device__ inline float block_max(float v) {
    __shared__ float warp_max[32];
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (int offset = 16; offset > 0; offset >>= 1)
        v = fmaxf(v, __shfl_down_sync(0xffffffffu, v, offset));
    if (lane == 0) warp_max[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < blockDim.x / 32 ? warp_max[lane] : -INFINITY;
        for (int offset = 16; offset > 0; offset >>= 1)
            v = fmaxf(v, __shfl_down_sync(0xffffffffu, v, offset));
    }
    return v;
}
#endif

/// The largest value of x[0..n) into *out (-infinity when n is 0), in one
/// launch of gridDim.x blocks of kThreads threads (any number of blocks, more
/// or fewer than the elements).
///
/// Each block finds the largest value of its share of x (a grid-stride loop:
/// thread g of the grid looks at x[g], x[g + S], ... for S threads in the
/// grid) with block_max, and writes it to partials[blockIdx.x], also when its
/// share is empty (then -infinity). Thread 0 then takes a ticket from
/// *blocks_done: an atomic increment that returns the count before it. The
/// block that draws the last ticket (gridDim.x - 1) combines all gridDim.x
/// partial results and writes the maximum to *out. The tickets must order
/// memory: every block's partial result is visible to the last block. And
/// *blocks_done must be 0 again when the launch ends, for the next one.
///
/// x holds no NaN. *blocks_done is 0 when the first launch starts; partials
/// holds gridDim.x floats.
__global__ void max_one_pass(const float* x, int n, float* partials, unsigned* blocks_done,
                             float* out);

/// Maxima of arrays on the GPU, with max_one_pass and a fixed number of
/// blocks: the partial results and the counter are allocated once (the counter
/// set to 0 once, here) and used by every call.
class one_pass_max {
public:
    /// @throws std::invalid_argument unless 1 <= blocks <= 65535.
    explicit one_pass_max(int blocks);
    /// The largest value of x: copies x to the GPU, fills *out and the partial
    /// results with NaN, launches max_one_pass once and returns *out.
    /// @throws book::cuda_error when a CUDA call or the launch fails.
    float max(const std::vector<float>& x);
    int blocks() const noexcept { return blocks_; }

private:
    int blocks_;
    book::device_buffer<float> partials_, out_;
    book::device_buffer<unsigned> blocks_done_;
};

}  // namespace ch03ex3
