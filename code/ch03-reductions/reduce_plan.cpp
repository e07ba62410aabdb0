// Chapter 3's steps, launch plans, size policy and variants (see reduce_plan.hpp).
#include "reduce_plan.hpp"

#include <algorithm>
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

// [listing:default-policy]
launch_policy default_policy() {
    // Up to 2^22 floats: blocks of 256 threads, four per SM, four float4s in
    // flight each. Above: 1024 threads per block, two blocks per SM, four
    // float4s each. (Chosen from the sweep of launch settings on the H200:
    // reduce_sweep.)
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

std::string candidate_text(const candidate& c) {
    return variant_text(c.var) + ":" + tuning_text(c.tune);
}

}  // namespace ch03
