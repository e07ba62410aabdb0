// reduce_layouts.hpp: the one-launch reduction in several layouts and with
// several load hints, for the comparison that chose step 8's (reduce_sweep).
//
// Every variant ends as step 8 does (finish_one_pass in reduce_device.cuh):
// only the way the threads divide and load the input differs (layout and
// load_kind in reduce_plan.hpp). The variant stride.plain is step 8's kernel;
// old.plain is step 8 as it was first written, kept as the baseline.
#pragma once

#include <cstddef>

#include <cuda_runtime.h>

#include "book/cuda.hpp"
#include "reduce_bounds.hpp"

namespace ch03 {

/// A one-launch reduction of one variant with one tuning, with its workspace
/// (partial sums and the ticket counter) sized for the largest n it will see.
class variant_reducer {
public:
    /// @throws std::invalid_argument for a bad tuning, or one of which not
    /// even one block fits on an SM.
    variant_reducer(const candidate& c, std::size_t max_n);

    /// Enqueue the sum of x[0..n) into *out on `stream` (returns at once).
    /// @throws std::invalid_argument if n > max_n.
    void run(const float* x, std::size_t n, float* out, cudaStream_t stream = nullptr);

    /// Fill the partial sums with NaN.
    void poison(cudaStream_t stream = nullptr);

    /// Blocks of the launch for n.
    std::size_t blocks(std::size_t n) const;

    /// The depth of the summation tree on n values (layout_depth).
    std::size_t depth(std::size_t n) const;

    /// Blocks that fit on one SM at once (more run in waves).
    int fit() const noexcept { return fit_; }

    const candidate& which() const noexcept { return c_; }

private:
    candidate c_;
    std::size_t max_n_;
    int sms_;
    int fit_;
    book::device_buffer<float> partials_;
    book::device_buffer<unsigned> counter_;
};

}  // namespace ch03
