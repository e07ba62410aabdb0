// The attack: count_on_gpu answers with a loop on the CPU and the kernel does
// nothing, so every output of the contract's host wrapper is right without a GPU.
#include "warp_vote.cuh"

#include <climits>
#include <stdexcept>

namespace ex03 {

__global__ void count_matching(const int*, int, int, unsigned*) {}

std::vector<unsigned> count_on_gpu(const std::vector<int>& data, int threshold) {
    if (data.size() > static_cast<std::size_t>(INT_MAX))
        throw std::length_error("count_on_gpu: more than INT_MAX elements");
    std::vector<unsigned> counts(warps_for(data.size()), 0u);
    for (std::size_t i = 0; i < data.size(); ++i)
        if (data[i] > threshold) ++counts[i / kWarpWidth];
    return counts;
}

}  // namespace ex03
