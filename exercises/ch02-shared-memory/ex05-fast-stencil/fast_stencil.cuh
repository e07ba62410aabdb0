/// @file fast_stencil.cuh
/// @brief Chapter 2, exercise 5: the chapter's 1-D stencil on the GPU, graded on
/// its speed against the book's reference stencil as well as on its answers.
#pragma once

#include <cstddef>

#include "book/cuda.hpp"

namespace ch02ex5 {

/// The stencil's radius: each output sums 2 x kRadius + 1 inputs.
inline constexpr int kRadius = 3;

/// out[i] = in[i - 3] + in[i - 2] + ... + in[i + 3] for 0 <= i < n, where values
/// outside [0, n) count as 0 (the chapter's zero boundary), on the default stream:
/// stencil() may return before the work is done (the caller waits for the
/// device), and leaves nothing running on any other stream when that work is done.
/// in and out are device memory, 16-byte aligned, and do not overlap; nothing
/// past out[n - 1] may be written. n < 2^31.
/// The inputs of the tests and of the timing are whole numbers from -8 to 8, so
/// every order of the additions gives the same, exact sums.
/// @throws book::cuda_error when a CUDA call or a launch fails.
void stencil(const float* in, float* out, std::size_t n);

}  // namespace ch02ex5
