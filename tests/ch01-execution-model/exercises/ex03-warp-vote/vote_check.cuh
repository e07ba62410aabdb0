// Exercise 1.3's test code that both test sets use (visible.test.cu and the
// grader's hidden.test.cu): count_matching itself, launched by the tests' own
// driver with a configuration the test draws, into an output whose every word
// holds a mark first. Shipped to students with the visible tests.
//
// Why: count_on_gpu's outputs can be computed without a GPU; these cannot. The
// kernel is the student's, the launch and the copies are the driver's, so a
// count reaches the test only if the student's kernel wrote it on the device.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <vector>

#include "book/cuda.hpp"
#include "book/memory.hpp"
#include "warp_vote.cuh"

namespace ex03_check {

// A word count_matching never writes (a count is at most 32): every word of the
// output holds it before the launch.
constexpr unsigned kUnwritten = 0xFFFFFFFFu;

// The device half of launch_count: `data` to the GPU, count_matching launched
// over it with `blocks` blocks of `threads` threads, into an output of one word
// per warp of the launch, each holding kUnwritten first; the whole output back.
inline std::vector<unsigned> launch_count_here(const std::vector<int>& data, int threshold,
                                               int threads, int blocks) {
    if (threads < 32 || threads > 1024 || threads % 32 != 0 || blocks < 1 || blocks > 65535)
        throw std::invalid_argument(
            "launch_count: threads a multiple of 32 up to 1024, 1 to "
            "65535 blocks");
    const std::size_t warps =
        static_cast<std::size_t>(blocks) * static_cast<std::size_t>(threads) / 32;
    if (warps < ex03::warps_for(data.size()) || data.size() > (1u << 26))
        throw std::invalid_argument("launch_count: fewer warps than the data needs");
    book::device_buffer<int> d_data(data.size());
    d_data.from_host(data);
    book::device_buffer<unsigned> d_out(warps);
    BOOK_CUDA_CHECK(cudaMemset(d_out.data(), 0xFF, d_out.bytes()));
    // count_matching<<<blocks, threads>>>(...), in the runtime API's words: the
    // tests are host code (cmake/BookExerciseTargets.cmake, _bx_host_code).
    cudaLaunchConfig_t launch{};
    launch.gridDim = dim3(static_cast<unsigned>(blocks));
    launch.blockDim = dim3(static_cast<unsigned>(threads));
    const int* in = d_data.data();
    (void)cudaLaunchKernelEx(&launch, ex03::count_matching, in, static_cast<int>(data.size()),
                             threshold, d_out.data());
    BOOK_CHECK_LAUNCH();  // the launch's error, as after <<<...>>>
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());
    return d_out.to_host();
}

// It launches the student's kernel, so where the tests are judged apart from the
// student's code (BOOK_GRADE_BRIDGED) it runs in the worker, and bridge.cu
// defines it on both sides; elsewhere (the student bundle) it is launch_count_here.
#ifdef BOOK_GRADE_BRIDGED
std::vector<unsigned> launch_count(const std::vector<int>& data, int threshold, int threads,
                                   int blocks);
#else
inline std::vector<unsigned> launch_count(const std::vector<int>& data, int threshold, int threads,
                                          int blocks) {
    return launch_count_here(data, threshold, threads, blocks);
}
#endif

// What launch_count must give: the count of each warp that covers data, then
// kUnwritten for every warp of the launch past the end.
inline std::vector<unsigned> expected_launch(const std::vector<int>& data, int threshold,
                                             int threads, int blocks) {
    std::vector<unsigned> out(
        static_cast<std::size_t>(blocks) * static_cast<std::size_t>(threads) / 32, kUnwritten);
    for (std::size_t w = 0; w < ex03::warps_for(data.size()); ++w) out[w] = 0;
    for (std::size_t i = 0; i < data.size(); ++i)
        if (data[i] > threshold) ++out[i / 32];
    return out;
}

}  // namespace ex03_check
