/// @file warp_map.hpp
/// @brief Chapter 1, exercise 1: which warp and which lane each thread of a
/// block runs in, and which warps a branch on `threadIdx.x` splits.
#pragma once

#include <vector>

namespace ex01 {

/// Lanes per warp: 32 on every NVIDIA GPU so far.
inline constexpr int kWarpWidth = 32;

/// A block's extent, like CUDA's `blockDim`. Every component is at least 1.
struct BlockShape {
    int x = 1;  ///< Threads along x (the fastest-varying index).
    int y = 1;  ///< Threads along y.
    int z = 1;  ///< Threads along z (the slowest-varying index).
};

/// The warp (0, 1, 2, ...) that thread (`x`, `y`, `z`) of a block of shape
/// `block` belongs to.
/// @throws std::invalid_argument when a component of `block` is below 1, or
///         when (`x`, `y`, `z`) is not a thread of the block.
int warp_of_thread(int x, int y, int z, BlockShape block);

/// The lane (0..31) of thread (`x`, `y`, `z`) within its warp.
/// @throws std::invalid_argument as warp_of_thread does.
int lane_of_thread(int x, int y, int z, BlockShape block);

/// How many warps a block of shape `block` occupies. A partial last warp
/// counts as a whole warp.
/// @throws std::invalid_argument when a component of `block` is below 1.
int warps_in_block(BlockShape block);

/// How many lanes of the block's last warp hold a thread (1..32; 32 when the
/// block's thread count is a multiple of 32).
/// @throws std::invalid_argument when a component of `block` is below 1.
int active_lanes_in_last_warp(BlockShape block);

/// The warps of a 1-D block of `block_threads` threads that diverge at
/// `if (threadIdx.x < threshold)`: those whose threads do not all agree on the
/// condition. Lanes of a partial last warp that hold no thread do not count.
/// @return warp indices in increasing order; empty when every warp is uniform.
/// @throws std::invalid_argument when `block_threads` is below 1.
std::vector<int> diverging_warps_for_threshold(int block_threads, int threshold);

}  // namespace ex01
