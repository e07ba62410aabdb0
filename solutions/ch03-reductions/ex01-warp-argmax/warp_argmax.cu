// Chapter 3, exercise 1: a solution.
#include "warp_argmax.cuh"

#include <climits>
#include <cmath>
#include <stdexcept>

#include "book/cuda.hpp"

namespace ch03ex1 {

// The best of the 32 lanes' candidates, in lane 0. All 32 lanes must call it.
__device__ value_index warp_arg_max(value_index mine) {
    for (int offset = 16; offset > 0; offset >>= 1) {
        const float value = __shfl_down_sync(0xffffffffu, mine.value, offset);
        const int index = __shfl_down_sync(0xffffffffu, mine.index, offset);
        if (value > mine.value || (value == mine.value && index < mine.index))
            mine = {value, index};
    }
    return mine;
}

__global__ void arg_max_per_warp(const float* x, int n, value_index* out) {
    const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    const long long warp = i / kWarpWidth;
    const int lane = static_cast<int>(threadIdx.x % kWarpWidth);
    if (warp * kWarpWidth >= n) return;  // the whole warp is past the end: it leaves together
    // A lane past the end offers -infinity at index INT_MAX: a real element
    // beats it on the value or, if that is -infinity too, on the index.
    const value_index mine =
        i < n ? value_index{x[i], static_cast<int>(i)} : value_index{-INFINITY, INT_MAX};
    const value_index best = warp_arg_max(mine);
    if (lane == 0) out[warp] = best;
}

std::vector<value_index> arg_max_on_gpu(const std::vector<float>& x) {
    if (x.size() > static_cast<std::size_t>(INT_MAX))
        throw std::length_error("arg_max_on_gpu: more than INT_MAX elements");
    if (x.empty()) return {};
    const int n = static_cast<int>(x.size());

    book::device_buffer<float> d_x(x.size());
    d_x.from_host(x);
    book::device_buffer<value_index> d_out(static_cast<std::size_t>(warps_for(n)));

    const int blocks = (n + kBlockThreads - 1) / kBlockThreads;
    arg_max_per_warp<<<blocks, kBlockThreads>>>(d_x.data(), n, d_out.data());
    BOOK_CHECK_LAUNCH();
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());  // a fault inside the kernel shows up here
    return d_out.to_host();
}

}  // namespace ch03ex1
