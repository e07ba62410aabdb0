// Exercise 2.5's test code that both test sets use (visible.test.cu and the
// grader's hidden.test.cu): the student's stencil() on the device, its whole output
// allocation copied back (n outputs, then guard floats that must stay untouched),
// the inputs (whole numbers from -8 to 8: exact sums in any order) and the CPU's
// stencil. Shipped to students with the visible tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "book/cuda.hpp"
#include "book/memory.hpp"
#include "fast_stencil.cuh"

namespace ch02ex5test {

// Floats after the n outputs that stencil() must leave as they were (all bits set:
// a NaN no sum gives).
inline constexpr std::size_t kGuard = 64;

// stencil() over `in` on the device; back: the n outputs and the kGuard floats
// after them. Every float of the output allocation holds all bits set before.
inline std::vector<float> stencil_of_here(const std::vector<float>& in) {
    if (in.size() > (std::size_t{1} << 26))
        throw std::invalid_argument("stencil_of: up to 2^26 values");
    book::device_buffer<float> d_in(in.size() + 1), d_out(in.size() + kGuard);
    if (!in.empty())
        BOOK_CUDA_CHECK(
            cudaMemcpy(d_in.data(), in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice));
    BOOK_CUDA_CHECK(cudaMemset(d_out.data(), 0xFF, d_out.bytes()));
    ch02ex5::stencil(d_in.data(), d_out.data(), in.size());
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());
    return d_out.to_host();
}

#ifdef BOOK_GRADE_BRIDGED
std::vector<float> stencil_of(const std::vector<float>& in);
#else
inline std::vector<float> stencil_of(const std::vector<float>& in) { return stencil_of_here(in); }
#endif

// n whole numbers from -8 to 8, from `seed`.
inline std::vector<float> whole_values(std::size_t n, unsigned seed) {
    std::mt19937 gen(seed);
    std::vector<float> x(n);
    for (float& v : x) v = static_cast<float>(static_cast<int>(gen() % 17) - 8);
    return x;
}

// The stencil on the CPU, with the zero boundary.
inline std::vector<float> stencil_cpu(const std::vector<float>& in) {
    const auto n = static_cast<long long>(in.size());
    std::vector<float> out(in.size());
    for (long long i = 0; i < n; ++i) {
        float s = 0.0f;
        for (long long j = i - ch02ex5::kRadius; j <= i + ch02ex5::kRadius; ++j)
            if (j >= 0 && j < n) s += in[static_cast<std::size_t>(j)];
        out[static_cast<std::size_t>(i)] = s;
    }
    return out;
}

// What is wrong with `got` (stencil_of's answer for `in`), or "" when nothing is:
// the first wrong output, or the first guard float written.
inline std::string check(const std::vector<float>& in, const std::vector<float>& got) {
    if (got.size() != in.size() + kGuard) return "the output allocation came back cut";
    const auto want = stencil_cpu(in);
    for (std::size_t i = 0; i < in.size(); ++i)
        if (got[i] != want[i])
            return "out[" + std::to_string(i) + "] is " + std::to_string(got[i]) + ", want " +
                   std::to_string(want[i]);
    for (std::size_t i = 0; i < kGuard; ++i) {
        std::uint32_t bits = 0;
        std::memcpy(&bits, &got[in.size() + i], sizeof bits);
        if (bits != 0xFFFFFFFFu)
            return "out[" + std::to_string(in.size() + i) + "], past the end, was written";
    }
    return "";
}

}  // namespace ch02ex5test
