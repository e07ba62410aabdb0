// Chapter 3's summation depths, error bounds and CPU sums (see reduce_bounds.hpp).
#include "reduce_bounds.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace ch03 {

// ---------------------------------------------------------------------------
// Summation depths

namespace {

// The depth of one block's reduction in the shared-memory kernels.
std::size_t log2_exact(std::size_t p) {
    std::size_t l = 0;
    while ((std::size_t{1} << l) < p) ++l;
    return l;
}

// block_sum in reduce_device.cuh: five shuffle levels in each warp, five more
// in warp 0 over the warps' sums (at most 32 of them).
constexpr std::size_t block_sum_depth = 10;

// warp_sum in warp_tails.cuh: five shuffle levels.
constexpr std::size_t warp_sum_depth = 5;

}  // namespace

std::size_t accumulator_chain(layout lay, std::size_t n, const tuning& t, int sms) {
    const std::size_t g = stride_blocks(n, t, sms);
    const std::size_t threads = static_cast<std::size_t>(t.threads);
    const std::size_t u = static_cast<std::size_t>(t.unroll);
    const std::size_t vectors = ceil_div(n, 4);  // at least the whole float4s, for any alignment
    switch (lay) {
        case layout::stride:  // thread 0, slot 0: float4s 0, U*S, 2*U*S, ...
            return ceil_div(vectors, u * g * threads);
        case layout::tiles:  // block 0: tiles 0, G, 2G, ...
            return ceil_div(tile_count(n, t), g);
        case layout::even:  // the largest share, a tile per round
            return ceil_div(ceil_div(vectors, g), threads * u);
        case layout::old:  // every float4 of a thread went into one accumulator at the end
            return ceil_div(vectors, g * threads);
    }
    throw std::invalid_argument("accumulator_chain: unknown layout");
}

namespace {

// A thread of a streaming kernel: 2 adds inside a float4, the chain of its
// accumulator, 2 scalar adds (the unaligned head and tail), `unroll`
// accumulators added in order; then block_sum.
std::size_t streaming_depth(layout lay, std::size_t n, const tuning& t, int sms) {
    return 2 + accumulator_chain(lay, n, t, sms) + 2 + static_cast<std::size_t>(t.unroll) +
           block_sum_depth;
}

}  // namespace

std::size_t layout_depth(layout lay, std::size_t n, const tuning& t, int sms) {
    const std::size_t g = stride_blocks(n, t, sms);
    // The first version's last block: each thread a chain of ceil(G / threads)
    // partial sums, then block_sum.
    if (lay == layout::old)
        return streaming_depth(lay, n, t, sms) + ceil_div(g, static_cast<std::size_t>(t.threads)) +
               block_sum_depth;
    // finish_one_pass: the last block's first warp, each lane a chain of
    // ceil(G / 32) partial sums, then warp_sum.
    return streaming_depth(lay, n, t, sms) + ceil_div(g, std::size_t{32}) + warp_sum_depth;
}

std::size_t summation_depth(step s, std::size_t n, const tuning& t, int sms) {
    const std::size_t tree = log2_exact(tree_threads);
    switch (s) {
        case step::interleaved_divergent:
        case step::interleaved_strided:
        case step::sequential:  // one value per thread, then the tree
            return tree_passes(n, values_per_block(s)).size() * tree;
        case step::first_add:
        case step::last_warp:  // one add at the load, then the tree
            return tree_passes(n, values_per_block(s)).size() * (1 + tree);
        case step::warp_block:  // one add at the load, then block_sum
            return tree_passes(n, values_per_block(s)).size() * (1 + block_sum_depth);
        case step::two_pass:  // the second launch: one block adds the G partial sums
            return streaming_depth(layout::stride, n, t, sms) +
                   ceil_div(stride_blocks(n, t, sms), static_cast<std::size_t>(t.threads)) +
                   block_sum_depth;
        case step::one_pass:
            return layout_depth(layout::stride, n, t, sms);
    }
    throw std::invalid_argument("summation_depth: unknown step");
}

double gamma(std::size_t depth, double u) {
    const double hu = static_cast<double>(depth) * u;
    if (hu >= 1.0) return std::numeric_limits<double>::infinity();
    return hu / (1.0 - hu);
}

namespace {

constexpr std::size_t pairwise_base = 32;

template <class Acc>
Acc pairwise(const float* x, std::size_t n, bool absolute) {
    if (n <= pairwise_base) {
        Acc s = 0;
        for (std::size_t i = 0; i < n; ++i)
            s += static_cast<Acc>(absolute ? std::fabs(x[i]) : x[i]);
        return s;
    }
    const std::size_t half = n / 2;
    return pairwise<Acc>(x, half, absolute) + pairwise<Acc>(x + half, n - half, absolute);
}

}  // namespace

std::size_t pairwise_depth(std::size_t n) {
    if (n <= pairwise_base) return std::max<std::size_t>(n, 1);
    return 1 + pairwise_depth(n - n / 2);
}

double tolerance(std::size_t depth, double abs_sum, std::size_t n) {
    if (abs_sum == 0.0) return 0.0;  // all zeros (or none): every order gives exactly 0
    return (gamma(depth, float_u) + gamma(pairwise_depth(n) + 2, double_u)) * abs_sum;
}

verdict check_sum(double got, double reference, double bound) {
    const double error = std::fabs(got - reference);
    return {error <= bound, error, bound};  // NaN compares false: not ok
}

double pairwise_sum(const float* x, std::size_t n) { return pairwise<double>(x, n, false); }

float pairwise_float_sum(const float* x, std::size_t n) { return pairwise<float>(x, n, false); }

float sequential_float_sum(const float* x, std::size_t n) {
    float s = 0.0f;
    for (std::size_t i = 0; i < n; ++i) s += x[i];
    return s;
}

double abs_sum(const float* x, std::size_t n) { return pairwise<double>(x, n, true); }

std::int64_t integer_sum(const float* x, std::size_t n) {
    std::int64_t s = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const float v = x[i];
        if (!(std::fabs(v) < 2147483648.0f) || std::trunc(v) != v)
            throw std::invalid_argument("integer_sum: x[" + std::to_string(i) + "] = " +
                                        std::to_string(v) + " is not a whole number below 2^31");
        s += static_cast<std::int64_t>(v);
    }
    return s;
}

}  // namespace ch03
