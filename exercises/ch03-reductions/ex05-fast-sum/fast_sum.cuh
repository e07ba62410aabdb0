/// @file fast_sum.cuh
/// @brief Chapter 3, exercise 5: the sum of an array on the GPU, graded on its
/// speed against the book's reference reduction as well as on its answers.
#pragma once

#include <cstddef>

#include "book/cuda.hpp"

namespace ch03ex5 {

/// Floats of device memory the caller gives sum() to use as it likes (the
/// blocks' partial results, say).
inline constexpr std::size_t kScratchFloats = std::size_t{1} << 16;

/// The sum of x[0..n) into *out (0 when n is 0), on the default stream: sum()
/// may return before the work is done (the caller waits for the device), and
/// leaves nothing running on any other stream when that work is done.
/// x, out and scratch are device memory; x is aligned to 4 bytes (not
/// necessarily 16); scratch holds kScratchFloats floats. n < 2^31.
/// The inputs of the tests and of the timing are whole numbers from -8 to 8, so
/// every order of the additions gives the same, exact sum.
/// @throws book::cuda_error when a CUDA call or a launch fails.
void sum(const float* x, std::size_t n, float* out, float* scratch);

}  // namespace ch03ex5
