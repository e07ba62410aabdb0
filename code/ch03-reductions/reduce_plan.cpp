// Chapter 3's CPU side (see reduce_plan.hpp).
#include "reduce_plan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace ch03 {

const step_info& info(step s) {
    for (const step_info& i : steps)
        if (i.id == s) return i;
    throw std::invalid_argument("ch03::info: unknown step");
}

std::size_t values_per_block(step s) {
    switch (s) {
        case step::interleaved_divergent:
        case step::interleaved_strided:
        case step::sequential:
            return tree_threads;
        case step::first_add:
        case step::last_warp:
        case step::warp_block:
            return 2 * tree_threads;
        default:
            throw std::invalid_argument("values_per_block: step " + std::string(info(s).key) +
                                        " uses grid-stride loops, not a fixed count per block");
    }
}

std::vector<pass> tree_passes(std::size_t n, std::size_t per_block) {
    if (per_block < 2) throw std::invalid_argument("tree_passes: per_block must be at least 2");
    std::vector<pass> plan;
    do {
        const std::size_t blocks = std::max<std::size_t>(1, (n + per_block - 1) / per_block);
        plan.push_back({n, blocks});
        n = blocks;
    } while (n > 1);
    return plan;
}

void check_tuning(const tuning& t) {
    if (t.threads < 64 || t.threads > 1024 || t.threads % 32 != 0)
        throw std::invalid_argument("threads must be a multiple of 32 from 64 to 1024, not " +
                                    std::to_string(t.threads));
    if (t.blocks_per_sm < 1 || t.blocks_per_sm > 32)
        throw std::invalid_argument("blocks per SM must be 1..32, not " +
                                    std::to_string(t.blocks_per_sm));
    if (t.unroll != 1 && t.unroll != 2 && t.unroll != 4 && t.unroll != 8)
        throw std::invalid_argument("unroll must be 1, 2, 4 or 8, not " + std::to_string(t.unroll));
}

std::size_t stride_blocks(std::size_t n, const tuning& t, int sms) {
    check_tuning(t);
    if (sms < 1) throw std::invalid_argument("stride_blocks: sms must be positive");
    const std::size_t vectors = (n + 3) / 4;
    const std::size_t per_block = static_cast<std::size_t>(t.threads) * t.unroll;
    const std::size_t wanted = (vectors + per_block - 1) / per_block;
    const std::size_t full = static_cast<std::size_t>(sms) * t.blocks_per_sm;
    return std::max<std::size_t>(1, std::min(wanted, full));
}

namespace {

std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

// The depth of one block's reduction in the shared-memory kernels.
std::size_t log2_exact(std::size_t p) {
    std::size_t l = 0;
    while ((std::size_t{1} << l) < p) ++l;
    return l;
}

// block_sum in reduce_kernels.cu: five shuffle levels in each warp, five more
// in warp 0 over the warps' sums (at most 32 of them).
constexpr std::size_t block_sum_depth = 10;

}  // namespace

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
        case step::two_pass:
        case step::one_pass: {
            // thread_sum: 2 adds inside a float4, a chain of at most k float4s in
            // one accumulator, 2 scalar adds (the unaligned head and the tail),
            // `unroll` accumulators added in order; block_sum; then the partials:
            // a chain of ceil(G/threads) per thread and block_sum again.
            const std::size_t blocks = stride_blocks(n, t, sms);
            const std::size_t threads = static_cast<std::size_t>(t.threads);
            const std::size_t k = ceil_div(ceil_div(n, 4), blocks * threads);
            return 2 + k + 2 + static_cast<std::size_t>(t.unroll) + block_sum_depth +
                   ceil_div(blocks, threads) + block_sum_depth;
        }
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
