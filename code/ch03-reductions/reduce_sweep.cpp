// reduce_sweep: one-launch reductions of several layouts, load hints and launch
// parameters, against CUB (the run reduce-sweep).
//
// Which one-launch kernel streams fastest, at which launch parameters? Every
// row is one variant (a layout and a load hint, reduce_layouts.hpp) with one
// tuning, timed against CUB at each size in alternating rounds (so each row
// has its own CUB times, measured beside it), after one check of its result.
// The rows: a few per variant (the book's run), the whole grid (--full), or
// those named by --candidates. At the end: the best at each size, the best by
// margin over the four targets, each variant at its best, and the size policy
// the rows of step 8's own kernel (stride.ldcs) suggest.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "book/cuda.hpp"
#include "book/options.hpp"
#include "book/report.hpp"
#include "cub_sum.hpp"
#include "page_print.hpp"
#include "reduce_common.hpp"
#include "reduce_kernels.hpp"
#include "reduce_layouts.hpp"
#include "reduce_timing.hpp"

namespace ch03 {
namespace {

// The chapter's targets: step 8 against CUB at 2^16, 2^20, 2^24, 2^28 floats.
double target_of(int log2) {
    switch (log2) {
        case 16:
            return 1.4;
        case 20:
            return 1.4;
        case 24:
            return 1.05;
        case 28:
            return 0.98;
        default:
            return 0.0;  // no target at this size
    }
}

// The book's rows: every variant at three tunings (a resident grid of 256
// threads, one of 1024, and 256 threads with up to 32 blocks per SM: one tile
// per block at 2^24, as CUB's main kernel runs), and the old kernel at its two.
std::vector<candidate> book_rows() {
    std::vector<candidate> rows;
    for (const variant& v : all_variants()) {
        if (v.lay == layout::old) continue;
        for (const tuning& t : {tuning{256, 4, 4}, tuning{1024, 2, 4}, tuning{256, 32, 4}})
            rows.push_back({v, t});
    }
    rows.push_back({{layout::old, load_kind::plain}, {256, 4, 4}});
    rows.push_back({{layout::old, load_kind::plain}, {1024, 2, 2}});
    return rows;
}

// --full: step 8's kernel over threads x blocks per SM x unroll (up to eight
// waves of blocks), every other variant at a dozen tunings, the old kernel at four.
std::vector<candidate> full_rows() {
    std::vector<candidate> rows;
    const variant step8{layout::stride, stream_load};
    for (int threads : {128, 256, 512, 1024})
        for (int bps : {1, 2, 4, 8, 16, 32, 64})
            for (int unroll : {1, 2, 4, 8})
                if (threads * bps <= 16384) rows.push_back({step8, {threads, bps, unroll}});
    const std::vector<tuning> some = {{256, 4, 4},  {256, 8, 4}, {256, 16, 4}, {256, 32, 4},
                                      {256, 4, 2},  {256, 8, 2}, {1024, 2, 4}, {1024, 2, 2},
                                      {1024, 1, 4}, {512, 4, 4}, {512, 2, 4},  {128, 16, 4}};
    for (const variant& v : all_variants()) {
        if (v == step8 || v.lay == layout::old) continue;
        for (const tuning& t : some) rows.push_back({v, t});
    }
    for (const tuning& t :
         {tuning{256, 4, 4}, tuning{1024, 2, 2}, tuning{1024, 2, 4}, tuning{256, 8, 4}})
        rows.push_back({{layout::old, load_kind::plain}, t});
    return rows;
}

struct row_result {
    candidate c;
    int fit = 0;
    std::vector<double> ratio, us;  // per size: CUB's median over the row's; the row's median
    double margin = 0.0;            // the least ratio / target (the least ratio without targets)
};

std::string result_key(const candidate& c) {
    std::string k = variant_text(c.var);
    std::replace(k.begin(), k.end(), '.', '_');
    return k;
}

int run_sweep(const settings& s) {
    const std::vector<int> logs = bench_log2s(s);
    const std::size_t max_n = std::size_t{1} << logs.back();
    const std::vector<candidate> rows =
        s.candidates_given ? s.candidates : (s.full ? full_rows() : book_rows());
    // The column of microseconds: 2^24 where it is run, else the largest size.
    std::size_t us_col = logs.size() - 1;
    for (std::size_t k = 0; k < logs.size(); ++k)
        if (logs[k] == 24) us_col = k;

    std::vector<book::rotating_buffers<float>> in;
    std::vector<double> ref, mag;
    for (int lg : logs) {
        const std::size_t n = std::size_t{1} << lg;
        in.emplace_back(n, 3);
        fill_input(in.back().all(), in.back().total(), static_cast<std::uint64_t>(s.seed) + lg,
                   input_kind::unit);
        const std::vector<float> host = to_host(in.back().slot(0), n);
        ref.push_back(pairwise_sum(host.data(), n));
        mag.push_back(abs_sum(host.data(), n));
    }
    cub_sum cub(max_n);
    book::device_buffer<float> out(1);
    {
        reducer r(step::one_pass, max_n, s.policy);
        warm_up(s, r, out.data());
    }

    page_print(
        "\none-launch variants against CUB: CUB's median time over the variant's\n"
        "(%d alternating rounds of %d calls each); margin: the least ratio / target\n",
        s.rounds, s.reps);
    page_print("%-14s %-9s %3s", "variant", "tuning", "fit");
    for (int lg : logs) page_print(" %7s", ("2^" + std::to_string(lg)).c_str());
    page_print(" %8s %6s\n", ("us 2^" + std::to_string(logs[us_col])).c_str(), "margin");

    std::vector<row_result> results;
    long failures = 0;
    for (const candidate& c : rows) {
        std::unique_ptr<variant_reducer> r;
        try {
            r = std::make_unique<variant_reducer>(c, max_n);
        } catch (const std::invalid_argument&) {
            page_print("%-14s %-9s  (not one block fits on an SM)\n", variant_text(c.var).c_str(),
                       tuning_text(c.tune).c_str());
            continue;
        }
        row_result res{c, r->fit(), {}, {}, 0.0};
        double margin = 1e300, least = 1e300;
        for (std::size_t k = 0; k < logs.size(); ++k) {
            const std::size_t n = std::size_t{1} << logs[k];
            BOOK_CUDA_CHECK(cudaMemset(out.data(), 0xFF, sizeof(float)));
            r->poison();
            r->run(in[k].slot(0), n, out.data());
            const verdict v =
                check_sum(read_one(out.data()), ref[k], tolerance(r->depth(n), mag[k], n));
            if (!v.ok) {
                ++failures;
                page_print("FAILED: %s on 2^%d floats: error %.3g, bound %.3g\n",
                           candidate_text(c).c_str(), logs[k], v.error, v.bound);
            }
            in[k].rewind();
            const pair_times t = time_alternating([&] { r->run(in[k].next(), n, out.data()); },
                                                  [&] { cub.run(in[k].next(), n, out.data()); }, 3,
                                                  s.rounds, s.reps);
            const double ratio = t.b.median_ms / t.a.median_ms;
            res.ratio.push_back(ratio);
            res.us.push_back(t.a.median_ms * 1000.0);
            least = std::min(least, ratio);
            if (target_of(logs[k]) > 0) margin = std::min(margin, ratio / target_of(logs[k]));
        }
        res.margin = margin < 1e300 ? margin : least;
        page_print("%-14s %-9s %3d", variant_text(c.var).c_str(), tuning_text(c.tune).c_str(),
                   res.fit);
        for (double x : res.ratio) page_print(" %6.2fx", x);
        page_print(" %8.2f %6.3f\n", res.us[us_col], res.margin);
        results.push_back(std::move(res));
    }
    if (results.empty()) throw std::invalid_argument("reduce_sweep: no row could run");

    // A best row is chosen by the sweep's ratios, and the ratio it reports is timed
    // again, in fresh alternating rounds: the largest of many noisy ratios is biased
    // upward (a row that drew one slow CUB round wins), the same row timed again is not.
    std::map<std::pair<std::string, std::size_t>, double> confirmed;
    auto confirm = [&](const candidate& c, std::size_t k) {
        auto [it, fresh] = confirmed.try_emplace({candidate_text(c), k}, 0.0);
        if (fresh) {
            variant_reducer r(c, max_n);
            const std::size_t n = std::size_t{1} << logs[k];
            in[k].rewind();
            const pair_times t = time_alternating([&] { r.run(in[k].next(), n, out.data()); },
                                                  [&] { cub.run(in[k].next(), n, out.data()); }, 3,
                                                  s.rounds, s.reps);
            it->second = t.b.median_ms / t.a.median_ms;
        }
        return it->second;
    };

    // The best at each size.
    page_print(
        "\nbest at each size (CUB's time over the variant's; chosen by the sweep,\n"
        "then timed again in %d fresh rounds: the sweep's figure, then the fresh one):\n",
        s.rounds);
    for (std::size_t k = 0; k < logs.size(); ++k) {
        const auto best = std::max_element(results.begin(), results.end(), [&](auto& a, auto& b) {
            return a.ratio[k] < b.ratio[k];
        });
        const double again = confirm(best->c, k);
        page_print("  2^%-3d %6.2fx %6.2fx  %s\n", logs[k], best->ratio[k], again,
                   candidate_text(best->c).c_str());
        book::report("sweep_best_over_cub_" + size_label(std::size_t{1} << logs[k]), again,
                     "ratio");
    }

    // The best by margin, and each variant at its best.
    std::vector<row_result> by_margin = results;
    std::stable_sort(by_margin.begin(), by_margin.end(),
                     [](auto& a, auto& b) { return a.margin > b.margin; });
    auto print_ranked = [&](const row_result& r) {
        page_print("  %-26s", candidate_text(r.c).c_str());
        for (double x : r.ratio) page_print(" %6.2fx", x);
        page_print(" %6.3f\n", r.margin);
    };
    page_print("\nthe best by margin (targets");
    for (int lg : logs)
        if (target_of(lg) > 0) page_print(" %.2f", target_of(lg));
    page_print("):\n");
    for (std::size_t i = 0; i < std::min<std::size_t>(10, by_margin.size()); ++i)
        print_ranked(by_margin[i]);
    book::report("sweep_best_margin", by_margin.front().margin, "ratio");

    page_print("\neach variant at its best tuning, by margin:\n");
    for (const variant& v : all_variants()) {
        for (const row_result& r : by_margin) {
            if (!(r.c.var == v)) continue;
            print_ranked(r);
            book::report("sweep_margin_" + result_key(r.c), r.margin, "ratio");
            break;
        }
        // Its best tuning at each size, timed again.
        for (std::size_t k = 0; k < logs.size(); ++k) {
            const row_result* best = nullptr;
            for (const row_result& r : results)
                if (r.c.var == v && (best == nullptr || r.ratio[k] > best->ratio[k])) best = &r;
            if (best != nullptr)
                book::report("sweep_best_" + result_key({v, {}}) + "_" +
                                 size_label(std::size_t{1} << logs[k]),
                             confirm(best->c, k), "ratio");
        }
    }

    // The size policy step 8's own rows suggest: the best tuning at each size.
    const variant step8{layout::stride, stream_load};
    std::vector<size_rule> rules;
    const row_result* best_step8 = nullptr;
    for (const row_result& r : by_margin)
        if (r.c.var == step8 && best_step8 == nullptr) best_step8 = &r;
    if (best_step8 != nullptr) {
        for (std::size_t k = 0; k < logs.size(); ++k) {
            const row_result* best = nullptr;
            for (const row_result& r : results)
                if (r.c.var == step8 && (best == nullptr || r.ratio[k] > best->ratio[k])) best = &r;
            const int bound = k + 1 == logs.size() ? 0 : logs[k];
            if (!rules.empty() && rules.back().tune == best->c.tune)
                rules.back().max_log2 = bound;
            else
                rules.push_back({bound, best->c.tune});
        }
        page_print("\nbest step 8 tuning: %s\n", tuning_text(best_step8->c.tune).c_str());
        page_print("suggested policy: %s\n", launch_policy(rules).text().c_str());
        book::report("sweep_margin_step8", best_step8->margin, "ratio");
    }
    book::report("sweep_rows", static_cast<double>(results.size()), "count");
    book::report("sweep_failures", static_cast<double>(failures), "count");
    page_print("%zu rows, %ld failures\n", results.size(), failures);
    return failures == 0 ? 0 : 1;
}

int run(int argc, char** argv) {
    settings s;
    take_candidates(argc, argv, s);
    book::options opts(
        std::string("One-launch reductions of several layouts, load hints and launch\n"
                    "parameters, against CUB.\nAlso: ") +
        policy_options::help +
        "\n--candidates C, the rows: one-launch variants like\n"
        "tiles.ldg:256x32x4,old:1024x2x2.");
    policy_options policy(argc, argv, opts);
    add_size_options(opts, s);
    add_timing_options(opts, s);
    opts.flag("--full", s.full, "the whole grid of variants and launch parameters");
    if (const auto status = opts.parse(argc, argv)) return *status;
    if (s.full && s.candidates_given)
        throw std::invalid_argument("give either --full or --candidates, not both");
    s.policy = policy.policy();
    return run_sweep(s);
}

}  // namespace
}  // namespace ch03

int main(int argc, char** argv) { return book::gpu_main(argc, argv, ch03::run); }
