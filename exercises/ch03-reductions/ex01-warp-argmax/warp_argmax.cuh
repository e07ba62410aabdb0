/// @file warp_argmax.cuh
/// @brief Chapter 3, exercise 1: the largest value of each warp and where it
/// is, found with warp shuffles.
#pragma once

#include <vector>

namespace ch03ex1 {

/// Lanes per warp.
inline constexpr int kWarpWidth = 32;

/// Threads per block in arg_max_on_gpu's launch (a multiple of kWarpWidth, so
/// that every warp lies inside one block).
inline constexpr int kBlockThreads = 128;

/// A value and its index in the input.
struct value_index {
    float value;
    int index;
};

/// Warps that cover `n` elements, one element per lane: `ceil(n / 32)`.
inline int warps_for(int n) { return (n + kWarpWidth - 1) / kWarpWidth; }

/// For each warp, the largest of its elements and where it is.
///
/// Thread `i = blockIdx.x * blockDim.x + threadIdx.x` holds `x[i]`; warp
/// `w = i / 32` covers `x[32w .. 32w + 31]` (fewer at the end of the input).
/// Lane 0 of warp w writes to `out[w]` the largest of those values and its
/// index; where the largest value occurs more than once, the smallest of its
/// indices. The lanes combine their candidates with warp shuffles
/// (`__shfl_down_sync` or `__shfl_xor_sync`, full mask): no shared memory, no
/// atomics. Lanes past the end of the input take part in every shuffle and
/// never win, not even against a warp whose values are all -infinity. Warps
/// that lie wholly past the end write nothing.
///
/// `x` holds no NaN. Launch with `blockDim.x` a multiple of 32 and at least
/// `ceil(n / 32)` warps in all; `out` holds `ceil(n / 32)` elements.
__global__ void arg_max_per_warp(const float* x, int n, value_index* out);

/// Copy `x` to the GPU, launch arg_max_per_warp over it with blocks of
/// kBlockThreads threads and return the `ceil(n / 32)` results (empty for an
/// empty `x`). Every CUDA call and the launch are checked.
/// @throws book::cuda_error when a CUDA call or the launch fails.
/// @throws std::length_error when `x` has more than INT_MAX elements.
std::vector<value_index> arg_max_on_gpu(const std::vector<float>& x);

}  // namespace ch03ex1
