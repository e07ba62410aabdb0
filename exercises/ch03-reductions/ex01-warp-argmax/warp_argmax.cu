// Chapter 3, exercise 1: your code goes here. Read README.md first.
// The host function is written for you; warp_arg_max and the kernel are yours.
#include "warp_argmax.cuh"

#include <climits>
#include <stdexcept>

#include "book/cuda.hpp"

namespace ch03ex1 {

// The best of the 32 lanes' candidates, in lane 0 (or in every lane). All 32
// lanes of the warp must call it.
__device__ value_index warp_arg_max(value_index mine) {
    // TODO: five steps of __shfl_down_sync (offsets 16, 8, 4, 2, 1) or
    // __shfl_xor_sync, each moving the value and the index of another lane;
    // keep the other lane's candidate when it has the larger value, or the
    // same value at a smaller index.
    return mine;
}

__global__ void arg_max_per_warp(const float* x, int n, value_index* out) {
    const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    const long long warp = i / kWarpWidth;
    const int lane = static_cast<int>(threadIdx.x % kWarpWidth);
    if (warp * kWarpWidth >= n) return;  // the whole warp is past the end
    // TODO: lanes past the end need a candidate that never wins.
    const value_index mine{i < n ? x[i] : 0.0f, static_cast<int>(i)};
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
