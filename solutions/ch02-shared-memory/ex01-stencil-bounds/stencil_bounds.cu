// Chapter 2, exercise 1: a solution.
#include "stencil_bounds.cuh"

#include <climits>
#include <stdexcept>
#include <string>

#include "book/cuda.hpp"

namespace ex01 {

__global__ void stencil_clamped(const float* in, float* out, int n, int radius) {
    extern __shared__ float tile[];  // tile[k] holds in[c(start - radius + k)]
    const long long start = static_cast<long long>(blockIdx.x) * blockDim.x;
    const int width = blockDim.x + 2 * radius;
    // The whole tile, halo included, loaded by all threads in turn: any radius
    // works, also one larger than the block. Each index is clamped into
    // [0, n - 1] before it is read, so nothing outside the array is touched.
    for (int k = threadIdx.x; k < width; k += blockDim.x) {
        long long j = start - radius + k;
        j = j < 0 ? 0 : (j >= n ? n - 1 : j);
        tile[k] = in[j];
    }
    __syncthreads();  // every thread reaches it: no return before this line
    const long long i = start + threadIdx.x;
    if (i < n) {
        float sum = 0.0f;
        for (int d = 0; d <= 2 * radius; ++d) sum += tile[threadIdx.x + d];
        out[i] = sum;
    }
}

std::vector<float> stencil_on_gpu(const std::vector<float>& in, int radius) {
    if (radius < 0 || radius > kMaxRadius)
        throw std::invalid_argument("stencil_on_gpu: radius " + std::to_string(radius) +
                                    " is outside [0, " + std::to_string(kMaxRadius) + "]");
    if (in.size() > static_cast<std::size_t>(INT_MAX))
        throw std::length_error("stencil_on_gpu: more than INT_MAX elements");
    if (in.empty()) return {};
    const int n = static_cast<int>(in.size());

    book::device_buffer<float> d_in(in.size()), d_out(in.size());
    d_in.from_host(in);
    const int blocks = (n + kBlockThreads - 1) / kBlockThreads;
    stencil_clamped<<<blocks, kBlockThreads, tile_bytes(radius)>>>(d_in.data(), d_out.data(), n,
                                                                   radius);
    BOOK_CHECK_LAUNCH();
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());  // a fault inside the kernel shows up here
    return d_out.to_host();
}

}  // namespace ex01
