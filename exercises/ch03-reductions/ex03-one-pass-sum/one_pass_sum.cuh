/// @file one_pass_sum.cuh
/// @brief Chapter 3, exercise 3: a sum of the whole array in one launch, the
/// last block to finish adding the blocks' partial sums.
#pragma once

#include <vector>

#include "book/cuda.hpp"

namespace ch03ex3 {

/// Threads per block of every launch (a multiple of 32).
inline constexpr int kThreads = 256;

/// The sum of `v` over the block, in thread 0 (the other threads get partial
/// sums): each warp adds its 32 values by shuffles, lane 0 of each warp leaves
/// the warp's sum in shared memory, and warp 0 adds those. Every thread of the
/// block must call it; blockDim.x is a multiple of 32. It ends without a
/// barrier: two calls in a row need a __syncthreads() between them.
__device__ inline float block_sum(float v) {
    __shared__ float warp_sums[32];
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < blockDim.x / 32 ? warp_sums[lane] : 0.0f;
        for (int offset = 16; offset > 0; offset >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, offset);
    }
    return v;
}

/// The sum of x[0..n) into *out, in one launch of gridDim.x blocks of
/// kThreads threads (any number of blocks, more or fewer than the elements).
///
/// Each block adds up its share of x (a grid-stride loop: thread g of the grid
/// adds x[g], x[g + S], ... for S threads in the grid) with block_sum and
/// writes the result to partials[blockIdx.x], also when its share is empty.
/// Then thread 0 of the block takes a ticket: it adds 1 to *blocks_done and
/// learns the count before its own addition. The block that draws the last
/// ticket (gridDim.x - 1) adds all gridDim.x partial sums, writes the total to
/// *out, and sets *blocks_done back to 0 for the next launch. The ticket must
/// order memory: each block's partial sum must be visible to the last block
/// before that block's ticket is counted.
///
/// *blocks_done is 0 when the launch starts; partials holds gridDim.x floats.
__global__ void sum_one_pass(const float* x, int n, float* partials, unsigned* blocks_done,
                             float* out);

/// Sums of arrays on the GPU, with sum_one_pass and a fixed number of blocks:
/// the partial sums and the counter are allocated once (the counter set to 0
/// once, here) and used by every call.
class one_pass_summer {
public:
    /// @throws std::invalid_argument unless 1 <= blocks <= 65535.
    explicit one_pass_summer(int blocks);
    /// The sum of x: copies x to the GPU, fills *out and the partial sums with
    /// NaN, launches sum_one_pass once and returns *out.
    /// @throws book::cuda_error when a CUDA call or the launch fails.
    float sum(const std::vector<float>& x);
    int blocks() const noexcept { return blocks_; }

private:
    int blocks_;
    book::device_buffer<float> partials_, out_;
    book::device_buffer<unsigned> blocks_done_;
};

}  // namespace ch03ex3
