// reduce_bench: the chapter's reductions against CUB and the read-stream ceiling.
//
// For 2^16, 2^20, 2^24 and 2^28 floats it times every step of the
// progression, CUB's DeviceReduce::Sum and a kernel that only reads the input
// (the ceiling), in batches of calls issued back to back, each batch between
// one pair of CUDA events, after warm-up, on input that no timed call finds in
// the L2 cache (rotating buffers), and reports the median time per call. Step
// 8 and CUB are timed in alternating rounds (reduce_timing.hpp), and once more
// as CUDA-graph replays (no launch cost on the host). The chapter's other
// reduce programs: reduce_sweep compares one-launch kernels of several
// layouts, load hints and launch parameters against CUB; reduce_check and
// reduce_accuracy test results; reduce_profile launches each kernel once for
// Nsight Compute.
#include <algorithm>
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
#include "reduce_timing.hpp"

namespace ch03 {

namespace {

// <key>_us_<size>, <key>_tbs_<size> and, but for the ceiling, <key>_of_ceiling_<size>.
void report_row(const std::string& key, const std::string& label, std::size_t n, double ms,
                double ceiling_ms) {
    book::report(key + "_us_" + label, ms * 1000.0, "us");
    book::report(key + "_tbs_" + label, tbs(n, ms), "TB/s");
    if (key != "ceiling") book::report(key + "_of_ceiling_" + label, ceiling_ms / ms, "fraction");
}

const char* const row_format = "%-27s %8s %7s %10.2f %7.3f %10.3f\n";

int run_bench(const settings& s) {
    const std::vector<int> logs = bench_log2s(s);
    const std::size_t max_n = std::size_t{1} << logs.back();
    const int sms = book::device_attribute(cudaDevAttrMultiProcessorCount);
    std::vector<reducer> reducers;
    for (const step_info& st : steps) reducers.emplace_back(st.id, max_n, s.policy);
    reducer& best = reducers.back();
    cub_sum cub(max_n);
    book::device_buffer<float> out(1), sink(1);
    const int warmup = 3;
    long failures = 0;

    // The memory's peak by the device query: the bus width times two transfers per
    // clock of the memory clock (HBM's double data rate), the figure datasheets round.
    const double peak_tbs = 2.0 * book::device_attribute(cudaDevAttrMemoryClockRate) * 1e3 *
                            book::device_attribute(cudaDevAttrGlobalMemoryBusWidth) / 8.0 / 1e12;
    book::report("dram_peak_tbs", peak_tbs, "TB/s");

    page_print("\n");
    print_policy(s.policy);
    page_print("memory peak by the device query: %.2f TB/s\n", peak_tbs);
    page_print("CUB's temporary storage: %zu bytes\n", cub.temp_bytes());
    warm_up(s, best, out.data());

    for (int lg : logs) {
        const std::size_t n = std::size_t{1} << lg;
        const std::string label = size_label(n);
        const tuning& t = s.policy.at(n);
        book::rotating_buffers<float> in(n, 3);
        fill_input(in.all(), in.total(), static_cast<std::uint64_t>(s.seed) + lg, input_kind::unit);

        // Every step's result on the first buffer, against the double reference.
        const std::vector<float> host = to_host(in.slot(0), n);
        const double ref = pairwise_sum(host.data(), n), mag = abs_sum(host.data(), n);
        for (reducer& r : reducers) {
            BOOK_CUDA_CHECK(cudaMemset(out.data(), 0xFF, sizeof(float)));
            r.poison();
            r.run(in.slot(0), n, out.data());
            const verdict v = check_sum(read_one(out.data()), ref, tolerance(r.depth(n), mag, n));
            if (!v.ok) {
                ++failures;
                page_print("FAILED: %s on %s floats: error %.3g, bound %.3g\n",
                           std::string(info(r.which()).key).c_str(), label.c_str(), v.error,
                           v.bound);
            }
        }

        in.rewind();
        const book::timing_stats ceiling = time_batches(
            [&] { read_ceiling(in.next(), n, sink.data(), t, sms); }, warmup, s.batches, s.reps);
        std::vector<book::timing_stats> times;
        for (std::size_t k = 0; k + 1 < reducers.size(); ++k) {
            in.rewind();
            times.push_back(time_batches([&] { reducers[k].run(in.next(), n, out.data()); }, warmup,
                                         s.batches, s.reps));
        }
        in.rewind();
        const pair_times vs =
            time_alternating([&] { best.run(in.next(), n, out.data()); },
                             [&] { cub.run(in.next(), n, out.data()); }, warmup, s.rounds, s.reps);
        times.push_back(vs.a);
        const double ratio = vs.b.median_ms / vs.a.median_ms;

        const double cms = ceiling.median_ms;
        page_print("\nn = 2^%d = %zu floats (%.1f MiB), %zu buffers in rotation, %s\n", lg, n,
                   n * 4.0 / (1 << 20), in.count(), tuning_text(t).c_str());
        page_print("%-27s %8s %7s %10s %7s %10s\n", "", "launches", "blocks", "median us", "TB/s",
                   "of ceiling");
        page_print(row_format, "read-stream ceiling", "1",
                   std::to_string(stride_blocks(n, t, sms)).c_str(), cms * 1000, tbs(n, cms), 1.0);
        report_row("ceiling", label, n, cms, cms);
        for (std::size_t k = 0; k < reducers.size(); ++k) {
            const step_info& st = info(reducers[k].which());
            const double ms = times[k].median_ms;
            page_print(row_format, std::string(st.title).c_str(),
                       std::to_string(reducers[k].launches(n)).c_str(),
                       std::to_string(reducers[k].blocks(n)).c_str(), ms * 1000, tbs(n, ms),
                       cms / ms);
            report_row(std::string(st.key), label, n, ms, cms);
            book::report("launches_" + std::string(st.key) + "_" + label,
                         static_cast<double>(reducers[k].launches(n)), "count");
        }
        page_print(row_format, "CUB DeviceReduce::Sum", "-", "-", vs.b.median_ms * 1000,
                   tbs(n, vs.b.median_ms), cms / vs.b.median_ms);
        report_row("cub", label, n, vs.b.median_ms, cms);
        book::report("best_over_cub_" + label, ratio, "ratio");
        book::report("blocks_" + label, static_cast<double>(best.blocks(n)), "blocks");
        book::report("threads_" + label, t.threads, "threads");
        book::report("blocks_per_sm_" + label, t.blocks_per_sm, "blocks");
        book::report("unroll_" + label, t.unroll, "loads");
        page_print("step 8 against CUB (%d alternating rounds of %d calls each): %.2fx as fast\n",
                   s.rounds, s.reps, ratio);

        if (s.graphs) {
            const int calls = graph_calls(in.count());
            const double gb = graph_us_per_call(
                [&](int i, cudaStream_t st) { best.run(in.slot(i), n, out.data(), st); }, calls);
            const double gc = graph_us_per_call(
                [&](int i, cudaStream_t st) { cub.run(in.slot(i), n, out.data(), st); }, calls);
            book::report("graph_one_pass_us_" + label, gb, "us");
            book::report("graph_cub_us_" + label, gc, "us");
            book::report("graph_best_over_cub_" + label, gc / gb, "ratio");
            page_print("as CUDA graphs (%d calls per graph): step 8 %.2f us, CUB %.2f us: %.2fx\n",
                       calls, gb, gc, gc / gb);
        }
    }
    book::report("bench_failures", static_cast<double>(failures), "count");
    page_print("\nresults against the double reference: %ld failures\n", failures);
    return failures == 0 ? 0 : 1;
}

int run(int argc, char** argv) {
    settings s;
    book::options opts(
        std::string("Reductions from the textbook tree to warp shuffles, against CUB.\n"
                    "Also: ") +
        policy_options::help);
    policy_options policy(argc, argv, opts);
    bool no_graphs = false;
    add_size_options(opts, s);
    add_timing_options(opts, s);
    opts.option("--batches", s.batches, "timed batches of every other row of the table", 1, 1000);
    opts.flag("--no-graphs", no_graphs, "skip the CUDA-graph timings");
    if (const auto status = opts.parse(argc, argv)) return *status;
    s.policy = policy.policy();
    s.graphs = !no_graphs;
    return run_bench(s);
}

}  // namespace
}  // namespace ch03

int main(int argc, char** argv) { return book::gpu_main(argc, argv, ch03::run); }
