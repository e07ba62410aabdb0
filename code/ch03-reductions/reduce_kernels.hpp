// reduce_kernels.hpp: run the chapter's reductions from the host.
//
// A reducer runs one step of the progression (reduce_plan.hpp) on a float
// array in device memory and writes the sum, one float, to device memory. It
// owns the step's workspace (partial sums, the one-pass counter), sized once
// for the largest n it will see, so nothing is allocated while it is timed.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

#include "book/cuda.hpp"
#include "reduce_bounds.hpp"

namespace ch03 {

class reducer {
public:
    /// @param s the step to run
    /// @param max_n the largest n run() will be given
    /// @param p launch parameters of steps 7 and 8 by size (ignored by the others)
    reducer(step s, std::size_t max_n, const launch_policy& p = default_policy());

    /// Enqueue the sum of x[0..n) into *out on `stream` (returns at once).
    /// x needs only float alignment. @throws std::invalid_argument if n > max_n.
    void run(const float* x, std::size_t n, float* out, cudaStream_t stream = nullptr);

    /// Fill the partial-sum workspace with NaN (a check then sees any partial
    /// sum a kernel reads without having written it).
    void poison(cudaStream_t stream = nullptr);

    /// Kernel launches run() makes for n (1 for step 8, 2 for step 7, the
    /// passes of the tree for steps 1-6).
    std::size_t launches(std::size_t n) const;

    /// Blocks of the first launch for n.
    std::size_t blocks(std::size_t n) const;

    /// The depth of the summation tree on n values (summation_depth).
    std::size_t depth(std::size_t n) const;

    step which() const noexcept { return step_; }
    const launch_policy& policy() const noexcept { return policy_; }

private:
    step step_;
    launch_policy policy_;
    std::size_t max_n_;
    int sms_;
    book::device_buffer<float> a_, b_;       // partial sums (ping-pong for the tree passes)
    book::device_buffer<unsigned> counter_;  // blocks done, for the one-pass kernel
};

/// The read-stream ceiling: reads x[0..n) with the same 16-byte grid-stride
/// loads as steps 7 and 8 and adds in registers, but never combines the
/// threads' sums (it writes *sink only if a thread's sum is -1, which never
/// happens for non-negative input). Its time is the floor for any reduction.
void read_ceiling(const float* x, std::size_t n, float* sink, const tuning& t, int sms,
                  cudaStream_t stream = nullptr);

/// The most blocks of the one-pass kernel (step 8) with t.threads and t.unroll
/// that fit on one SM at once (cudaOccupancyMaxActiveBlocksPerMultiprocessor);
/// more run in waves. @throws std::invalid_argument if not even one fits.
int max_blocks_per_sm(const tuning& t);

/// Fill x[0..n) on the device with `kind` values from book::random_u32(seed, i).
void fill_input(float* x, std::size_t n, std::uint64_t seed, input_kind kind,
                cudaStream_t stream = nullptr);

}  // namespace ch03
