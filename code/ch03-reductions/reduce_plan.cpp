// Chapter 3's CPU side (see reduce_plan.hpp).
#include "reduce_plan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

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

namespace {

std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

// A whole number in 1..max from text (digits only), or -1.
long whole_number(std::string_view text, long max) {
    if (text.empty() || text.size() > 9) return -1;
    long v = 0;
    for (char c : text) {
        if (c < '0' || c > '9') return -1;
        v = v * 10 + (c - '0');
    }
    return v >= 1 && v <= max ? v : -1;
}

std::vector<std::string_view> split(std::string_view text, char sep) {
    std::vector<std::string_view> parts;
    std::size_t from = 0;
    for (;;) {
        const std::size_t at = text.find(sep, from);
        parts.push_back(text.substr(from, at == std::string_view::npos ? at : at - from));
        if (at == std::string_view::npos) return parts;
        from = at + 1;
    }
}

}  // namespace

void check_tuning(const tuning& t) {
    if (t.threads < 64 || t.threads > 1024 || t.threads % 32 != 0)
        throw std::invalid_argument("threads must be a multiple of 32 from 64 to 1024, not " +
                                    std::to_string(t.threads));
    if (t.blocks_per_sm < 1 || t.blocks_per_sm > max_blocks_per_sm_setting)
        throw std::invalid_argument("blocks per SM must be 1.." +
                                    std::to_string(max_blocks_per_sm_setting) + ", not " +
                                    std::to_string(t.blocks_per_sm));
    if (t.unroll != 1 && t.unroll != 2 && t.unroll != 4 && t.unroll != 8)
        throw std::invalid_argument("unroll must be 1, 2, 4 or 8, not " + std::to_string(t.unroll));
}

std::string tuning_text(const tuning& t) {
    return std::to_string(t.threads) + "x" + std::to_string(t.blocks_per_sm) + "x" +
           std::to_string(t.unroll);
}

tuning parse_tuning(std::string_view text) {
    const std::vector<std::string_view> parts = split(text, 'x');
    long v[3] = {-1, -1, -1};
    if (parts.size() == 3)
        for (int k = 0; k < 3; ++k) v[k] = whole_number(parts[k], 100000);
    if (v[0] < 0 || v[1] < 0 || v[2] < 0)
        throw std::invalid_argument("'" + std::string(text) +
                                    "' is not a tuning: write threads x blocks per SM x unroll, "
                                    "like 256x4x4");
    const tuning t{static_cast<int>(v[0]), static_cast<int>(v[1]), static_cast<int>(v[2])};
    try {
        check_tuning(t);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument("tuning '" + std::string(text) + "': " + e.what());
    }
    return t;
}

std::size_t tile_count(std::size_t n, const tuning& t) {
    check_tuning(t);
    const std::size_t vectors = ceil_div(n, 4);
    return ceil_div(vectors, static_cast<std::size_t>(t.threads) * t.unroll);
}

std::size_t stride_blocks(std::size_t n, const tuning& t, int sms) {
    check_tuning(t);
    if (sms < 1) throw std::invalid_argument("stride_blocks: sms must be positive");
    const std::size_t full = static_cast<std::size_t>(sms) * t.blocks_per_sm;
    return std::max<std::size_t>(1, std::min(tile_count(n, t), full));
}

// ---------------------------------------------------------------------------
// The size policy

launch_policy::launch_policy(const tuning& t) : rules_{{0, t}} { check_tuning(t); }

launch_policy::launch_policy(std::vector<size_rule> rules) : rules_(std::move(rules)) {
    if (rules_.empty()) throw std::invalid_argument("a launch policy needs at least one rule");
    for (std::size_t k = 0; k < rules_.size(); ++k) {
        const size_rule& r = rules_[k];
        check_tuning(r.tune);
        const bool last = k + 1 == rules_.size();
        const std::string which =
            "rule " + std::to_string(k + 1) + " (" + tuning_text(r.tune) + ")";
        if (last && r.max_log2 != 0)
            throw std::invalid_argument(which +
                                        ": the last rule takes every larger size, so it "
                                        "has no bound (max_log2 0)");
        if (!last && (r.max_log2 < 1 || r.max_log2 > 62))
            throw std::invalid_argument(which + ": its bound 2^" + std::to_string(r.max_log2) +
                                        " is not in 2^1..2^62");
        if (!last && k > 0 && r.max_log2 <= rules_[k - 1].max_log2)
            throw std::invalid_argument(which + ": bounds must rise, but 2^" +
                                        std::to_string(r.max_log2) + " follows 2^" +
                                        std::to_string(rules_[k - 1].max_log2));
    }
}

const tuning& launch_policy::at(std::size_t n) const {
    for (std::size_t k = 0; k + 1 < rules_.size(); ++k)
        if (n <= (std::size_t{1} << rules_[k].max_log2)) return rules_[k].tune;
    return rules_.back().tune;
}

std::size_t launch_policy::max_blocks(int sms) const {
    std::size_t most = 1;
    for (const size_rule& r : rules_)
        most = std::max(most, static_cast<std::size_t>(sms) * r.tune.blocks_per_sm);
    return most;
}

std::string launch_policy::text() const {
    std::string out;
    for (const size_rule& r : rules_) {
        if (!out.empty()) out += ",";
        if (r.max_log2 != 0) out += "2e" + std::to_string(r.max_log2) + ":";
        out += tuning_text(r.tune);
    }
    return out;
}

launch_policy parse_policy(std::string_view text) {
    std::vector<size_rule> rules;
    const std::vector<std::string_view> parts = split(text, ',');
    for (std::size_t k = 0; k < parts.size(); ++k) {
        const std::string_view part = parts[k];
        const bool last = k + 1 == parts.size();
        const std::size_t colon = part.find(':');
        int bound = 0;
        std::string_view tune = part;
        if (colon != std::string_view::npos) {
            const std::string_view b = part.substr(0, colon);
            const long v = b.substr(0, 2) == "2e" ? whole_number(b.substr(2), 62) : -1;
            if (v < 0)
                throw std::invalid_argument("policy rule '" + std::string(part) + "': '" +
                                            std::string(b) +
                                            "' is not a size bound like 2e20 (2^20 floats)");
            bound = static_cast<int>(v);
            tune = part.substr(colon + 1);
        }
        if (last && bound != 0)
            throw std::invalid_argument(
                "policy rule '" + std::string(part) +
                "': the last rule takes every larger size: give it no bound");
        if (!last && bound == 0)
            throw std::invalid_argument("policy rule '" + std::string(part) +
                                        "': every rule but the last needs a bound like 2e20:");
        try {
            rules.push_back({bound, parse_tuning(tune)});
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument("policy rule '" + std::string(part) + "': " + e.what());
        }
    }
    try {
        return launch_policy(std::move(rules));
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument("policy '" + std::string(text) + "': " + e.what());
    }
}

// [listing:default-policy]
launch_policy default_policy() {
    // Up to 2^22 floats: blocks of 256 threads, four per SM, four float4s in
    // flight each. Above: 1024 threads per block, two blocks per SM, four
    // float4s each. (Chosen from the sweep of launch settings on the H200:
    // reduce --sweep.)
    return launch_policy({{22, {256, 4, 4}}, {0, {1024, 2, 4}}});
}
// [/listing:default-policy]

// ---------------------------------------------------------------------------
// Layouts and variants

const std::vector<variant>& all_variants() {
    static const std::vector<variant> all = [] {
        std::vector<variant> v;
        for (layout l : {layout::stride, layout::tiles, layout::even})
            for (load_kind k :
                 {load_kind::plain, load_kind::ldg, load_kind::ldcs, load_kind::l2_256})
                v.push_back({l, k});
        v.push_back({layout::old, load_kind::plain});
        return v;
    }();
    return all;
}

namespace {

constexpr std::array<std::pair<layout, std::string_view>, 4> layout_names = {{
    {layout::stride, "stride"},
    {layout::tiles, "tiles"},
    {layout::even, "even"},
    {layout::old, "old"},
}};
constexpr std::array<std::pair<load_kind, std::string_view>, 4> load_names = {{
    {load_kind::plain, "plain"},
    {load_kind::ldg, "ldg"},
    {load_kind::ldcs, "ldcs"},
    {load_kind::l2_256, "l2_256"},
}};

}  // namespace

std::string variant_text(variant v) {
    std::string out;
    for (const auto& [l, name] : layout_names)
        if (l == v.lay) out = name;
    for (const auto& [k, name] : load_names)
        if (k == v.load) out += "." + std::string(name);
    return out;
}

variant parse_variant(std::string_view text) {
    for (const variant& v : all_variants()) {
        const std::string name = variant_text(v);
        if (text == name || (v.load == load_kind::plain && text == name.substr(0, name.find('.'))))
            return v;
    }
    std::string known;
    for (const variant& v : all_variants()) known += (known.empty() ? "" : ", ") + variant_text(v);
    throw std::invalid_argument("'" + std::string(text) +
                                "' is no variant; the variants: " + known);
}

std::string candidate_text(const candidate& c) {
    return variant_text(c.var) + ":" + tuning_text(c.tune);
}

std::vector<candidate> parse_candidates(std::string_view text) {
    std::vector<candidate> out;
    for (std::string_view part : split(text, ',')) {
        const std::size_t colon = part.find(':');
        if (colon == std::string_view::npos)
            throw std::invalid_argument("'" + std::string(part) +
                                        "' is not a candidate: write variant:tuning, like "
                                        "tiles.ldg:256x32x4");
        try {
            out.push_back(
                {parse_variant(part.substr(0, colon)), parse_tuning(part.substr(colon + 1))});
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument("candidate '" + std::string(part) + "': " + e.what());
        }
    }
    return out;
}

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

std::optional<std::string> take_text_option(int& argc, char** argv, std::string_view name) {
    std::optional<std::string> value;
    const std::string with_eq = std::string(name) + "=";
    int kept = 1;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == name) {
            if (i + 1 >= argc) throw std::invalid_argument(std::string(name) + " needs a value");
            value = argv[++i];
        } else if (a.substr(0, with_eq.size()) == with_eq) {
            value = std::string(a.substr(with_eq.size()));
        } else {
            argv[kept++] = argv[i];
        }
        if (value && value->empty())
            throw std::invalid_argument(std::string(name) + " needs a value, not an empty one");
    }
    if (argc > kept) argc = kept;
    return value;
}

}  // namespace ch03
