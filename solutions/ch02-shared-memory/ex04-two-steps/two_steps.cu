// Chapter 2, exercise 4: a solution.
#include "two_steps.cuh"

#include <climits>
#include <stdexcept>

#include "book/cuda.hpp"

namespace ex04 {

__global__ void two_steps(const float* in, float* out, int n) {
    extern __shared__ float shared[];
    float* tile = shared;                    // tile[k] holds in[start - kHalo + k]
    float* mid = shared + kInputTileFloats;  // mid[k] holds the first step at start - kRadius + k
    const long long start = static_cast<long long>(blockIdx.x) * blockDim.x;

    // The input tile, halo of 2R included, loaded by all threads in turn; 0
    // outside [0, n), and nothing outside the array is read.
    for (int k = threadIdx.x; k < kInputTileFloats; k += blockDim.x) {
        const long long j = start - kHalo + k;
        tile[k] = (j >= 0 && j < n) ? in[j] : 0.0f;
    }
    __syncthreads();

    // The first step, in shared memory: the block's outputs and R on each side.
    // Outside [0, n) the first step's values are 0 as well (the zero boundary
    // holds at every step), not the sum that the tile's zeros give there.
    for (int k = threadIdx.x; k < kStepTileFloats; k += blockDim.x) {
        const long long j = start - kRadius + k;
        float s = 0.0f;
        for (int d = 0; d <= 2 * kRadius; ++d) s += tile[k + d];
        mid[k] = (j >= 0 && j < n) ? s : 0.0f;  // the intermediate step is 0 outside [0, n) too
    }
    __syncthreads();  // every thread reaches both barriers: no return before them

    // The second step, from the intermediate tile to global memory.
    const long long i = start + threadIdx.x;
    if (i < n) {
        float sum = 0.0f;
        for (int d = 0; d <= 2 * kRadius; ++d) sum += mid[threadIdx.x + d];
        out[i] = sum;
    }
}

std::vector<float> two_steps_on_gpu(const std::vector<float>& in) {
    if (in.size() > static_cast<std::size_t>(INT_MAX))
        throw std::length_error("two_steps_on_gpu: more than INT_MAX elements");
    if (in.empty()) return {};
    const int n = static_cast<int>(in.size());

    book::device_buffer<float> d_in(in.size()), d_out(in.size());
    d_in.from_host(in);
    const int blocks = (n + kBlockThreads - 1) / kBlockThreads;
    two_steps<<<blocks, kBlockThreads, tile_bytes()>>>(d_in.data(), d_out.data(), n);
    BOOK_CHECK_LAUNCH();
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());  // a fault inside the kernel shows up here
    return d_out.to_host();
}

}  // namespace ex04
