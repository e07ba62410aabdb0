/// @file read_sum.cuh
/// @brief Chapter 4, exercise 3: a streaming read that reaches 90% of its own
/// full-occupancy bandwidth with a quarter of the warps, by keeping more bytes
/// in flight per thread.
#pragma once

#include <cstddef>

#include "book/cuda.hpp"

namespace ch04ex3 {

/// Threads per block of every launch: 4 warps.
inline constexpr int kThreads = 128;

/// Adds every 32-bit word of x[0..n) (n 16-byte vectors, 4 words each) into
/// *total with atomicAdd (wrapping modulo 2^32, as unsigned arithmetic does).
/// Launched with blocks of kThreads threads and any number of blocks: each
/// thread reads the vectors i, i + S, i + 2S, ... of a grid-stride loop (S the
/// threads of the grid), so that each vector is read once.
__global__ void read_sum(const uint4* x, std::size_t n, unsigned* total);

}  // namespace ch04ex3
