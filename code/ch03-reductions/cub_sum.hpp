// cub_sum.hpp: CUB's device-wide sum, as a reader would call it.
//
// The only file that includes CUB is cub_sum.cu (CUB's headers take long to
// compile); everything else sees this small class.
#pragma once

#include <cstddef>

#include <cuda_runtime.h>

#include "book/cuda.hpp"

namespace ch03 {

/// cub::DeviceReduce::Sum over floats, with its temporary storage allocated
/// once, up front, for the largest n it will see (as a user would: the
/// allocation stays out of every timed call).
class cub_sum {
public:
    /// Ask CUB how much temporary storage a sum of up to max_n floats needs,
    /// and allocate it.
    explicit cub_sum(std::size_t max_n);

    /// Enqueue the sum of x[0..n) into *out on `stream` (returns at once).
    /// @throws std::invalid_argument if n > max_n; book::cuda_error if CUB fails.
    void run(const float* x, std::size_t n, float* out, cudaStream_t stream = nullptr);

    /// The temporary storage allocated, in bytes.
    std::size_t temp_bytes() const noexcept { return temp_.bytes(); }

private:
    std::size_t max_n_;
    book::device_buffer<unsigned char> temp_;
};

}  // namespace ch03
