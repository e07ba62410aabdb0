// reduce_check: every reduction of the chapter against exact and bounded
// results (the run reduce-check, and the sanitizer tests on --quick).
//
// It runs every step (and steps 7 and 8 with several launch policies,
// every one-launch variant of the layout comparison, and CUB) on sizes from 0
// to 2^28 (the variants up to 2^24 + 5), on input that starts on each of the four
// float positions of a 16-byte line, twice per case: once on whole numbers
// (every kernel must return the exact sum) and once on floats in (0, 1]
// (every kernel must land within the error bound of its summation tree). The
// output and the partial sums are poisoned with NaN before every run, and
// every case gets fresh random input.
//
// Why the whole-number sums are exact: every partial sum a kernel forms is the
// sum of a fixed subset S of the inputs, each uniform on +-1..8 with mean 0.
// By Hoeffding's inequality P(|sum over S| >= 2^24) <= 2 exp(-2^48 / (128 |S|)),
// below e^-8000 for |S| <= 2^28; so all partial sums (fewer than 2^30) are
// whole numbers below 2^24, which float holds exactly, and no addition rounds.
// A result that is off by any amount is a bug: a value lost, read twice, or
// read from the wrong place.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "book/cuda.hpp"
#include "book/options.hpp"
#include "book/report.hpp"
#include "cub_sum.hpp"
#include "page_print.hpp"
#include "reduce_common.hpp"
#include "reduce_kernels.hpp"
#include "reduce_layouts.hpp"

namespace ch03 {
namespace {

// One thing that sums: a step with one launch policy, a variant, or CUB.
struct runner {
    std::string name;
    std::function<void(const float*, std::size_t, float*)> run;
    std::function<void()> poison;
    std::function<std::size_t(std::size_t)> depth;  // of its summation tree on n values
    std::size_t max_n = ~std::size_t{0};            // the largest n it is checked on
    long runs = 0, failures = 0;
    double worst = 0.0;  // the largest error / bound seen on the (0, 1] input
};

std::vector<std::size_t> check_sizes(const settings& s) {
    // --quick (for compute-sanitizer, which runs kernels far slower): the empty
    // input, one value, a partial warp, partial blocks, and two passes.
    std::vector<std::size_t> sizes = {0, 1, 33, 513, 4097, 100003};
    if (!s.quick) {
        sizes = {0,    1,    2,    3,    4,     5,     7,     31,     32,     33,   63,
                 64,   65,   127,  255,  256,   257,   511,   512,    513,    1023, 1024,
                 1025, 4095, 4096, 4097, 65535, 65536, 65537, 100003, 1000003};
        for (std::size_t n :
             {(std::size_t{1} << 20) - 1, std::size_t{1} << 20, (std::size_t{1} << 20) + 3,
              3 * (std::size_t{1} << 20) + 1, (std::size_t{1} << 24) - 1,
              (std::size_t{1} << 24) + 5, std::size_t{1} << 28})
            if (n <= (std::size_t{1} << s.max_log2)) sizes.push_back(n);
    }
    return sizes;
}

// A result name's part for a policy or a candidate: [a-z0-9_] only.
std::string name_part(std::string text) {
    for (char& c : text)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) c = '_';
    return text;
}

int run_check(const settings& s) {
    const std::vector<std::size_t> sizes = check_sizes(s);
    std::size_t max_n = 0;
    for (std::size_t n : sizes) max_n = n > max_n ? n : max_n;

    // Every step with the chosen policy; steps 7 and 8 with other tunings and
    // a policy that changes tuning between the sizes checked.
    struct named_policy {
        std::string name;
        launch_policy policy;
    };
    std::vector<named_policy> extra = {{"64x1x8", parse_policy("64x1x8")}};
    if (!s.quick)
        for (const char* p : {"1024x2x1", "128x16x2", "512x4x4", "256x64x4"})
            extra.push_back({p, parse_policy(p)});
    if (!s.quick)  // a policy that changes tuning between the sizes checked
        extra.push_back({"mixed", parse_policy("2e10:64x1x1,2e16:128x2x2,2e22:256x8x4,1024x2x4")});
    // Every variant of the layout comparison at one tuning; the three layouts
    // also with one tile per block (at 2^24) and with a small grid of many rounds.
    std::vector<candidate> variants;
    for (const variant& v : all_variants())
        variants.push_back({v, v.lay == layout::old ? tuning{1024, 2, 2} : tuning{256, 4, 4}});
    if (!s.quick)
        for (layout l : {layout::stride, layout::tiles, layout::even})
            for (const tuning& t : {tuning{256, 32, 4}, tuning{64, 1, 8}})
                variants.push_back({{l, load_kind::plain}, t});
    const std::size_t variants_max_n = (std::size_t{1} << 24) + 5;

    std::vector<std::unique_ptr<reducer>> reducers;
    std::vector<std::unique_ptr<variant_reducer>> variant_reducers;
    std::vector<runner> runners;
    auto add = [&](step st, const launch_policy& p, std::string name) {
        reducers.push_back(std::make_unique<reducer>(st, max_n, p));
        reducer* r = reducers.back().get();
        runners.push_back({std::move(name),
                           [r](const float* x, std::size_t n, float* out) { r->run(x, n, out); },
                           [r] { r->poison(); }, [r](std::size_t n) { return r->depth(n); }});
    };
    for (const step_info& st : steps) add(st.id, s.policy, std::string(st.key));
    for (const named_policy& p : extra) {
        add(step::two_pass, p.policy, "two_pass_" + p.name);
        add(step::one_pass, p.policy, "one_pass_" + p.name);
    }
    const std::size_t vmax = std::min(max_n, variants_max_n);
    for (const candidate& c : variants) {
        variant_reducers.push_back(std::make_unique<variant_reducer>(c, vmax));
        variant_reducer* r = variant_reducers.back().get();
        runners.push_back({"variant_" + name_part(candidate_text(c)),
                           [r](const float* x, std::size_t n, float* out) { r->run(x, n, out); },
                           [r] { r->poison(); }, [r](std::size_t n) { return r->depth(n); }, vmax});
    }
    cub_sum cub(max_n);
    runners.push_back({"cub",
                       [&](const float* x, std::size_t n, float* out) { cub.run(x, n, out); },
                       [] {}, [](std::size_t n) { return n; }});  // any order: depth <= n

    book::device_buffer<float> input(max_n + 3), out(1);
    long cases = 0, failures = 0, printed = 0;
    std::uint64_t seed = static_cast<std::uint64_t>(s.seed) * 1000003u;
    for (std::size_t n : sizes) {
        const std::vector<std::size_t> offsets = s.quick ? std::vector<std::size_t>{0, 3}
                                                 : n <= (std::size_t{1} << 20)
                                                     ? std::vector<std::size_t>{0, 1, 2, 3}
                                                     : std::vector<std::size_t>{0, 1};
        for (std::size_t offset : offsets) {
            for (input_kind kind : {input_kind::small_int, input_kind::unit}) {
                // [listing:check-case]
                float* x = input.data() + offset;
                fill_input(x, n, ++seed, kind);  // fresh input for every case
                const std::vector<float> host = to_host(x, n);
                const double mag = abs_sum(host.data(), n);
                const bool exact = kind == input_kind::small_int;
                const double ref = exact ? static_cast<double>(integer_sum(host.data(), n))
                                         : pairwise_sum(host.data(), n);
                for (runner& r : runners) {
                    if (n > r.max_n) continue;
                    BOOK_CUDA_CHECK(cudaMemset(out.data(), 0xFF, sizeof(float)));  // NaN
                    r.poison();
                    r.run(x, n, out.data());
                    const float got = read_one(out.data());
                    const double bound = exact ? 0.0 : tolerance(r.depth(n), mag, n);
                    const verdict v = check_sum(got, ref, bound);
                    // [/listing:check-case]
                    ++r.runs;
                    if (!exact && v.bound > 0) r.worst = std::max(r.worst, v.error / v.bound);
                    if (v.ok) continue;
                    ++r.failures;
                    ++failures;
                    if (++printed <= 20)
                        page_print(
                            "FAILED: %s\n  n = %zu, offset %zu, %s input: got %.9g,\n"
                            "  expected %.17g (error %.3g, bound %.3g)\n",
                            r.name.c_str(), n, offset, exact ? "whole-number" : "(0, 1]", got, ref,
                            v.error, v.bound);
                }
                ++cases;
            }
        }
    }

    page_print(
        "\n%zu sizes from 0 to %zu, %ld cases (size x alignment x input);\n"
        "fresh input for each, outputs poisoned with NaN before every run\n",
        sizes.size(), max_n, cases);
    page_print("%-30s %6s %8s %14s\n", "kernel", "runs", "failures", "error / bound");
    long runs = 0;
    for (const runner& r : runners) {
        page_print("%-30s %6ld %8ld %14.3g\n", r.name.c_str(), r.runs, r.failures, r.worst);
        runs += r.runs;
        book::report("failures_" + r.name, static_cast<double>(r.failures), "count");
        book::report("worst_error_over_bound_" + r.name, r.worst, "ratio");
    }
    book::report("cases", static_cast<double>(cases), "count");
    book::report("kernel_runs", static_cast<double>(runs), "count");
    book::report("failures", static_cast<double>(failures), "count");
    book::report("largest_n", static_cast<double>(max_n), "floats");
    page_print("%ld runs, %ld failures\n", runs, failures);
    return failures == 0 ? 0 : 1;
}

int run(int argc, char** argv) {
    settings s;
    book::options opts(
        std::string("Every reduction of the chapter over many sizes, alignments and\n"
                    "launch parameters, against exact and bounded sums.\nAlso: ") +
        policy_options::help);
    policy_options policy(argc, argv, opts);
    add_size_options(opts, s);
    if (const auto status = opts.parse(argc, argv)) return *status;
    s.policy = policy.policy();
    return run_check(s);
}

}  // namespace
}  // namespace ch03

int main(int argc, char** argv) { return book::gpu_main(argc, argv, ch03::run); }
