// Chapter 3, exercise 3: a solution.
#include "one_pass_max.cuh"

#include <cmath>
#include <stdexcept>
#include <string>

namespace ch03ex3 {

__global__ void max_one_pass(const float* x, int n, float* partials, unsigned* blocks_done,
                             float* out) {
    // This block's share: a grid-stride loop, then the block's maximum in thread 0.
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    float v = -INFINITY;
    for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += stride)
        v = fmaxf(v, x[i]);
    const float block_result = block_max(v);

    // Publish this block's result and take a ticket, in the Programming
    // Guide's spelling: the fence makes partials[blockIdx.x] visible to the
    // whole GPU before the ticket counts. atomicInc with the limit
    // gridDim.x - 1 returns 0, 1, ..., gridDim.x - 1 and, on the last ticket,
    // stores 0 instead of gridDim.x: the counter is ready for the next launch.
    __shared__ bool is_last;
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = block_result;
        __threadfence();
        is_last = atomicInc(blocks_done, gridDim.x - 1) == gridDim.x - 1;
    }
    __syncthreads();
    if (!is_last) return;

    // The last block: a fence on this side too, then every block's result,
    // read through a volatile pointer so that each is read from memory.
    __threadfence();
    const volatile float* results = partials;
    float m = -INFINITY;
    for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) m = fmaxf(m, results[b]);
    const float overall = block_max(m);
    if (threadIdx.x == 0) *out = overall;
}

one_pass_max::one_pass_max(int blocks)
    : blocks_(blocks),
      partials_(static_cast<std::size_t>(blocks > 0 ? blocks : 0)),
      out_(1),
      blocks_done_(1) {
    if (blocks < 1 || blocks > 65535)
        throw std::invalid_argument("one_pass_max: blocks must be 1 to 65535, not " +
                                    std::to_string(blocks));
    BOOK_CUDA_CHECK(cudaMemset(blocks_done_.data(), 0, blocks_done_.bytes()));  // once
}

float one_pass_max::max(const std::vector<float>& x) {
    if (x.size() > 0x7fffffffu) throw std::length_error("one_pass_max: more than INT_MAX elements");
    const int n = static_cast<int>(x.size());
    book::device_buffer<float> d_x(x.size());
    d_x.from_host(x);
    BOOK_CUDA_CHECK(cudaMemset(out_.data(), 0xFF, out_.bytes()));  // NaN
    BOOK_CUDA_CHECK(cudaMemset(partials_.data(), 0xFF, partials_.bytes()));
    max_one_pass<<<blocks_, kThreads>>>(d_x.data(), n, partials_.data(), blocks_done_.data(),
                                        out_.data());
    BOOK_CHECK_LAUNCH();
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());  // a fault inside the kernel shows up here
    return out_.to_host()[0];
}

}  // namespace ch03ex3
