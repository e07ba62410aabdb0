// reduce: the chapter's reductions against CUB and the read-stream ceiling.
//
// The default run is the benchmark: for 2^16, 2^20, 2^24 and 2^28 floats it
// times every step of the progression, CUB's DeviceReduce::Sum and a kernel
// that only reads the input (the ceiling), in batches of calls issued back to
// back, each batch between one pair of CUDA events, after warm-up, on input
// that no timed call finds in the L2 cache (rotating buffers), and reports
// the median time per call. Step 8 and CUB are timed in alternating rounds,
// and once more as CUDA-graph replays (no launch cost on the host). --sweep
// compares one-launch kernels of several layouts, load hints and launch
// parameters against CUB (reduce_sweep.cpp), --check and --accuracy test
// results (reduce_check.cpp), --profile launches each kernel once for Nsight
// Compute.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "book/cuda.hpp"
#include "book/options.hpp"
#include "book/report.hpp"
#include "cub_sum.hpp"
#include "page_print.hpp"
#include "reduce_kernels.hpp"
#include "reduce_layouts.hpp"
#include "reduce_modes.hpp"

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

namespace {

// [listing:alternating]
// The time per call of f(), from one batch: one call to fill the pipeline,
// then `reps` calls issued back to back between one pair of events. Whichever
// is slower sets the pace: the host issuing the launches or the GPU running
// them.
template <class F>
double batch_ms(F&& f, int reps, const book::cuda_event& start, const book::cuda_event& stop) {
    f();
    BOOK_CUDA_CHECK(cudaEventRecord(start.get(), 0));
    for (int i = 0; i < reps; ++i) f();
    BOOK_CUDA_CHECK(cudaEventRecord(stop.get(), 0));
    BOOK_CUDA_CHECK(cudaEventSynchronize(stop.get()));
    return book::elapsed_ms(start, stop) / reps;
}

// Time a() and b() in `rounds` rounds of one batch each, a first in even
// rounds and b first in odd ones; medians over the rounds. Drift in clocks or
// temperature then falls on both.
template <class A, class B>
pair_times time_alternating(A&& a, B&& b, int warmup, int rounds, int reps) {
    for (int i = 0; i < warmup; ++i) {
        a();
        b();
    }
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());
    const book::cuda_event start, stop;
    std::vector<double> ta, tb;
    for (int r = 0; r < rounds; ++r) {
        if (r % 2 == 0) {
            ta.push_back(batch_ms(a, reps, start, stop));
            tb.push_back(batch_ms(b, reps, start, stop));
        } else {
            tb.push_back(batch_ms(b, reps, start, stop));
            ta.push_back(batch_ms(a, reps, start, stop));
        }
    }
    return {book::summarize_times(std::move(ta)), book::summarize_times(std::move(tb))};
}
// [/listing:alternating]

// The median time per call of f() over `batches` batches (batch_ms).
template <class F>
book::timing_stats time_batches(F&& f, int warmup, int batches, int reps) {
    for (int i = 0; i < warmup; ++i) f();
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());
    const book::cuda_event start, stop;
    std::vector<double> ms;
    for (int k = 0; k < batches; ++k) ms.push_back(batch_ms(f, reps, start, stop));
    return book::summarize_times(std::move(ms));
}

// A stream, a captured graph and its executable form, released in reverse.
struct graph_run {
    cudaStream_t stream = nullptr;
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    graph_run() { BOOK_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking)); }
    ~graph_run() {
        if (exec) cudaGraphExecDestroy(exec);
        if (graph) cudaGraphDestroy(graph);
        if (stream) cudaStreamDestroy(stream);
    }
    graph_run(const graph_run&) = delete;
    graph_run& operator=(const graph_run&) = delete;
};

// [listing:graph]
// Median microseconds per call when `calls` calls are captured in one CUDA
// graph and the graph is replayed: the host's launch cost is paid once per
// replay, not once per kernel. enqueue(i, stream) enqueues call i.
template <class F>
double graph_us_per_call(F&& enqueue, int calls, int replays) {
    graph_run g;
    BOOK_CUDA_CHECK(cudaStreamBeginCapture(g.stream, cudaStreamCaptureModeThreadLocal));
    for (int i = 0; i < calls; ++i) enqueue(i, g.stream);
    BOOK_CUDA_CHECK(cudaStreamEndCapture(g.stream, &g.graph));
    BOOK_CUDA_CHECK(cudaGraphInstantiate(&g.exec, g.graph, 0));
    for (int i = 0; i < 2; ++i) BOOK_CUDA_CHECK(cudaGraphLaunch(g.exec, g.stream));
    BOOK_CUDA_CHECK(cudaStreamSynchronize(g.stream));
    std::vector<book::cuda_event> start(replays), stop(replays);
    for (int i = 0; i < replays; ++i) {
        BOOK_CUDA_CHECK(cudaEventRecord(start[i].get(), g.stream));
        BOOK_CUDA_CHECK(cudaGraphLaunch(g.exec, g.stream));
        BOOK_CUDA_CHECK(cudaEventRecord(stop[i].get(), g.stream));
    }
    BOOK_CUDA_CHECK(cudaStreamSynchronize(g.stream));
    std::vector<double> ms(replays);
    for (int i = 0; i < replays; ++i) ms[i] = book::elapsed_ms(start[i], stop[i]);
    return book::summarize_times(std::move(ms)).median_ms * 1000.0 / calls;
}
// [/listing:graph]

// <key>_us_<size>, <key>_tbs_<size> and, but for the ceiling, <key>_of_ceiling_<size>.
void report_row(const std::string& key, const std::string& label, std::size_t n, double ms,
                double ceiling_ms) {
    book::report(key + "_us_" + label, ms * 1000.0, "us");
    book::report(key + "_tbs_" + label, tbs(n, ms), "TB/s");
    if (key != "ceiling") book::report(key + "_of_ceiling_" + label, ceiling_ms / ms, "fraction");
}

const char* const row_format = "%-27s %8s %7s %10.2f %7.3f %10.3f\n";

}  // namespace

pair_times time_pair(const std::function<void()>& a, const std::function<void()>& b, int warmup,
                     int rounds, int reps) {
    return time_alternating(a, b, warmup, rounds, reps);
}

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

    page_print("\n");
    print_policy(s.policy);
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
            const int calls = static_cast<int>(std::min<std::size_t>(in.count(), 512));
            const double gb = graph_us_per_call(
                [&](int i, cudaStream_t st) { best.run(in.slot(i), n, out.data(), st); }, calls,
                10);
            const double gc = graph_us_per_call(
                [&](int i, cudaStream_t st) { cub.run(in.slot(i), n, out.data(), st); }, calls, 10);
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

int run_profile(const settings& s) {
    const std::size_t n = std::size_t{1} << s.profile_log2;
    const int sms = book::device_attribute(cudaDevAttrMultiProcessorCount);
    book::device_buffer<float> x(n), out(1), sink(1);
    fill_input(x.data(), n, static_cast<std::uint64_t>(s.seed), input_kind::unit);
    cub_sum cub(n);
    page_print("\nprofiled on 2^%d floats, one call each, in this order:\n", s.profile_log2);
    read_ceiling(x.data(), n, sink.data(), s.policy.at(n), sms);
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());
    page_print("  read-stream ceiling, %s (1 launch)\n", tuning_text(s.policy.at(n)).c_str());
    for (const step_info& st : steps) {
        reducer r(st.id, n, s.policy);
        r.run(x.data(), n, out.data());
        BOOK_CUDA_CHECK(cudaDeviceSynchronize());
        page_print("  %s (%zu)\n", std::string(st.title).c_str(), r.launches(n));
    }
    cub.run(x.data(), n, out.data());
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());
    page_print("  CUB DeviceReduce::Sum (2)\n");
    for (const candidate& c : s.candidates) {
        variant_reducer r(c, n);
        r.run(x.data(), n, out.data());
        BOOK_CUDA_CHECK(cudaDeviceSynchronize());
        page_print("  %s (1)\n", candidate_text(c).c_str());
    }
    return 0;
}

namespace {

int run(int argc, char** argv) {
    settings s;
    // The options that take text (the options parser takes numbers only).
    const std::optional<std::string> policy = take_text_option(argc, argv, "--policy");
    const std::optional<std::string> candidates = take_text_option(argc, argv, "--candidates");

    book::options opts(
        "Reductions from the textbook tree to warp shuffles, against CUB.\n"
        "Also: --policy P, the launch of steps 7 and 8 by size, like\n"
        "2e22:256x4x4,2e24:256x8x2,1024x2x4 (threads x blocks per SM x float4s in flight);\n"
        "--candidates C, one-launch variants like tiles.ldg:256x32x4,old:1024x2x2\n"
        "(for --sweep: the rows; for --profile: launched after the steps).");
    bool check = false, accuracy = false, sweep = false, profile = false, no_graphs = false;
    int threads = 0, blocks_per_sm = 0, unroll = 0;
    opts.flag("--check", check, "correctness over many sizes, alignments and launch parameters");
    opts.flag("--accuracy", accuracy, "float error of the sequential loop, the trees and CUB");
    opts.flag("--sweep", sweep, "one-launch variants and launch parameters against CUB");
    opts.flag("--full", s.full, "--sweep: the whole grid of variants and launch parameters");
    opts.flag("--profile", profile, "one call of each kernel (for Nsight Compute)");
    opts.flag("--quick", s.quick, "small sizes, for compute-sanitizer");
    opts.flag("--no-graphs", no_graphs, "skip the CUDA-graph timings");
    opts.option("--threads", threads, "steps 7 and 8, every size: threads per block", 64, 1024);
    opts.option("--blocks-per-sm", blocks_per_sm, "steps 7 and 8, every size: blocks per SM", 1,
                max_blocks_per_sm_setting);
    opts.option("--unroll", unroll, "steps 7 and 8, every size: float4 loads in flight", 1, 8);
    opts.option("--max-log2", s.max_log2, "largest size: 2^this floats", 4, 30);
    opts.option("--reps", s.reps, "calls per timed batch", 1, 100000);
    opts.option("--rounds", s.rounds, "alternating rounds against CUB, a batch each", 1, 1000);
    opts.option("--batches", s.batches, "timed batches of every other row of the table", 1, 1000);
    opts.option("--profile-log2", s.profile_log2, "--profile: 2^this floats", 4, 30);
    opts.option("--seed", s.seed, "first seed of the random input", 0);
    if (const auto status = opts.parse(argc, argv)) return *status;
    if (check + accuracy + sweep + profile > 1)
        throw std::invalid_argument("give at most one of --check, --accuracy, --sweep, --profile");
    if (s.full && !sweep) throw std::invalid_argument("--full is an option of --sweep");
    const bool one_tuning = threads != 0 || blocks_per_sm != 0 || unroll != 0;
    if (one_tuning && policy)
        throw std::invalid_argument(
            "give either --policy or --threads/--blocks-per-sm/--unroll, not both");
    if (one_tuning) {
        const tuning d{};
        s.policy = launch_policy(tuning{threads != 0 ? threads : d.threads,
                                        blocks_per_sm != 0 ? blocks_per_sm : d.blocks_per_sm,
                                        unroll != 0 ? unroll : d.unroll});
    } else if (policy) {
        s.policy = parse_policy(*policy);
    }
    if (candidates) {
        if (!sweep && !profile)
            throw std::invalid_argument("--candidates is an option of --sweep and --profile");
        s.candidates = parse_candidates(*candidates);
        s.candidates_given = true;
    } else {
        s.candidates = parse_candidates(
            "old:256x4x4,old:1024x2x2,tiles.ldg:256x32x4,even.ldg:256x8x4,stride.ldg:1024x2x4");
    }
    s.graphs = !no_graphs;
    if (check) return run_check(s);
    if (accuracy) return run_accuracy(s);
    if (sweep) return run_sweep(s);
    if (profile) return run_profile(s);
    return run_bench(s);
}

}  // namespace
}  // namespace ch03

int main(int argc, char** argv) { return book::gpu_main(argc, argv, ch03::run); }
