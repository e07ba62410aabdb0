/// @file block_sum_all.cuh
/// @brief Chapter 3, exercise 2: a block reduction that leaves the sum in
/// every thread, built from the butterfly of `__shfl_xor_sync`.
#pragma once

#include <vector>

namespace ch03ex2 {

/// Lanes per warp.
inline constexpr int kWarpWidth = 32;

/// The sum of `v` over the 32 lanes of the warp, in every lane: five steps of
/// `__shfl_xor_sync(0xffffffff, v, m)` for m = 16, 8, 4, 2, 1. All 32 lanes
/// must call it. Every lane ends with the same bits.
__device__ float warp_sum_all(float v);

/// The sum of `v` over the whole block, in every thread of the block: each
/// warp's sum by warp_sum_all, the warps' sums through shared memory, and
/// their sum by warp_sum_all again, in every warp. Every thread of the block
/// must call it; blockDim.x is a multiple of 32, at most 1024. It may be
/// called several times in a row. Every thread ends with the same bits.
__device__ float block_sum_all(float v);

/// For blocks of blockDim.x threads over x[0..n) (the last block may be
/// partial): thread i < n writes the sum of its block's elements to out[i];
/// a thread past the end adds 0 and writes nothing.
__global__ void sum_to_every_thread(const float* x, int n, float* out);

/// As sum_to_every_thread, with two sums in a row: thread i < n writes its
/// block's sum of x to sums[i] and its block's sum of x squared to squares[i].
__global__ void two_sums_to_every_thread(const float* x, int n, float* sums, float* squares);

/// Launch sum_to_every_thread over `x` with blocks of `threads` threads and
/// return out[0..n). @throws std::invalid_argument unless `threads` is a
/// multiple of 32 from 32 to 1024. @throws book::cuda_error when a CUDA call
/// or the launch fails.
std::vector<float> sums_on_gpu(const std::vector<float>& x, int threads);

/// Launch two_sums_to_every_thread; returns {sums, squares}.
/// @throws as sums_on_gpu.
std::vector<std::vector<float>> two_sums_on_gpu(const std::vector<float>& x, int threads);

}  // namespace ch03ex2
