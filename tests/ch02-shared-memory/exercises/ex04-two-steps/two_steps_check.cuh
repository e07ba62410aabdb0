// Exercise 2.4's test code that both test sets use (visible.test.cu and the
// grader's hidden.test.cu): inputs, the CPU reference, the comparison, and a
// launch between guard zones. Shipped to students with the visible tests.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "book/cuda.hpp"
#include "two_steps.cuh"

namespace ex04_check {

// Whole numbers in [lo, hi]: two steps sum 49 inputs at most (each with a weight
// of at most 7), so every float sum is exact in any order while
// 49 * max(|lo|, |hi|) < 2^24, and a kernel must match the reference exactly.
inline std::vector<float> whole_numbers(std::size_t n, unsigned seed, int lo = 1, int hi = 16) {
    std::mt19937 gen(seed);
    std::uniform_int_distribution<int> value(lo, hi);
    std::vector<float> v(n);
    for (auto& x : v) x = static_cast<float>(value(gen));
    return v;
}

// One step of the stencil of radius kRadius with a zero boundary, exactly:
// the 2R + 1 values around i, each 0 outside [0, n).
inline std::vector<double> one_step(const std::vector<double>& x) {
    const long long n = static_cast<long long>(x.size());
    std::vector<double> y(x.size());
    for (long long i = 0; i < n; ++i) {
        double sum = 0.0;
        for (long long j = i - ex04::kRadius; j <= i + ex04::kRadius; ++j)
            if (j >= 0 && j < n) sum += x[static_cast<std::size_t>(j)];
        y[static_cast<std::size_t>(i)] = sum;
    }
    return y;
}

// What two_steps promises: one step applied twice, each with its zero boundary
// (the first step's values outside [0, n) are 0, as the inputs' are).
inline std::vector<double> two_steps_reference(const std::vector<float>& in) {
    return one_step(one_step(std::vector<double>(in.begin(), in.end())));
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

// Floats of guard before and after each array in run_guarded: more than a
// kernel's tiles reach outside the array (a block and two halos).
constexpr std::size_t kGuard = 1024;

struct guarded_run {
    std::vector<float> out;  // the n outputs
    long long guard_writes;  // words of the output's guard zones the kernel changed
};

// The device half of run_guarded: `host` (the n inputs between two guard zones
// of kGuard NaNs) to the GPU, two_steps launched as the header says on the n
// floats between the zones, into an output of the same layout whose every word
// holds a NaN bit pattern first; the whole output allocation back, guard zones
// included.
inline std::vector<float> launch_between_guards_here(const std::vector<float>& host) {
    if (host.size() < 2 * kGuard)
        throw std::invalid_argument("launch_between_guards: fewer floats than the guard zones");
    const std::size_t n = host.size() - 2 * kGuard;
    if (n == 0) throw std::invalid_argument("launch_between_guards: no floats between the zones");
    book::device_buffer<float> d_in(host.size()), d_out(host.size());
    d_in.from_host(host);
    BOOK_CUDA_CHECK(cudaMemset(d_out.data(), 0xFF, d_out.bytes()));
    const int blocks = static_cast<int>((n + ex04::kBlockThreads - 1) / ex04::kBlockThreads);
    // two_steps<<<blocks, kBlockThreads, tile_bytes()>>>(...), in the runtime API's
    // words: the tests are host code (cmake/BookExerciseTargets.cmake, _bx_host_code).
    cudaLaunchConfig_t launch{};
    launch.gridDim = dim3(static_cast<unsigned>(blocks));
    launch.blockDim = dim3(static_cast<unsigned>(ex04::kBlockThreads));
    launch.dynamicSmemBytes = ex04::tile_bytes();
    (void)cudaLaunchKernelEx(&launch, ex04::two_steps,
                             static_cast<const float*>(d_in.data() + kGuard), d_out.data() + kGuard,
                             static_cast<int>(n));
    BOOK_CHECK_LAUNCH();  // the launch's error, as after <<<...>>>
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());
    return d_out.to_host();
}

// It launches the student's kernel, so where the tests are judged apart from the
// student's code (BOOK_GRADE_BRIDGED: cmake/BookExerciseTargets.cmake) it runs in the
// worker, and bridge.cu defines it on both sides; elsewhere (the student bundle)
// it is launch_between_guards_here.
#ifdef BOOK_GRADE_BRIDGED
std::vector<float> launch_between_guards(const std::vector<float>& host);
#else
inline std::vector<float> launch_between_guards(const std::vector<float>& host) {
    return launch_between_guards_here(host);
}
#endif

// Launch two_steps as the header says, with both arrays inside larger
// allocations: the input's guard zones hold NaN, so a read outside [0, n) turns
// an output into NaN; the output's guard zones hold a NaN bit pattern that must
// still be there afterwards (counted here, from the whole output allocation).
inline guarded_run run_guarded(const std::vector<float>& in) {
    const std::size_t n = in.size();
    std::vector<float> host(n + 2 * kGuard, std::numeric_limits<float>::quiet_NaN());
    std::copy(in.begin(), in.end(), host.begin() + kGuard);
    const std::vector<float> all = launch_between_guards(host);
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

}  // namespace ex04_check
