// Exercise 3.3's test code that both test sets use (visible.test.cu and the
// grader's hidden.test.cu): max_one_pass itself, launched by the tests' own driver
// twice in a row over one counter, with a number of blocks the test draws, into
// partial results and an output that hold NaN first (the maxima one_pass_max
// returns can be computed without a GPU; these come only from the student's
// kernel, on the device). Shipped to students with the visible tests.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "book/cuda.hpp"
#include "book/memory.hpp"
#include "one_pass_max.cuh"

namespace ch03ex3test {

// The device half of launch_max: max_one_pass launched with `blocks` blocks of
// kThreads threads over x[0..split), then over x[split..n), with one array of
// partial results (NaN first) and one counter (0 first, as the header says);
// *out holds NaN before each launch. Back: the two maxima, then the counter as
// it is after the second launch.
inline std::vector<float> launch_max_here(const std::vector<float>& x, std::size_t split,
                                          int blocks) {
    if (blocks < 1 || blocks > 65535 || split > x.size() || x.size() > (1u << 26))
        throw std::invalid_argument("launch_max: 1 to 65535 blocks, split within x");
    book::device_buffer<float> d_x(x.size()), d_partials(static_cast<std::size_t>(blocks)),
        d_out(1);
    book::device_buffer<unsigned> d_done(1);
    d_x.from_host(x);
    BOOK_CUDA_CHECK(cudaMemset(d_partials.data(), 0xFF, d_partials.bytes()));
    BOOK_CUDA_CHECK(cudaMemset(d_done.data(), 0, d_done.bytes()));
    std::vector<float> back;
    // max_one_pass<<<blocks, kThreads>>>(...), in the runtime API's words: the
    // tests are host code (cmake/BookExerciseTargets.cmake, _bx_host_code).
    cudaLaunchConfig_t launch{};
    launch.gridDim = dim3(static_cast<unsigned>(blocks));
    launch.blockDim = dim3(static_cast<unsigned>(ch03ex3::kThreads));
    for (const auto& [first, n] : {std::pair<std::size_t, std::size_t>{0, split},
                                   std::pair<std::size_t, std::size_t>{split, x.size() - split}}) {
        BOOK_CUDA_CHECK(cudaMemset(d_out.data(), 0xFF, d_out.bytes()));
        const float* in = d_x.data() + first;
        (void)cudaLaunchKernelEx(&launch, ch03ex3::max_one_pass, in, static_cast<int>(n),
                                 d_partials.data(), d_done.data(), d_out.data());
        BOOK_CHECK_LAUNCH();  // the launch's error, as after <<<...>>>
        BOOK_CUDA_CHECK(cudaDeviceSynchronize());
        back.push_back(d_out.to_host()[0]);
    }
    back.push_back(static_cast<float>(d_done.to_host()[0]));
    return back;
}

// It launches the student's kernel, so where the tests are judged apart from the
// student's code (BOOK_GRADE_BRIDGED) it runs in the worker, and bridge.cu
// defines it on both sides; elsewhere (the student bundle) it is the _here one.
#ifdef BOOK_GRADE_BRIDGED
std::vector<float> launch_max(const std::vector<float>& x, std::size_t split, int blocks);
#else
inline std::vector<float> launch_max(const std::vector<float>& x, std::size_t split, int blocks) {
    return launch_max_here(x, split, blocks);
}
#endif

// Launches drawn from `seed` (sizes, block counts more or fewer than the
// elements, the maximum anywhere, an empty array now and then): "" when both
// launches give the maximum and leave the counter at 0, else the first that does not.
inline std::string check_launches(unsigned seed) {
    std::mt19937 gen(seed);
    for (int k = 0; k < 10; ++k) {
        const std::size_t a = k == 0 ? 0 : gen() % 50000, b = k == 1 ? 0 : gen() % 50000;
        const int blocks = 1 + static_cast<int>(gen() % (k % 2 ? 8 : 300));
        std::vector<float> x(a + b);
        for (float& v : x)
            v = static_cast<float>(static_cast<int>(gen() % 2000001) - 1000000) * 1e-3f;
        const auto part_max = [&](std::size_t from, std::size_t to) {
            return from == to ? -INFINITY
                              : *std::max_element(x.begin() + static_cast<long>(from),
                                                  x.begin() + static_cast<long>(to));
        };
        const auto got = launch_max(x, a, blocks);
        const std::string where = "launches " + std::to_string(k) + " (" + std::to_string(a) +
                                  " and " + std::to_string(b) + " values, " +
                                  std::to_string(blocks) + " blocks): ";
        if (got.size() != 3) return where + "got " + std::to_string(got.size()) + " values";
        if (!(got[0] == part_max(0, a)))
            return where + "first maximum " + std::to_string(got[0]) + ", want " +
                   std::to_string(part_max(0, a));
        if (!(got[1] == part_max(a, a + b)))
            return where + "second maximum " + std::to_string(got[1]) + ", want " +
                   std::to_string(part_max(a, a + b));
        if (got[2] != 0.0f) return where + "the counter is " + std::to_string(got[2]) + ", not 0";
    }
    return "";
}

}  // namespace ch03ex3test
