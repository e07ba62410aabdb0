/// @file warp_vote.cuh
/// @brief Chapter 1, exercise 3: each warp counts its elements above a
/// threshold with one vote (`__ballot_sync`) and one bit count (`__popc`).
#pragma once

#include <cstddef>
#include <vector>

namespace ex03 {

/// Lanes per warp.
inline constexpr int kWarpWidth = 32;

/// Threads per block in count_on_gpu's launch (a multiple of kWarpWidth, so
/// that every warp lies inside one block).
inline constexpr int kBlockThreads = 256;

/// Warps that cover `n` elements, one element per lane: `ceil(n / 32)`.
inline std::size_t warps_for(std::size_t n) { return (n + kWarpWidth - 1) / kWarpWidth; }

/// Count, warp by warp, the elements of `data[0..n)` greater than `threshold`.
///
/// Thread `i = blockIdx.x * blockDim.x + threadIdx.x` looks at `data[i]`;
/// warp `w = i / 32` covers `data[32w .. 32w + 31]`. Each warp takes one vote,
/// `__ballot_sync(0xffffffff, data[i] > threshold)`, with every one of its 32
/// lanes taking part, also the lanes past the end of the data (they vote
/// false and read nothing). Lane 0 writes `__popc` of the vote to
/// `per_warp_counts[w]`. Warps that lie wholly past the end write nothing.
///
/// Launch with `blockDim.x` a multiple of 32 and at least `ceil(n / 32)` warps
/// in all; `per_warp_counts` holds `ceil(n / 32)` elements.
__global__ void count_matching(const int* data, int n, int threshold, unsigned* per_warp_counts);

/// Copy `data` to the GPU, launch count_matching over it with blocks of
/// kBlockThreads threads, and return the `ceil(n / 32)` per-warp counts
/// (empty for empty data). Uses book::device_buffer; every CUDA call and the
/// launch are checked.
/// @throws book::cuda_error when a CUDA call or the launch fails.
/// @throws std::length_error when `data` has more than INT_MAX elements.
std::vector<unsigned> count_on_gpu(const std::vector<int>& data, int threshold);

}  // namespace ex03
