/// @file stencil_2d.cuh
/// @brief Chapter 2, exercise 2: the 5-point stencil on a 2D grid, from a
/// shared tile with a one-cell halo.
#pragma once

#include <cstddef>
#include <vector>

namespace ex02 {

/// The block's shape: kTileX x kTileY threads, one output each. A warp is one
/// row of the tile.
inline constexpr int kTileX = 32;
inline constexpr int kTileY = 8;

/// The 5-point stencil on a width x height grid stored by rows
/// (cell (x, y) is element y * width + x), with a zero boundary:
///
///     out(x, y) = in(x, y) + in(x - 1, y) + in(x + 1, y) + in(x, y - 1) + in(x, y + 1),
///
/// where a cell outside the grid counts as 0.
///
/// Launched with blocks of kTileX x kTileY threads and a grid of
/// ceil(width / kTileX) x ceil(height / kTileY) blocks (no dynamic shared
/// memory), for width, height >= 1. Thread (tx, ty) of block (bx, by) computes
/// the cell x = bx * kTileX + tx, y = by * kTileY + ty, if it is inside the
/// grid. The block first loads its cells and a halo one cell wide on each of
/// the four sides into a __shared__ tile of (kTileY + 2) x (kTileX + 2) floats,
/// waits at one __syncthreads(), and then sums from the tile only. It reads
/// in only inside the grid and writes out only inside the grid.
__global__ void stencil5_tiled(const float* in, float* out, int width, int height);

/// Copy `in` (width x height floats, by rows) to the GPU, launch
/// stencil5_tiled on it as above, and return the width x height outputs
/// (empty when width or height is 0, with no launch). Every CUDA call and the
/// launch are checked.
/// @throws std::invalid_argument when width or height is negative, when
///         height > 65535 * kTileY (the grid's limit in y), or when
///         in.size() != width * height.
/// @throws book::cuda_error when a CUDA call or the launch fails.
std::vector<float> stencil5_on_gpu(const std::vector<float>& in, int width, int height);

}  // namespace ex02
