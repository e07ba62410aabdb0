// Random input on the device (see book/random.hpp).
#include "book/random.hpp"

#include <algorithm>

#include "book/errors.hpp"

namespace book {
namespace {

__global__ void fill_random_kernel(std::uint32_t* d, std::size_t n, std::uint64_t seed) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += stride)
        d[i] = random_u32(seed, i);
}

}  // namespace

void fill_random_u32(std::uint32_t* d, std::size_t n, std::uint64_t seed) {
    if (n == 0) return;
    const int threads = 256;
    const std::size_t wanted = (n + threads - 1) / threads;
    const int blocks = static_cast<int>(std::min<std::size_t>(wanted, 65535));
    fill_random_kernel<<<blocks, threads>>>(d, n, seed);
    BOOK_CHECK_LAUNCH();
}

}  // namespace book
