// reduce_common.cpp: what the reduce programs share (see reduce_common.hpp).
#include "reduce_common.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "page_print.hpp"
#include "reduce_kernels.hpp"

namespace ch03 {

std::string size_label(std::size_t n) {
    for (int k = 0; k < 63; ++k)
        if (n == (std::size_t{1} << k)) return "2e" + std::to_string(k);
    return std::to_string(n);
}

std::vector<int> bench_log2s(const settings& s) {
    const std::vector<int> all =
        s.quick ? std::vector<int>{12, 16} : std::vector<int>{16, 20, 24, 28};
    std::vector<int> out;
    for (int k : all)
        if (k <= s.max_log2) out.push_back(k);
    if (out.empty()) throw std::invalid_argument("--max-log2 leaves no size to run");
    return out;
}

std::vector<float> to_host(const float* d, std::size_t n) {
    std::vector<float> h(n);
    if (n > 0) BOOK_CUDA_CHECK(cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
    return h;
}

float read_one(const float* d) {
    float v = 0.0f;
    BOOK_CUDA_CHECK(cudaMemcpy(&v, d, sizeof v, cudaMemcpyDeviceToHost));
    return v;
}

double tbs(std::size_t n, double ms) { return static_cast<double>(n) * sizeof(float) / (ms * 1e9); }

void warm_up(const settings& s, reducer& r, float* out) {
    const std::size_t n = std::min<std::size_t>(std::size_t{1} << 24, std::size_t{1} << s.max_log2);
    book::device_buffer<float> x(n);
    fill_input(x.data(), n, 1, input_kind::unit);
    book::warm_up_clocks([&] { r.run(x.data(), n, out); }, s.quick ? 1.0 : 200.0);
}

void print_policy(const launch_policy& p) {
    page_print(
        "launch of steps 7 and 8 by size (threads x blocks per SM x float4s\n"
        "in flight per thread; blocks of one SM at once in brackets):\n");
    std::size_t low = 0;
    for (const size_rule& r : p.rules()) {
        const std::string fit = "(" + std::to_string(max_blocks_per_sm(r.tune)) + " fit)";
        if (r.max_log2 == 0) {
            page_print("  %-24s %-10s %s\n", low == 0 ? "every n" : "larger n",
                       tuning_text(r.tune).c_str(), fit.c_str());
        } else {
            const std::string range = "n up to 2^" + std::to_string(r.max_log2);
            page_print("  %-24s %-10s %s\n", range.c_str(), tuning_text(r.tune).c_str(),
                       fit.c_str());
            low = std::size_t{1} << r.max_log2;
        }
    }
}

policy_options::policy_options(int& argc, char** argv, book::options& opts)
    : text_(take_text_option(argc, argv, "--policy")) {
    opts.option("--threads", threads_, "steps 7 and 8, every size: threads per block", 64, 1024);
    opts.option("--blocks-per-sm", blocks_per_sm_, "steps 7 and 8, every size: blocks per SM", 1,
                max_blocks_per_sm_setting);
    opts.option("--unroll", unroll_, "steps 7 and 8, every size: float4 loads in flight", 1, 8);
}

launch_policy policy_options::policy() const {
    const bool one_tuning = threads_ != 0 || blocks_per_sm_ != 0 || unroll_ != 0;
    if (one_tuning && text_)
        throw std::invalid_argument(
            "give either --policy or --threads/--blocks-per-sm/--unroll, not both");
    if (one_tuning) {
        const tuning d{};
        return launch_policy(tuning{threads_ != 0 ? threads_ : d.threads,
                                    blocks_per_sm_ != 0 ? blocks_per_sm_ : d.blocks_per_sm,
                                    unroll_ != 0 ? unroll_ : d.unroll});
    }
    if (text_) return parse_policy(*text_);
    return default_policy();
}

void take_candidates(int& argc, char** argv, settings& s) {
    if (const std::optional<std::string> c = take_text_option(argc, argv, "--candidates")) {
        s.candidates = parse_candidates(*c);
        s.candidates_given = true;
    } else {
        s.candidates = parse_candidates(
            "old:256x4x4,old:1024x2x2,tiles.ldg:256x32x4,even.ldg:256x8x4,stride.ldg:1024x2x4");
    }
}

void add_size_options(book::options& opts, settings& s) {
    opts.flag("--quick", s.quick, "small sizes, for compute-sanitizer");
    opts.option("--max-log2", s.max_log2, "largest size: 2^this floats", 4, 30);
    opts.option("--seed", s.seed, "first seed of the random input", 0);
}

void add_timing_options(book::options& opts, settings& s) {
    opts.option("--reps", s.reps, "calls per timed batch", 1, 100000);
    opts.option("--rounds", s.rounds, "alternating rounds against CUB, a batch each", 1, 1000);
}

}  // namespace ch03
