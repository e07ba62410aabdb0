// cub_sum.cu: the one translation unit of the chapter that compiles CUB.
#include "cub_sum.hpp"

#include <climits>
#include <cstdint>
#include <stdexcept>
#include <string>

#include <cub/device/device_reduce.cuh>

namespace ch03 {
namespace {

// CUB picks its offset type from the type of num_items; a caller with fewer
// than 2^31 items passes an int, as CUB's own examples do.
cudaError_t cub_call(void* temp, std::size_t& bytes, const float* x, float* out, std::size_t n,
                     cudaStream_t stream) {
    if (n <= static_cast<std::size_t>(INT_MAX))
        return cub::DeviceReduce::Sum(temp, bytes, x, out, static_cast<int>(n), stream);
    return cub::DeviceReduce::Sum(temp, bytes, x, out, static_cast<std::int64_t>(n), stream);
}

}  // namespace

cub_sum::cub_sum(std::size_t max_n) : max_n_(max_n) {
    std::size_t bytes = 0;
    BOOK_CUDA_CHECK(cub_call(nullptr, bytes, nullptr, nullptr, max_n, nullptr));
    if (max_n > static_cast<std::size_t>(INT_MAX)) {  // smaller n take the int path
        std::size_t int_bytes = 0;
        BOOK_CUDA_CHECK(cub_call(nullptr, int_bytes, nullptr, nullptr, INT_MAX, nullptr));
        bytes = bytes > int_bytes ? bytes : int_bytes;
    }
    temp_ = book::device_buffer<unsigned char>(bytes > 0 ? bytes : 1);
}

// [listing:cub-run]
void cub_sum::run(const float* x, std::size_t n, float* out, cudaStream_t stream) {
    if (n > max_n_)
        throw std::invalid_argument("cub_sum::run: n = " + std::to_string(n) +
                                    " is more than the " + std::to_string(max_n_) +
                                    " it was made for");
    std::size_t bytes = temp_.bytes();
    BOOK_CUDA_CHECK(cub_call(temp_.data(), bytes, x, out, n, stream));
}
// [/listing:cub-run]

}  // namespace ch03
