/// @file reduce_plan.hpp
/// @brief Chapter 3's CPU side: the reduction steps, their launch plans, the
/// depth of their summation trees, the error bound that depth gives, and the
/// CPU sums the GPU results are checked against.
///
/// Plain C++ (no CUDA), so the tests run it on any machine. The two input
/// mappings are `__host__ __device__` when a CUDA file includes this header.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#if defined(__CUDACC__)
#define CH03_HD __host__ __device__
#else
#define CH03_HD
#endif

namespace ch03 {

// ---------------------------------------------------------------------------
// Inputs

/// A random 32-bit value as a float in (0, 1]: a whole multiple of 2^-24, so
/// exact in float, never zero. The benchmark's input.
CH03_HD inline float unit_float(std::uint32_t r) {
    return static_cast<float>((r >> 8) + 1u) * (1.0f / 16777216.0f);
}

/// A random 32-bit value as a non-zero whole number in [-8, 8], as a float.
/// Sums of these stay whole numbers far below 2^24 in every tree a kernel
/// builds (a random walk), so every kernel must return the exact sum.
CH03_HD inline float small_int_float(std::uint32_t r) {
    const int k = static_cast<int>(r & 15u) - 8;
    return static_cast<float>(k >= 0 ? k + 1 : k);
}

/// Which of the two mappings fills an input.
enum class input_kind { unit, small_int };

// ---------------------------------------------------------------------------
// The steps of the chapter

/// The chapter's progression, one idea per step.
enum class step {
    interleaved_divergent,  ///< 1: s[tid] += s[tid + stride] where tid % (2*stride) == 0
    interleaved_strided,    ///< 2: index = 2*stride*tid: no divergence, bank conflicts
    sequential,             ///< 3: sequential addressing, stride halving
    first_add,              ///< 4: the first add during the load (two values per thread)
    last_warp,              ///< 5: the last warp with __shfl_down_sync
    warp_block,             ///< 6: a block reduction built from warp reductions
    two_pass,               ///< 7: grid-stride loops, 16-byte loads, then a second launch
    one_pass,               ///< 8: as 7, finished by the last block in the same launch
};

/// A step's stable key (used in result names) and its title (used in tables).
struct step_info {
    step id;
    std::string_view key;
    std::string_view title;
};

/// All steps, in the chapter's order.
inline constexpr std::array<step_info, 8> steps = {{
    {step::interleaved_divergent, "interleaved_divergent", "1 interleaved, divergent branch"},
    {step::interleaved_strided, "interleaved_strided", "2 interleaved, strided index"},
    {step::sequential, "sequential", "3 sequential addressing"},
    {step::first_add, "first_add", "4 first add during load"},
    {step::last_warp, "last_warp", "5 last warp by shuffles"},
    {step::warp_block, "warp_block", "6 block of warp reductions"},
    {step::two_pass, "two_pass", "7 grid-stride, float4, 2 launches"},
    {step::one_pass, "one_pass", "8 grid-stride, float4, 1 launch"},
}};

/// The info of one step.
const step_info& info(step s);

// ---------------------------------------------------------------------------
// Launch plans

/// Threads per block of steps 1 to 6 (a power of two, at least 64).
inline constexpr int tree_threads = 256;

/// Values one block of step `s` reduces per pass: tree_threads for steps 1-3,
/// 2 * tree_threads for steps 4-6 (two per thread). Steps 7 and 8 have no
/// fixed count (grid-stride loops).
/// @throws std::invalid_argument for steps 7 and 8.
std::size_t values_per_block(step s);

/// One launch of a multi-pass tree reduction: `blocks` blocks reduce `n_in`
/// values to `blocks` partial sums.
struct pass {
    std::size_t n_in;
    std::size_t blocks;
    friend bool operator==(const pass&, const pass&) = default;
};

/// The launches of steps 1-6 on n values: each block reduces `per_block`
/// values to one, and the partial sums are reduced again until one is left.
/// n = 0 or 1 still makes one launch of one block (which writes the result:
/// 0 or the value). @throws std::invalid_argument if per_block < 2.
std::vector<pass> tree_passes(std::size_t n, std::size_t per_block);

/// The launch parameters of the grid-stride kernels (steps 7 and 8): the
/// exploration script sweeps them.
struct tuning {
    int threads = 256;      ///< threads per block: a multiple of 32, 64..1024
    int blocks_per_sm = 4;  ///< blocks per SM in a grid that fills the machine
    int unroll = 4;         ///< 16-byte loads in flight per thread: 1, 2, 4 or 8
};

/// @throws std::invalid_argument naming the field that is out of range.
void check_tuning(const tuning& t);

/// How steps 7 and 8 cut x[0..n) for 16-byte loads: the `head` floats before
/// the first 16-byte boundary (0 to 3, and no more than n), then `vectors`
/// whole float4s, then the floats from index `tail` to n (0 to 3 of them).
struct float4_split {
    std::size_t head, vectors, tail;
};

/// The cut for an array of n floats that starts at byte address `address`
/// (a multiple of 4).
CH03_HD inline float4_split split_float4(std::uintptr_t address, std::size_t n) {
    const std::size_t skew = (address / sizeof(float)) % 4;  // floats past a 16-byte boundary
    const std::size_t to_boundary = (4 - skew) % 4;
    const std::size_t head = to_boundary < n ? to_boundary : n;
    const std::size_t vectors = (n - head) / 4;
    return {head, vectors, head + 4 * vectors};
}

/// Blocks of a grid-stride launch on n floats: enough to fill `sms` SMs with
/// `blocks_per_sm` each, but no more than give each thread `unroll` float4s;
/// at least 1 (so n = 0 still writes its result).
std::size_t stride_blocks(std::size_t n, const tuning& t, int sms);

// ---------------------------------------------------------------------------
// Floating point: how far a float sum may be from the exact one

/// Unit roundoff of float (2^-24) and double (2^-53), round to nearest.
inline constexpr double float_u = 0x1p-24;
inline constexpr double double_u = 0x1p-53;

/// The most additions any input value passes through in step `s` on n values
/// (the depth of its summation tree), an upper bound derived from the kernels
/// in reduce_kernels.cu; `t` and `sms` shape steps 7 and 8.
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
