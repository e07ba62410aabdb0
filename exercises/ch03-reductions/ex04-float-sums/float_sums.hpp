/// @file float_sums.hpp
/// @brief Chapter 3, exercise 4: two float sums that keep their error small,
/// one by the order of its additions (a pairwise tree, as a GPU adds), one by
/// carrying the rounding error along (compensated summation).
#pragma once

#include <cstddef>

namespace ch03ex4 {

/// Up to this many values pairwise_sum adds in order, one after another.
inline constexpr std::size_t kPairwiseBase = 8;

/// The sum of x[0..n) in float, as a tree: for n <= kPairwiseBase, the values
/// added in order, ((x[0] + x[1]) + x[2]) + ...; for larger n, the pairwise
/// sum of the first n / 2 values (rounded down) plus the pairwise sum of the
/// other n - n / 2. 0 for n = 0. Every addition is in float.
float pairwise_sum(const float* x, std::size_t n);

/// The depth of pairwise_sum's tree on n values: the most additions any one
/// value passes through on its way to the result. 0 for n <= 1; n - 1 for
/// n <= kPairwiseBase (x[0] passes through all of them).
std::size_t pairwise_depth(std::size_t n);

/// The sum of x[0..n) in float, compensated (Neumaier's variant of Kahan's
/// method): a running sum s and a compensation c, both float, start at 0; for
/// each value v in order, t = s + v; if |s| >= |v|, c += (s - t) + v, else
/// c += (v - t) + s; then s = t. The result is s + c. The compensation catches
/// what each addition rounded away, also when v is larger than s.
float compensated_sum(const float* x, std::size_t n);

}  // namespace ch03ex4
