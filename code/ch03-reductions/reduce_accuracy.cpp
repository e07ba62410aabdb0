// reduce_accuracy: what the order of additions does to a float sum (the run
// reduce-accuracy): the naive loop, a balanced tree on the CPU, step 3, step 8
// and CUB against a double-precision reference, at 2^16 to 2^28 values in
// (0, 1].
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "book/cuda.hpp"
#include "book/options.hpp"
#include "book/report.hpp"
#include "cub_sum.hpp"
#include "page_print.hpp"
#include "reduce_common.hpp"
#include "reduce_kernels.hpp"

namespace ch03 {
namespace {

int run_accuracy(const settings& s) {
    const std::vector<int> logs = bench_log2s(s);
    const std::size_t max_n = std::size_t{1} << logs.back();
    reducer tree(step::sequential, max_n), best(step::one_pass, max_n, s.policy);
    cub_sum cub(max_n);
    book::device_buffer<float> x(max_n), out(1);
    long outside = 0;
    struct sums {
        int log2;
        double exact, loop;
    };
    std::vector<sums> loops;

    page_print("\nrelative error of float sums of n values in (0, 1], against a double sum\n");
    page_print("%-6s %10s %10s %10s %10s %10s %10s\n", "n", "loop", "CPU tree", "step 3", "step 8",
               "CUB", "8's bound");
    for (int lg : logs) {
        const std::size_t n = std::size_t{1} << lg;
        const std::string label = size_label(n);
        fill_input(x.data(), n, static_cast<std::uint64_t>(s.seed) + 100 + lg, input_kind::unit);
        const std::vector<float> host = to_host(x.data(), n);
        // Every value is k * 2^-24 with k <= 2^24 and n <= 2^29, so the double
        // sum is exact: any order gives it.
        const double ref = pairwise_sum(host.data(), n), mag = abs_sum(host.data(), n);
        auto rel = [&](double v) { return std::fabs(v - ref) / ref; };
        auto gpu = [&](auto& r) {
            BOOK_CUDA_CHECK(cudaMemset(out.data(), 0xFF, sizeof(float)));
            r.run(x.data(), n, out.data());
            return static_cast<double>(read_one(out.data()));
        };
        const double loop = sequential_float_sum(host.data(), n);
        const double cpu_tree = pairwise_float_sum(host.data(), n);
        const double step3 = gpu(tree), step8 = gpu(best), by_cub = gpu(cub);
        const std::size_t depth8 = best.depth(n);
        const double bound8 = tolerance(depth8, mag, n) / ref;
        if (rel(step8) > bound8) ++outside;
        page_print("2^%-4d %10.3g %10.3g %10.3g %10.3g %10.3g %10.3g\n", lg, rel(loop),
                   rel(cpu_tree), rel(step3), rel(step8), rel(by_cub), bound8);
        loops.push_back({lg, ref, loop});
        book::report("acc_exact_sum_" + label, ref, "sum");
        book::report("acc_loop_sum_" + label, loop, "sum");
        book::report("acc_loop_rel_err_" + label, rel(loop), "ratio");
        book::report("acc_cpu_tree_rel_err_" + label, rel(cpu_tree), "ratio");
        book::report("acc_sequential_rel_err_" + label, rel(step3), "ratio");
        book::report("acc_one_pass_rel_err_" + label, rel(step8), "ratio");
        book::report("acc_cub_rel_err_" + label, rel(by_cub), "ratio");
        book::report("acc_one_pass_depth_" + label, static_cast<double>(depth8), "additions");
        book::report("acc_sequential_depth_" + label, static_cast<double>(tree.depth(n)),
                     "additions");
        book::report("acc_one_pass_bound_rel_" + label, bound8, "ratio");
    }
    page_print("\nthe loop's sum beside the exact sum:\n%-6s %16s %16s\n", "n", "exact", "loop");
    for (const sums& l : loops) page_print("2^%-4d %16.1f %16.1f\n", l.log2, l.exact, l.loop);
    book::report("acc_outside_bound", static_cast<double>(outside), "count");
    page_print("step 8 outside its bound: %ld of %zu sizes\n", outside, logs.size());
    return outside == 0 ? 0 : 1;
}

int run(int argc, char** argv) {
    settings s;
    book::options opts(std::string("The float error of the sequential loop, the trees and CUB.\n"
                                   "Also: ") +
                       policy_options::help);
    policy_options policy(argc, argv, opts);
    add_size_options(opts, s);
    if (const auto status = opts.parse(argc, argv)) return *status;
    s.policy = policy.policy();
    return run_accuracy(s);
}

}  // namespace
}  // namespace ch03

int main(int argc, char** argv) { return book::gpu_main(argc, argv, ch03::run); }
