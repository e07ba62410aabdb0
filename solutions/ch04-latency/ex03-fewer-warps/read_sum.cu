// Chapter 4, exercise 3: a solution. Four independent 16-byte loads per lane
// before any is used: four times the bytes in flight with the same warps.
#include "read_sum.cuh"

namespace ch04ex3 {

constexpr int kLoads = 4;

__global__ void read_sum(const uint4* x, std::size_t n, unsigned* total) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    unsigned sum = 0;
    for (; i + (kLoads - 1) * stride < n; i += kLoads * stride) {
        uint4 v[kLoads];
#pragma unroll
        for (int j = 0; j < kLoads; ++j) v[j] = x[i + j * stride];
#pragma unroll
        for (int j = 0; j < kLoads; ++j) sum += v[j].x + v[j].y + v[j].z + v[j].w;
    }
    for (; i < n; i += stride) {
        const uint4 v = x[i];
        sum += v.x + v.y + v.z + v.w;
    }
    for (int o = 16; o > 0; o >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, o);
    if ((threadIdx.x & 31u) == 0) atomicAdd(total, sum);
}

}  // namespace ch04ex3
