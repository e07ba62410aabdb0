// Chapter 1, exercise 3: a solution.
#include "warp_vote.cuh"

#include <climits>
#include <stdexcept>

#include "book/cuda.hpp"

namespace ex03 {

__global__ void count_matching(const int* data, int n, int threshold, unsigned* per_warp_counts) {
    const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    const long long warp = i / kWarpWidth;
    const int lane = static_cast<int>(threadIdx.x % kWarpWidth);
    if (warp * kWarpWidth >= n) return;  // the whole warp is past the end: it leaves together
    // Every lane votes; lanes past the end vote false and read nothing.
    const bool above = i < n && data[i] > threshold;
    const unsigned vote = __ballot_sync(0xffffffffu, above);
    if (lane == 0) per_warp_counts[warp] = static_cast<unsigned>(__popc(vote));
}

std::vector<unsigned> count_on_gpu(const std::vector<int>& data, int threshold) {
    if (data.size() > static_cast<std::size_t>(INT_MAX))
        throw std::length_error("count_on_gpu: more than INT_MAX elements");
    if (data.empty()) return {};
    const int n = static_cast<int>(data.size());

    book::device_buffer<int> d_data(data.size());
    d_data.from_host(data);
    book::device_buffer<unsigned> d_counts(warps_for(data.size()));

    const int blocks = (n + kBlockThreads - 1) / kBlockThreads;
    count_matching<<<blocks, kBlockThreads>>>(d_data.data(), n, threshold, d_counts.data());
    BOOK_CHECK_LAUNCH();
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());  // a fault inside the kernel shows up here
    return d_counts.to_host();
}

}  // namespace ex03
