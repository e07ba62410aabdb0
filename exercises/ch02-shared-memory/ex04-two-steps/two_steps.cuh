/// @file two_steps.cuh
/// @brief Chapter 2, exercise 4: two steps of the R = 3 stencil per trip to
/// global memory (temporal blocking, section 2.7), through a shared tile with a
/// halo of 2R on each side.
#pragma once

#include <cstddef>
#include <vector>

namespace ex04 {

/// The stencil's radius: one step is out[i] = in[i - 3] + ... + in[i + 3].
inline constexpr int kRadius = 3;

/// Threads per block of every launch of two_steps, and outputs per block.
inline constexpr int kBlockThreads = 256;

/// The input tile's halo on each side: two steps need 2R neighbours.
inline constexpr int kHalo = 2 * kRadius;

/// Floats of the input tile (the block's inputs and kHalo on each side) and of
/// the intermediate tile (the first step's values the second step reads: the
/// block's outputs and kRadius on each side).
inline constexpr int kInputTileFloats = kBlockThreads + 2 * kHalo;
inline constexpr int kStepTileFloats = kBlockThreads + 2 * kRadius;

/// Bytes of dynamic shared memory one block of two_steps gets: both tiles,
/// the input tile first.
inline constexpr std::size_t tile_bytes() {
    return sizeof(float) * static_cast<std::size_t>(kInputTileFloats + kStepTileFloats);
}

/// Two steps of the stencil of radius kRadius with a zero boundary at every
/// step: with s(x)[i] = x[i - R] + ... + x[i + R], where x[j] counts as 0 for
/// j outside [0, n),
///
///     mid = s(in),   out[i] = s(mid)[i]   for 0 <= i < n,
///
/// so mid[j] is 0 outside [0, n) too: it is not s(in)[j] there.
///
/// Launched with kBlockThreads threads per block, ceil(n / kBlockThreads)
/// blocks and tile_bytes() bytes of dynamic shared memory, for n >= 1. Block b
/// reads in[b * kBlockThreads - kHalo ..] into its input tile once, computes
/// the first step in shared memory, and writes out[b * kBlockThreads ..] (its
/// kBlockThreads outputs, fewer in the last block). It reads in[j] only for
/// 0 <= j < n and writes out[i] only for 0 <= i < n, and it reads no global
/// memory but `in`: the first step's values live in shared memory only.
__global__ void two_steps(const float* in, float* out, int n);

/// Copy `in` to the GPU, launch two_steps on it once as above, and return the
/// n outputs (empty for empty input, with no launch). The device arrays hold
/// exactly n floats each. Every CUDA call and the launch are checked.
/// @throws std::length_error when `in` has more than INT_MAX elements.
/// @throws book::cuda_error when a CUDA call or the launch fails.
std::vector<float> two_steps_on_gpu(const std::vector<float>& in);

}  // namespace ex04
