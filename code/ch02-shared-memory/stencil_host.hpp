// stencil_host.hpp: the CPU side of the chapter's stencil: the reference every
// kernel is checked against, the rounding tolerance, and the comparison.
//
// The stencil: out[i] = sum of in[j] for j in [i - R, i + R], 0 <= i < n, with
// in[j] = 0 outside [0, n) (a zero boundary).
//
// Two kinds of input, and two ways to compare:
//  - small integers (1..16): every partial sum is an integer below 2^24, so a
//    float sum in any order is exact, and a kernel must match the reference
//    exactly (compare_exact);
//  - reals of either sign: float sums in different orders round differently, so
//    a kernel must match within the rounding bound of a (2R+1)-term float sum
//    (compare_within_tolerance, sum_tolerance).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace ch02 {

/// The stencil of radius `radius` on `in`, with a zero boundary, summed in
/// double in the order j = i-R, ..., i+R (direct: O(n R); for small inputs).
/// @throws std::invalid_argument for a negative radius.
std::vector<double> stencil_reference(const std::vector<float>& in, int radius);

/// The same, in O(n), from a running sum in 64-bit integers. Only for inputs
/// that are whole numbers (checked; a fraction throws std::invalid_argument
/// naming its index), for which it is exact.
std::vector<double> stencil_reference_integers(const std::vector<float>& in, int radius);

/// For each output, the sum of |in[j]| over its window: the scale of its
/// rounding error.
std::vector<double> window_abs_sums(const std::vector<float>& in, int radius);

/// The largest difference between a float sum of `terms` numbers, added in any
/// order, and a double reference of the same sum, given the sum of the
/// numbers' magnitudes `abs_sum`: (gamma_f(terms-1) + gamma_d(terms-1)) * abs_sum,
/// where gamma(k) = k u / (1 - k u), u = 2^-24 for float and 2^-53 for double
/// (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., eq. 4.4).
/// @throws std::invalid_argument for terms < 1 or abs_sum < 0.
double sum_tolerance(int terms, double abs_sum);

/// What a comparison found.
struct comparison {
    long long checked = 0;       ///< outputs compared
    long long mismatches = 0;    ///< outputs off (exactly, or beyond the tolerance)
    double max_abs_error = 0.0;  ///< the largest |got - want|
    double max_error_over_tolerance =
        0.0;                        ///< the largest |got - want| / tolerance (tolerance mode)
    long long first_mismatch = -1;  ///< the index of the first mismatch, or -1
};

/// Compare outputs exactly (for integer inputs). NaN never matches.
/// @throws std::invalid_argument when the sizes differ.
comparison compare_exact(const std::vector<float>& got, const std::vector<double>& want);

/// Compare outputs exactly against the stencil of whole-number input `in`,
/// computed on the fly from a running sum in 64-bit integers: O(n) time and no
/// reference array (for the 2^28-element benchmark outputs). Large arrays are
/// split over the CPU's cores, each part starting its own running sum.
/// @throws std::invalid_argument when the sizes differ or an input is not whole.
comparison compare_integers(const std::vector<float>& got, const std::vector<float>& in,
                            int radius);

/// The same on n outputs `got` and n inputs `in` (for host buffers that are not vectors).
comparison compare_integers(const float* got, const float* in, long long n, int radius);

/// The same, split into exactly `parts` consecutive parts (at most n; at least
/// 1), each compared on its own thread (one part: on the calling thread).
/// @throws std::invalid_argument for parts < 1, n < 0 or an input that is not whole.
comparison compare_integers(const float* got, const float* in, long long n, int radius,
                            long long parts);

/// How many parts compare_integers splits n outputs into on a machine with
/// `cores` cores: one per core, but none smaller than 2^20 outputs (so small
/// arrays stay on one thread), and at least one.
long long compare_parts(long long n, long long cores);

/// Compare outputs within sum_tolerance(2R + 1, scale[i]) (for real inputs),
/// where scale = window_abs_sums(in, radius), computed once per input by the
/// caller. A NaN or infinite output is a mismatch.
/// @throws std::invalid_argument when the sizes differ.
comparison compare_within_tolerance(const std::vector<float>& got, const std::vector<double>& want,
                                    const std::vector<double>& scale, int radius);

/// Merge `b` into `a` (counts add, maxima stay maxima, the first mismatch of a
/// stays first).
void merge(comparison& a, const comparison& b);

/// One line for a log: "checked N, mismatches M (first at i), max error E".
std::string describe(const comparison& c);

}  // namespace ch02
