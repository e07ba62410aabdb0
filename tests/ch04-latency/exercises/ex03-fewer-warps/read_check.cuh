// Exercise 4.3's test code that both test sets use (visible.test.cu and the
// grader's hidden.test.cu): read_sum launched and timed by the tests' own driver,
// with the number of blocks per SM the test asks for, on words whose exact sum
// the tests know (word k holds k + offset). Shipped to students with the
// visible tests.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "book/cuda.hpp"
#include "book/memory.hpp"
#include "read_sum.cuh"

namespace ch04ex3test {

// The device half of launch_read: read_sum over `vectors` 16-byte vectors whose
// word k holds k + offset, launched with blocks_per_sm x SMs blocks of kThreads,
// once to check the sum and `timed` times more, timed with events. Back: the
// sums of the checked launch and of the last timed one, and the median time in
// milliseconds of the timed launches.
inline std::vector<double> launch_read_here(std::size_t vectors, int blocks_per_sm, int timed,
                                            unsigned offset) {
    if (vectors > (std::size_t{1} << 25) || blocks_per_sm < 1 || blocks_per_sm > 32 || timed < 0 ||
        timed > 50)
        throw std::invalid_argument("launch_read: at most 2^25 vectors, 1 to 32 blocks per SM");
    // One vector more than is read, so that the buffer is never empty; its words
    // are not zero, so that a kernel that reads past the end gets another sum.
    std::vector<unsigned> words(vectors * 4 + 4, 0x9E3779B9u);
    for (std::size_t k = 0; k < vectors * 4; ++k) words[k] = static_cast<unsigned>(k) + offset;
    book::device_buffer<unsigned> d_words(words.size()), d_total(1);
    d_words.from_host(words);
    const auto* x = reinterpret_cast<const uint4*>(d_words.data());
    cudaLaunchConfig_t launch{};
    launch.gridDim = dim3(static_cast<unsigned>(blocks_per_sm * book::sm_count()));
    launch.blockDim = dim3(static_cast<unsigned>(ch04ex3::kThreads));
    // read_sum<<<...>>>(x, vectors, total), in the runtime API's words: the tests
    // are host code (cmake/BookExerciseTargets.cmake, _bx_host_code).
    auto run = [&] {
        BOOK_CUDA_CHECK(cudaMemset(d_total.data(), 0, sizeof(unsigned)));
        (void)cudaLaunchKernelEx(&launch, ch04ex3::read_sum, x, vectors, d_total.data());
        BOOK_CHECK_LAUNCH();
    };
    run();
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<double> back{static_cast<double>(d_total.to_host()[0])};
    cudaEvent_t start, stop;
    BOOK_CUDA_CHECK(cudaEventCreate(&start));
    BOOK_CUDA_CHECK(cudaEventCreate(&stop));
    std::vector<double> ms;
    for (int t = 0; t < 3 + timed; ++t) {  // 3 untimed first: clocks and caches settle
        BOOK_CUDA_CHECK(cudaMemset(d_total.data(), 0, sizeof(unsigned)));
        BOOK_CUDA_CHECK(cudaEventRecord(start));
        (void)cudaLaunchKernelEx(&launch, ch04ex3::read_sum, x, vectors, d_total.data());
        BOOK_CHECK_LAUNCH();
        BOOK_CUDA_CHECK(cudaEventRecord(stop));
        BOOK_CUDA_CHECK(cudaEventSynchronize(stop));
        float m = 0;
        BOOK_CUDA_CHECK(cudaEventElapsedTime(&m, start, stop));
        if (t >= 3) ms.push_back(m);
    }
    BOOK_CUDA_CHECK(cudaEventDestroy(start));
    BOOK_CUDA_CHECK(cudaEventDestroy(stop));
    back.push_back(static_cast<double>(d_total.to_host()[0]));
    std::sort(ms.begin(), ms.end());
    back.push_back(ms.empty() ? 0.0 : ms[ms.size() / 2]);
    return back;
}

// It launches the student's kernel, so where the tests are judged apart from the
// student's code (BOOK_GRADE_BRIDGED) it runs in the worker, and bridge.cu
// defines it on both sides; elsewhere (the student bundle) it is the _here one.
#ifdef BOOK_GRADE_BRIDGED
std::vector<double> launch_read(std::size_t vectors, int blocks_per_sm, int timed, unsigned offset);
#else
inline std::vector<double> launch_read(std::size_t vectors, int blocks_per_sm, int timed,
                                       unsigned offset) {
    return launch_read_here(vectors, blocks_per_sm, timed, offset);
}
#endif

// The exact sum of the words k + offset, k < 4 x vectors, modulo 2^32.
inline double expected_sum(std::size_t vectors, unsigned offset) {
    const std::uint64_t w = 4 * static_cast<std::uint64_t>(vectors);
    const std::uint64_t s = w * (w - (w > 0)) / 2 + w * offset;  // (w - 1) w / 2, w = 0 gives 0
    return static_cast<double>(static_cast<std::uint32_t>(s));
}

}  // namespace ch04ex3test
