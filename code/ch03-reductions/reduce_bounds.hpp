/// @file reduce_bounds.hpp
/// @brief Chapter 3's floating point: the depth of each kernel's summation
/// tree, the error bound that depth gives, and the CPU sums the GPU results
/// are checked against.
///
/// Plain C++ (no CUDA), so the tests run it on any machine.
#pragma once

#include <cstddef>
#include <cstdint>

#include "reduce_plan.hpp"

namespace ch03 {

// ---------------------------------------------------------------------------
// How far a float sum may be from the exact one

/// Unit roundoff of float (2^-24) and double (2^-53), round to nearest.
inline constexpr double float_u = 0x1p-24;
inline constexpr double double_u = 0x1p-53;

/// The longest chain of additions into one accumulator of one thread in a
/// streaming kernel of layout `lay` on n floats: the most float4s any thread
/// adds into one of its `unroll` accumulators (for `old`: into its first).
std::size_t accumulator_chain(layout lay, std::size_t n, const tuning& t, int sms);

/// The most additions any input value passes through in a one-launch
/// streaming kernel of layout `lay` (step 8 is `stride`), an upper bound
/// derived from the kernels in reduce_device.cuh and reduce_layouts.cu.
std::size_t layout_depth(layout lay, std::size_t n, const tuning& t, int sms);

/// The most additions any input value passes through in step `s` on n values
/// (the depth of its summation tree), an upper bound derived from the kernels
/// in reduce_kernels.cu; `t` (the tuning for n) and `sms` shape steps 7 and 8.
std::size_t summation_depth(step s, std::size_t n, const tuning& t, int sms);

/// gamma_h = h*u / (1 - h*u) (Higham, Accuracy and Stability of Numerical
/// Algorithms, 2nd ed., eq. 3.8); +infinity when h*u >= 1 (no bound).
double gamma(std::size_t depth, double unit_roundoff);

/// The depth of pairwise_sum and pairwise_float_sum on n values.
std::size_t pairwise_depth(std::size_t n);

/// How far a float sum computed by a tree of depth `depth` may lie from the
/// double reference (pairwise_sum) of n values whose magnitudes sum to
/// `abs_sum`: gamma_depth(float) * abs_sum for the float tree (every value is
/// rounded at most `depth` times on its way to the result, Higham 4.2), plus
/// the reference's own bound, plus two double roundings for the comparison.
double tolerance(std::size_t depth, double abs_sum, std::size_t n);

/// One comparison against the reference.
struct verdict {
    bool ok;       ///< |got - reference| <= bound (false for NaN)
    double error;  ///< |got - reference|
    double bound;
};
verdict check_sum(double got, double reference, double bound);

// ---------------------------------------------------------------------------
// CPU sums

/// Pairwise summation in double (blocks of up to 32 added in order, then
/// halves): the reference.
double pairwise_sum(const float* x, std::size_t n);

/// The same tree in float: what an ideal balanced tree gives.
float pairwise_float_sum(const float* x, std::size_t n);

/// The naive loop in float: s += x[i], in order.
float sequential_float_sum(const float* x, std::size_t n);

/// Sum of |x[i]|, in double (pairwise).
double abs_sum(const float* x, std::size_t n);

/// The exact sum of whole-number floats.
/// @throws std::invalid_argument if a value is not a whole number below 2^31.
std::int64_t integer_sum(const float* x, std::size_t n);

}  // namespace ch03
