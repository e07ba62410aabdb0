// Exercise 3.5's test code that both test sets use (visible.test.cu and the
// grader's hidden.test.cu): the student's sum() on the device, its result copied
// back, and the inputs (whole numbers from -8 to 8: exact sums in any order).
// Shipped to students with the visible tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include "book/cuda.hpp"
#include "book/memory.hpp"
#include "fast_sum.cuh"

namespace ch03ex5test {

// sum() over x, placed `offset` floats into a device array (an unaligned start
// when offset % 4 != 0); *out holds NaN before the call.
inline float sum_of_here(const std::vector<float>& x, std::size_t offset) {
    if (offset > 64 || x.size() > (std::size_t{1} << 26))
        throw std::invalid_argument("sum_of: offset up to 64, up to 2^26 values");
    book::device_buffer<float> d_x(x.size() + offset + 1), d_out(1),
        d_scratch(ch03ex5::kScratchFloats);
    if (!x.empty())
        BOOK_CUDA_CHECK(cudaMemcpy(d_x.data() + offset, x.data(), x.size() * sizeof(float),
                                   cudaMemcpyHostToDevice));
    BOOK_CUDA_CHECK(cudaMemset(d_out.data(), 0xFF, d_out.bytes()));
    ch03ex5::sum(d_x.data() + offset, x.size(), d_out.data(), d_scratch.data());
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());
    return d_out.to_host()[0];
}

#ifdef BOOK_GRADE_BRIDGED
float sum_of(const std::vector<float>& x, std::size_t offset);
#else
inline float sum_of(const std::vector<float>& x, std::size_t offset) {
    return sum_of_here(x, offset);
}
#endif

// n whole numbers from -8 to 8, from `seed`, and their exact sum.
inline std::vector<float> whole_values(std::size_t n, unsigned seed, double& exact) {
    std::mt19937 gen(seed);
    std::vector<float> x(n);
    exact = 0.0;
    for (float& v : x) {
        v = static_cast<float>(static_cast<int>(gen() % 17) - 8);
        exact += v;
    }
    return x;
}

}  // namespace ch03ex5test
