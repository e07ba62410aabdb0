// Exercise 3.2's launch of the student's kernels by the tests' own driver, which
// both test sets use (through block_sum_check.cuh) and the bridge's worker side
// runs: apart from block_sum_check.cuh, which needs Catch2. Shipped to students
// with the visible tests.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <vector>

#include "block_sum_all.cuh"
#include "book/cuda.hpp"
#include "book/memory.hpp"

namespace ch03ex2test {

// The device half of launch_sums: x to the GPU, sum_to_every_thread (two == 0) or
// two_sums_to_every_thread (two == 1) launched with `blocks` blocks of `threads`
// threads, into outputs of one float per thread of the launch whose every word
// holds 0xFFFFFFFF first; the whole outputs back, the squares after the sums.
inline std::vector<float> launch_sums_here(const std::vector<float>& x, int threads, int blocks,
                                           int two) {
    if (threads < 32 || threads > 1024 || threads % 32 != 0 || blocks < 1 || blocks > 65535 ||
        x.size() > (1u << 26))
        throw std::invalid_argument(
            "launch_sums: threads a multiple of 32 up to 1024, 1 to 65535 "
            "blocks, at most 2^26 values");
    const std::size_t slots = static_cast<std::size_t>(blocks) * static_cast<std::size_t>(threads);
    if (slots < x.size()) throw std::invalid_argument("launch_sums: fewer threads than values");
    book::device_buffer<float> d_x(x.size()), d_sums(slots), d_squares(two ? slots : 0);
    d_x.from_host(x);
    BOOK_CUDA_CHECK(cudaMemset(d_sums.data(), 0xFF, d_sums.bytes()));
    if (two) BOOK_CUDA_CHECK(cudaMemset(d_squares.data(), 0xFF, d_squares.bytes()));
    // The kernel<<<blocks, threads>>>(...), in the runtime API's words: the tests
    // are host code (cmake/BookExerciseTargets.cmake, _bx_host_code).
    cudaLaunchConfig_t launch{};
    launch.gridDim = dim3(static_cast<unsigned>(blocks));
    launch.blockDim = dim3(static_cast<unsigned>(threads));
    const float* in = d_x.data();
    const int n = static_cast<int>(x.size());
    if (two)
        (void)cudaLaunchKernelEx(&launch, ch03ex2::two_sums_to_every_thread, in, n, d_sums.data(),
                                 d_squares.data());
    else
        (void)cudaLaunchKernelEx(&launch, ch03ex2::sum_to_every_thread, in, n, d_sums.data());
    BOOK_CHECK_LAUNCH();  // the launch's error, as after <<<...>>>
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> out = d_sums.to_host();
    if (two) {
        const std::vector<float> squares = d_squares.to_host();
        out.insert(out.end(), squares.begin(), squares.end());
    }
    return out;
}

// It launches the student's kernels, so where the tests are judged apart from the
// student's code (BOOK_GRADE_BRIDGED) it runs in the worker, and bridge.cu
// defines it on both sides; elsewhere (the student bundle) it is the _here one.
#ifdef BOOK_GRADE_BRIDGED
std::vector<float> launch_sums(const std::vector<float>& x, int threads, int blocks, int two);
#else
inline std::vector<float> launch_sums(const std::vector<float>& x, int threads, int blocks,
                                      int two) {
    return launch_sums_here(x, threads, blocks, two);
}
#endif

}  // namespace ch03ex2test
