// Exercise 2.2's test code that both test sets use (visible.test.cu and the
// grader's hidden.test.cu): inputs, the CPU reference, the comparison, and a
// launch between guard zones. Shipped to students with the visible tests.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "book/cuda.hpp"
#include "stencil_2d.cuh"

namespace ex02_check {

// Whole numbers in [lo, hi]: every float sum of five of them is exact in any
// order, so a kernel must match the reference exactly.
inline std::vector<float> whole_numbers(std::size_t n, unsigned seed, int lo = 1, int hi = 16) {
    std::mt19937 gen(seed);
    std::uniform_int_distribution<int> value(lo, hi);
    std::vector<float> v(n);
    for (auto& x : v) x = static_cast<float>(value(gen));
    return v;
}

// What stencil5_tiled promises: the cell and its four neighbours, 0 outside
// the grid, summed exactly.
inline std::vector<double> reference(const std::vector<float>& in, int width, int height) {
    auto at = [&](long long x, long long y) -> double {
        return x >= 0 && x < width && y >= 0 && y < height
                   ? in[static_cast<std::size_t>(y * width + x)]
                   : 0.0;
    };
    std::vector<double> out(in.size());
    for (long long y = 0; y < height; ++y)
        for (long long x = 0; x < width; ++x)
            out[static_cast<std::size_t>(y * width + x)] =
                at(x, y) + at(x - 1, y) + at(x + 1, y) + at(x, y - 1) + at(x, y + 1);
    return out;
}

// "" when the outputs agree, else the first cell that differs.
inline std::string first_difference(const std::vector<float>& got, const std::vector<double>& want,
                                    int width) {
    if (got.size() != want.size())
        return "got " + std::to_string(got.size()) + " outputs, want " +
               std::to_string(want.size());
    for (std::size_t i = 0; i < got.size(); ++i)
        if (!(static_cast<double>(got[i]) == want[i]))
            return "cell (" + std::to_string(i % static_cast<std::size_t>(width)) + ", " +
                   std::to_string(i / static_cast<std::size_t>(width)) + "): got " +
                   std::to_string(got[i]) + ", want " + std::to_string(want[i]);
    return "";
}

// Floats of guard before and after each array in run_guarded: more than a
// whole block's rows past either end.
constexpr std::size_t kGuard = 1 << 16;

struct guarded_run {
    std::vector<float> out;  // the width x height outputs
    long long guard_writes;  // words of the output's guard zones the kernel changed
};

// The device half of run_guarded: `host` (the width x height inputs between two
// guard zones of kGuard NaNs) to the GPU, stencil5_tiled launched as the header
// says on the cells between the zones, into an output of the same layout whose
// every word holds a NaN bit pattern first; the whole output allocation back,
// guard zones included.
inline std::vector<float> launch_between_guards_here(const std::vector<float>& host, int width,
                                                     int height) {
    if (width < 1 || height < 1 ||
        host.size() !=
            static_cast<std::size_t>(width) * static_cast<std::size_t>(height) + 2 * kGuard)
        throw std::invalid_argument("launch_between_guards: not a grid between two guard zones");
    book::device_buffer<float> d_in(host.size()), d_out(host.size());
    d_in.from_host(host);
    BOOK_CUDA_CHECK(cudaMemset(d_out.data(), 0xFF, d_out.bytes()));
    const dim3 block(ex02::kTileX, ex02::kTileY);
    const dim3 grid((width + ex02::kTileX - 1) / ex02::kTileX,
                    (height + ex02::kTileY - 1) / ex02::kTileY);
    // stencil5_tiled<<<grid, block>>>(...), in the runtime API's words: the tests are
    // host code (cmake/BookExerciseTargets.cmake, _bx_host_code).
    cudaLaunchConfig_t launch{};
    launch.gridDim = grid;
    launch.blockDim = block;
    (void)cudaLaunchKernelEx(&launch, ex02::stencil5_tiled, d_in.data() + kGuard,
                             d_out.data() + kGuard, width, height);
    BOOK_CHECK_LAUNCH();  // the launch's error, as after <<<...>>>
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());
    return d_out.to_host();
}

// The static shared memory of one block of stencil5_tiled, in bytes, as the
// CUDA runtime reports it (cudaFuncGetAttributes).
inline std::size_t kernel_shared_bytes_here() {
    cudaFuncAttributes attributes{};
    // The kernel's entry as the runtime API's C form takes it: the tests are host
    // code (cmake/BookExerciseTargets.cmake, _bx_host_code).
    BOOK_CUDA_CHECK(
        cudaFuncGetAttributes(&attributes, reinterpret_cast<const void*>(ex02::stencil5_tiled)));
    return attributes.sharedSizeBytes;
}

// Both touch the student's kernel, so where the tests are judged apart from the
// student's code (BOOK_GRADE_BRIDGED: cmake/BookExerciseTargets.cmake) they run in the
// worker, and bridge.cu defines them on both sides; elsewhere (the student
// bundle) they are the functions above.
#ifdef BOOK_GRADE_BRIDGED
std::vector<float> launch_between_guards(const std::vector<float>& host, int width, int height);
std::size_t kernel_shared_bytes();
#else
inline std::vector<float> launch_between_guards(const std::vector<float>& host, int width,
                                                int height) {
    return launch_between_guards_here(host, width, height);
}
inline std::size_t kernel_shared_bytes() { return kernel_shared_bytes_here(); }
#endif

// Launch stencil5_tiled as the header says, with both arrays inside larger
// allocations: the input's guard zones hold NaN, so a read outside the grid
// turns an output into NaN; the output's guard zones hold a NaN bit pattern
// that must still be there afterwards (counted here, from the whole output
// allocation). (A read past the end of a row but inside the grid gives a wrong
// number instead, which the comparison finds.)
inline guarded_run run_guarded(const std::vector<float>& in, int width, int height) {
    const std::size_t n = in.size();
    std::vector<float> host(n + 2 * kGuard, std::numeric_limits<float>::quiet_NaN());
    std::copy(in.begin(), in.end(), host.begin() + kGuard);
    const std::vector<float> all = launch_between_guards(host, width, height);
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

}  // namespace ex02_check
