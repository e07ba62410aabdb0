// Chapter 3, exercise 3: a solution.
#include "one_pass_sum.cuh"

#include <cmath>
#include <stdexcept>
#include <string>

#include <cuda/atomic>

namespace ch03ex3 {

__global__ void sum_one_pass(const float* x, int n, float* partials, unsigned* blocks_done,
                             float* out) {
    // This block's share: a grid-stride loop, then the block's sum in thread 0.
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    float v = 0.0f;
    for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += stride)
        v += x[i];
    const float block_total = block_sum(v);

    // Publish this block's sum and take a ticket. The read-modify-write is at
    // device scope, with release (this block's partial sum is visible before
    // its ticket counts) and acquire (the block that draws the last ticket
    // sees every partial sum). __syncthreads() hands the verdict, and what
    // thread 0 saw, to the rest of the block.
    __shared__ bool last;
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = block_total;
        cuda::atomic_ref<unsigned, cuda::thread_scope_device> done(*blocks_done);
        last = done.fetch_add(1, cuda::memory_order_acq_rel) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last) return;

    // The last block: every partial sum, then the total; and the counter back
    // to 0 for the next launch (no other block touches it any more).
    float p = 0.0f;
    for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) p += partials[b];
    const float total = block_sum(p);
    if (threadIdx.x == 0) {
        *out = total;
        cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*blocks_done)
            .store(0, cuda::memory_order_relaxed);
    }
}

one_pass_summer::one_pass_summer(int blocks)
    : blocks_(blocks),
      partials_(static_cast<std::size_t>(blocks > 0 ? blocks : 0)),
      out_(1),
      blocks_done_(1) {
    if (blocks < 1 || blocks > 65535)
        throw std::invalid_argument("one_pass_summer: blocks must be 1 to 65535, not " +
                                    std::to_string(blocks));
    BOOK_CUDA_CHECK(cudaMemset(blocks_done_.data(), 0, blocks_done_.bytes()));  // once
}

float one_pass_summer::sum(const std::vector<float>& x) {
    if (x.size() > 0x7fffffffu)
        throw std::length_error("one_pass_summer: more than INT_MAX elements");
    const int n = static_cast<int>(x.size());
    book::device_buffer<float> d_x(x.size());
    d_x.from_host(x);
    BOOK_CUDA_CHECK(cudaMemset(out_.data(), 0xFF, out_.bytes()));  // NaN
    BOOK_CUDA_CHECK(cudaMemset(partials_.data(), 0xFF, partials_.bytes()));
    sum_one_pass<<<blocks_, kThreads>>>(d_x.data(), n, partials_.data(), blocks_done_.data(),
                                        out_.data());
    BOOK_CHECK_LAUNCH();
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());  // a fault inside the kernel shows up here
    return out_.to_host()[0];
}

}  // namespace ch03ex3
