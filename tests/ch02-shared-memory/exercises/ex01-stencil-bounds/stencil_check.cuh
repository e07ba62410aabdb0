// Exercise 2.1's test code that both test sets use (visible.test.cu and the
// grader's hidden.test.cu): inputs, the CPU reference, the comparison, and a
// launch between guard zones. Shipped to students with the visible tests.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "book/cuda.hpp"
#include "stencil_bounds.cuh"

namespace ex01_check {

// Whole numbers in [lo, hi]: every float sum of up to 2 * kMaxRadius + 1 of them
// is exact in any order while (2R + 1) * max(|lo|, |hi|) < 2^24, so a kernel
// must match the reference exactly.
inline std::vector<float> whole_numbers(std::size_t n, unsigned seed, int lo = 1, int hi = 16) {
    std::mt19937 gen(seed);
    std::uniform_int_distribution<int> value(lo, hi);
    std::vector<float> v(n);
    for (auto& x : v) x = static_cast<float>(value(gen));
    return v;
}

// What stencil_clamped promises: the 2R + 1 inputs around i, each index
// clamped into [0, n - 1], summed exactly.
inline std::vector<double> clamped_reference(const std::vector<float>& in, int radius) {
    const long long n = static_cast<long long>(in.size());
    std::vector<double> out(in.size());
    for (long long i = 0; i < n; ++i) {
        double sum = 0.0;
        for (long long j = i - radius; j <= i + radius; ++j)
            sum += in[static_cast<std::size_t>(j < 0 ? 0 : (j >= n ? n - 1 : j))];
        out[static_cast<std::size_t>(i)] = sum;
    }
    return out;
}

// "" when the outputs agree, else the first output that differs.
inline std::string first_difference(const std::vector<float>& got,
                                    const std::vector<double>& want) {
    if (got.size() != want.size())
        return "got " + std::to_string(got.size()) + " outputs, want " +
               std::to_string(want.size());
    for (std::size_t i = 0; i < got.size(); ++i)
        if (!(static_cast<double>(got[i]) == want[i]))
            return "out[" + std::to_string(i) + "]: got " + std::to_string(got[i]) + ", want " +
                   std::to_string(want[i]);
    return "";
}

// Floats of guard before and after each array in run_guarded: more than any
// index the starter's kernel can reach outside the array.
constexpr std::size_t kGuard = 4096;

struct guarded_run {
    std::vector<float> out;  // the n outputs
    long long guard_writes;  // words of the output's guard zones the kernel changed
};

// The device half of run_guarded: `host` (the n inputs between two guard zones
// of kGuard NaNs) to the GPU, stencil_clamped launched as the header says on the
// n floats between the zones, into an output of the same layout whose every word
// holds a NaN bit pattern first; the whole output allocation back, guard zones
// included.
inline std::vector<float> launch_between_guards_here(const std::vector<float>& host, int radius) {
    if (host.size() < 2 * kGuard)
        throw std::invalid_argument("launch_between_guards: fewer floats than the guard zones");
    const std::size_t n = host.size() - 2 * kGuard;
    book::device_buffer<float> d_in(host.size()), d_out(host.size());
    d_in.from_host(host);
    BOOK_CUDA_CHECK(cudaMemset(d_out.data(), 0xFF, d_out.bytes()));
    const int blocks = static_cast<int>((n + ex01::kBlockThreads - 1) / ex01::kBlockThreads);
    // stencil_clamped<<<blocks, kBlockThreads, tile_bytes(radius)>>>(...), in the runtime
    // API's words: the tests are host code (cmake/BookExerciseTargets.cmake, _bx_host_code).
    cudaLaunchConfig_t launch{};
    launch.gridDim = dim3(static_cast<unsigned>(blocks));
    launch.blockDim = dim3(static_cast<unsigned>(ex01::kBlockThreads));
    launch.dynamicSmemBytes = ex01::tile_bytes(radius);
    (void)cudaLaunchKernelEx(&launch, ex01::stencil_clamped, d_in.data() + kGuard,
                             d_out.data() + kGuard, static_cast<int>(n), radius);
    BOOK_CHECK_LAUNCH();  // the launch's error, as after <<<...>>>
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());
    return d_out.to_host();
}

// It launches the student's kernel, so where the tests are judged apart from the
// student's code (BOOK_GRADE_BRIDGED: cmake/BookExerciseTargets.cmake) it runs in the
// worker, and bridge.cu defines it on both sides; elsewhere (the student bundle)
// it is launch_between_guards_here.
#ifdef BOOK_GRADE_BRIDGED
std::vector<float> launch_between_guards(const std::vector<float>& host, int radius);
#else
inline std::vector<float> launch_between_guards(const std::vector<float>& host, int radius) {
    return launch_between_guards_here(host, radius);
}
#endif

// Launch stencil_clamped as the header says, with both arrays inside larger
// allocations: the input's guard zones hold NaN, so a read outside [0, n) turns
// an output into NaN; the output's guard zones hold a NaN bit pattern that must
// still be there afterwards (counted here, from the whole output allocation).
inline guarded_run run_guarded(const std::vector<float>& in, int radius) {
    const std::size_t n = in.size();
    std::vector<float> host(n + 2 * kGuard, std::numeric_limits<float>::quiet_NaN());
    std::copy(in.begin(), in.end(), host.begin() + kGuard);
    const std::vector<float> all = launch_between_guards(host, radius);
    if (all.size() != host.size())
        return {std::vector<float>(), static_cast<long long>(host.size())};  // all of it wrong
    guarded_run r{std::vector<float>(all.begin() + kGuard, all.begin() + kGuard + n), 0};
    for (std::size_t k = 0; k < all.size(); ++k) {
        if (k >= kGuard && k < kGuard + n) continue;
        std::uint32_t bits = 0;
        std::memcpy(&bits, &all[k], sizeof bits);
        r.guard_writes += bits == 0xFFFFFFFFu ? 0 : 1;
    }
    return r;
}

}  // namespace ex01_check
