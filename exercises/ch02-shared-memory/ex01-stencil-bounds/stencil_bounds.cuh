/// @file stencil_bounds.cuh
/// @brief Chapter 2, exercise 1: a tiled 1D stencil that is right at both ends
/// of the array, for any radius, with the edge values repeated outside it.
#pragma once

#include <cstddef>
#include <vector>

namespace ex01 {

/// Threads per block of every launch of stencil_clamped.
inline constexpr int kBlockThreads = 256;

/// The largest radius stencil_on_gpu accepts (larger than a block).
inline constexpr int kMaxRadius = 1024;

/// Bytes of dynamic shared memory one block of stencil_clamped gets: a tile of
/// kBlockThreads + 2 * radius floats, the block's inputs and a halo of
/// `radius` floats on each side.
inline constexpr std::size_t tile_bytes(int radius) {
    return sizeof(float) * static_cast<std::size_t>(kBlockThreads + 2 * radius);
}

/// The stencil of radius `radius` with a clamped boundary:
///
///     out[i] = in[c(i - radius)] + ... + in[c(i + radius)]    for 0 <= i < n,
///
/// where c(j) clamps j into [0, n - 1]: outside the array, the value at its
/// nearest end counts (in[0] on the left, in[n - 1] on the right).
///
/// Launched with kBlockThreads threads per block, ceil(n / kBlockThreads)
/// blocks and tile_bytes(radius) bytes of dynamic shared memory, for n >= 1 and
/// 0 <= radius <= kMaxRadius. Block b computes out[b * kBlockThreads ..] from a
/// shared tile holding in[c(j)] for j = b * kBlockThreads - radius, ...,
/// b * kBlockThreads + kBlockThreads - 1 + radius. It reads in[j] only for
/// 0 <= j < n and writes out[i] only for 0 <= i < n.
__global__ void stencil_clamped(const float* in, float* out, int n, int radius);

/// Copy `in` to the GPU, launch stencil_clamped on it as above, and return the
/// n outputs (empty for empty input, with no launch). The device arrays hold
/// exactly n floats each. Every CUDA call and the launch are checked.
/// @throws std::invalid_argument when radius < 0 or radius > kMaxRadius.
/// @throws std::length_error when `in` has more than INT_MAX elements.
/// @throws book::cuda_error when a CUDA call or the launch fails.
std::vector<float> stencil_on_gpu(const std::vector<float>& in, int radius);

}  // namespace ex01
