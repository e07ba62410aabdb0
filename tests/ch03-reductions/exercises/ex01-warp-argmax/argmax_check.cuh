// Exercise 3.1's test code that both test sets use (visible.test.cu and the
// grader's hidden.test.cu): the comparison of per-warp results, and
// arg_max_per_warp itself launched by the tests' own driver with a configuration
// the test draws, into an output whose every byte holds a mark first (the
// outputs of arg_max_on_gpu can be computed without a GPU; these come only from
// the student's kernel, on the device). Shipped to students with the visible tests.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "book/cuda.hpp"
#include "book/memory.hpp"
#include "warp_argmax.cuh"

namespace ch03ex1test {

// "" when the results agree, else where they first differ.
inline std::string first_difference(const std::vector<ch03ex1::value_index>& got,
                                    const std::vector<ch03ex1::value_index>& want) {
    if (got.size() != want.size())
        return "got " + std::to_string(got.size()) + " results, want " +
               std::to_string(want.size());
    for (std::size_t w = 0; w < got.size(); ++w)
        if (got[w].value != want[w].value || got[w].index != want[w].index)
            return "warp " + std::to_string(w) + ": got (" + std::to_string(got[w].value) + ", " +
                   std::to_string(got[w].index) + "), want (" + std::to_string(want[w].value) +
                   ", " + std::to_string(want[w].index) + ")";
    return "";
}

// The device half of launch_arg_max: x to the GPU, arg_max_per_warp launched with
// `blocks` blocks of `threads` threads, into an output of one value_index per
// warp of the launch whose every byte is 0xFF first; the whole output back.
inline std::vector<ch03ex1::value_index> launch_arg_max_here(const std::vector<float>& x,
                                                             int threads, int blocks) {
    if (threads < 32 || threads > 1024 || threads % 32 != 0 || blocks < 1 || blocks > 65535 ||
        x.size() > (1u << 26))
        throw std::invalid_argument(
            "launch_arg_max: threads a multiple of 32 up to 1024, 1 to "
            "65535 blocks, at most 2^26 values");
    const std::size_t warps =
        static_cast<std::size_t>(blocks) * static_cast<std::size_t>(threads) / 32;
    if (warps < static_cast<std::size_t>(ch03ex1::warps_for(static_cast<int>(x.size()))))
        throw std::invalid_argument("launch_arg_max: fewer warps than the values need");
    book::device_buffer<float> d_x(x.size());
    d_x.from_host(x);
    book::device_buffer<ch03ex1::value_index> d_out(warps);
    BOOK_CUDA_CHECK(cudaMemset(d_out.data(), 0xFF, d_out.bytes()));
    // arg_max_per_warp<<<blocks, threads>>>(...), in the runtime API's words: the
    // tests are host code (cmake/BookExerciseTargets.cmake, _bx_host_code).
    cudaLaunchConfig_t launch{};
    launch.gridDim = dim3(static_cast<unsigned>(blocks));
    launch.blockDim = dim3(static_cast<unsigned>(threads));
    const float* in = d_x.data();
    (void)cudaLaunchKernelEx(&launch, ch03ex1::arg_max_per_warp, in, static_cast<int>(x.size()),
                             d_out.data());
    BOOK_CHECK_LAUNCH();  // the launch's error, as after <<<...>>>
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());
    return d_out.to_host();
}

// It launches the student's kernel, so where the tests are judged apart from the
// student's code (BOOK_GRADE_BRIDGED) it runs in the worker, and bridge.cu
// defines it on both sides; elsewhere (the student bundle) it is the _here one.
#ifdef BOOK_GRADE_BRIDGED
std::vector<ch03ex1::value_index> launch_arg_max(const std::vector<float>& x, int threads,
                                                 int blocks);
#else
inline std::vector<ch03ex1::value_index> launch_arg_max(const std::vector<float>& x, int threads,
                                                        int blocks) {
    return launch_arg_max_here(x, threads, blocks);
}
#endif

// Launches drawn from `seed` (sizes, block sizes, grids with warps to spare,
// values with ties and -infinity): "" when every warp of the data has its
// largest value and first index and every other warp's bytes are untouched,
// else the first launch and warp that differ.
inline std::string check_launches(unsigned seed) {
    std::mt19937 gen(seed);
    for (int k = 0; k < 12; ++k) {
        const std::size_t n = k == 0 ? 0 : gen() % 20000;
        const int threads = 32 * static_cast<int>(1 + gen() % 32);
        const std::size_t lanes =
            static_cast<std::size_t>(ch03ex1::warps_for(static_cast<int>(n))) * 32;
        const int blocks = static_cast<int>((lanes + static_cast<std::size_t>(threads) - 1) /
                                            static_cast<std::size_t>(threads)) +
                           static_cast<int>(gen() % 3) + (n == 0 ? 1 : 0);
        std::vector<float> x(n);
        for (float& v : x)
            v = k % 3 == 1 && gen() % 4 == 0
                    ? -INFINITY
                    : static_cast<float>(static_cast<int>(gen() % 2001) - 1000) * 0.25f;
        const auto got = launch_arg_max(x, threads, blocks);
        const std::string where = "launch " + std::to_string(k) + " (" + std::to_string(n) +
                                  " values, " + std::to_string(blocks) + " blocks of " +
                                  std::to_string(threads) + "): ";
        if (got.size() != static_cast<std::size_t>(blocks) * static_cast<std::size_t>(threads) / 32)
            return where + "got " + std::to_string(got.size()) + " results";
        for (std::size_t w = 0; w < got.size(); ++w) {
            if (w * 32 >= n) {
                unsigned char bytes[sizeof(ch03ex1::value_index)];
                std::memcpy(bytes, &got[w], sizeof bytes);
                for (const unsigned char b : bytes)
                    if (b != 0xFF)
                        return where + "warp " + std::to_string(w) + ", past the end, wrote";
                continue;
            }
            ch03ex1::value_index want{x[w * 32], static_cast<int>(w * 32)};
            for (std::size_t i = w * 32; i < n && i < w * 32 + 32; ++i)
                if (x[i] > want.value) want = {x[i], static_cast<int>(i)};
            if (!(got[w].value == want.value) || got[w].index != want.index)
                return where + "warp " + std::to_string(w) + ": got (" +
                       std::to_string(got[w].value) + ", " + std::to_string(got[w].index) +
                       "), want (" + std::to_string(want.value) + ", " +
                       std::to_string(want.index) + ")";
        }
    }
    return "";
}

}  // namespace ch03ex1test
