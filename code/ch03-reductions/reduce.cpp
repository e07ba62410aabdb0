// reduce: the chapter's reductions against CUB and the read-stream ceiling.
//
// The default run is the benchmark: for 2^16, 2^20, 2^24 and 2^28 floats it
// times every step of the progression, CUB's DeviceReduce::Sum and a kernel
// that only reads the input (the ceiling), each call between its own pair of
// CUDA events, after warm-up, on input that no timed call finds in the L2
// cache (rotating buffers), and reports medians. Step 8 and CUB are timed in
// alternating rounds, and once more as CUDA-graph replays (no launch cost on
// the host). --sweep times step 8 over its launch parameters, --check and
// --accuracy test results (reduce_check.cpp), --profile launches each kernel
// once for Nsight Compute.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "book/cuda.hpp"
#include "book/options.hpp"
#include "book/report.hpp"
#include "cub_sum.hpp"
#include "reduce_kernels.hpp"
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

namespace {

double tbs(std::size_t n, double ms) { return static_cast<double>(n) * sizeof(float) / (ms * 1e9); }

struct pair_times {
    book::timing_stats a, b;
};

// [listing:alternating]
// Time a() and b() in `rounds` rounds of `reps` calls each, a first in even
// rounds and b first in odd ones, every call between its own pair of events;
// medians over all rounds. Drift in clocks or temperature then falls on both.
template <class A, class B>
pair_times time_alternating(A&& a, B&& b, int warmup, int rounds, int reps) {
    for (int i = 0; i < warmup; ++i) {
        a();
        b();
    }
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<double> ta, tb;
    std::vector<book::cuda_event> start(reps), stop(reps);
    for (int r = 0; r < rounds; ++r) {
        for (int which = 0; which < 2; ++which) {
            const bool run_a = (which == 0) == (r % 2 == 0);
            for (int i = 0; i < reps; ++i) {
                BOOK_CUDA_CHECK(cudaEventRecord(start[i].get(), 0));
                if (run_a)
                    a();
                else
                    b();
                BOOK_CUDA_CHECK(cudaEventRecord(stop[i].get(), 0));
            }
            BOOK_CUDA_CHECK(cudaDeviceSynchronize());
            for (int i = 0; i < reps; ++i)
                (run_a ? ta : tb).push_back(book::elapsed_ms(start[i], stop[i]));
        }
    }
    return {book::summarize_times(std::move(ta)), book::summarize_times(std::move(tb))};
}
// [/listing:alternating]

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

// Bring the clocks up: step 8 on 2^24 floats (or fewer) for 200 ms.
void warm_up(const settings& s, reducer& best, float* out) {
    const std::size_t n = std::min<std::size_t>(std::size_t{1} << 24, std::size_t{1} << s.max_log2);
    book::device_buffer<float> x(n);
    fill_input(x.data(), n, 1, input_kind::unit);
    book::warm_up_clocks([&] { best.run(x.data(), n, out); }, s.quick ? 1.0 : 200.0);
}

// <key>_us_<size>, <key>_tbs_<size> and, but for the ceiling, <key>_of_ceiling_<size>.
void report_row(const std::string& key, const std::string& label, std::size_t n, double ms,
                double ceiling_ms) {
    book::report(key + "_us_" + label, ms * 1000.0, "us");
    book::report(key + "_tbs_" + label, tbs(n, ms), "TB/s");
    if (key != "ceiling") book::report(key + "_of_ceiling_" + label, ceiling_ms / ms, "fraction");
}

}  // namespace

int run_bench(const settings& s) {
    const std::vector<int> logs = bench_log2s(s);
    const std::size_t max_n = std::size_t{1} << logs.back();
    const int sms = book::device_attribute(cudaDevAttrMultiProcessorCount);
    std::vector<reducer> reducers;
    for (const step_info& st : steps) reducers.emplace_back(st.id, max_n, s.tune);
    reducer& best = reducers.back();
    cub_sum cub(max_n);
    book::device_buffer<float> out(1), sink(1);
    const int warmup = 3;
    long failures = 0;

    std::printf(
        "\nstep 7 and 8 launch: %d threads, %d blocks per SM (at most %d fit), %d float4 "
        "loads in flight per thread; CUB temporary storage %zu bytes\n",
        s.tune.threads, s.tune.blocks_per_sm, max_blocks_per_sm(s.tune), s.tune.unroll,
        cub.temp_bytes());
    book::report("best_threads", s.tune.threads, "threads");
    book::report("best_blocks_per_sm", s.tune.blocks_per_sm, "blocks");
    book::report("best_unroll", s.tune.unroll, "loads");
    warm_up(s, best, out.data());

    for (int lg : logs) {
        const std::size_t n = std::size_t{1} << lg;
        const std::string label = size_label(n);
        book::rotating_buffers<float> in(n, 3);
        fill_input(in.all(), in.total(), static_cast<std::uint64_t>(s.seed) + lg, input_kind::unit);

        // Every step's result on the first buffer, against the double reference.
        const std::vector<float> host = to_host(in.slot(0), n);
        const double ref = pairwise_sum(host.data(), n), mag = abs_sum(host.data(), n);
        for (reducer& r : reducers) {
            BOOK_CUDA_CHECK(cudaMemset(out.data(), 0xFF, sizeof(float)));
            r.poison();
            r.run(in.slot(0), n, out.data());
            const double bound = tolerance(summation_depth(r.which(), n, s.tune, sms), mag, n);
            const verdict v = check_sum(read_one(out.data()), ref, bound);
            if (!v.ok) {
                ++failures;
                std::printf("FAILED: %s on %s floats: error %.3g, bound %.3g\n",
                            std::string(info(r.which()).key).c_str(), label.c_str(), v.error,
                            v.bound);
            }
        }

        in.rewind();
        const book::timing_stats ceiling = book::time_launches(
            [&] { read_ceiling(in.next(), n, sink.data(), s.tune, sms); }, warmup, s.reps);
        std::vector<book::timing_stats> t;
        for (std::size_t k = 0; k + 1 < reducers.size(); ++k) {
            in.rewind();
            t.push_back(book::time_launches([&] { reducers[k].run(in.next(), n, out.data()); },
                                            warmup, s.reps));
        }
        in.rewind();
        const pair_times vs =
            time_alternating([&] { best.run(in.next(), n, out.data()); },
                             [&] { cub.run(in.next(), n, out.data()); }, warmup, s.rounds, s.reps);
        t.push_back(vs.a);
        const double ratio = vs.b.median_ms / vs.a.median_ms;

        const double cms = ceiling.median_ms;
        std::printf("\nn = 2^%d = %zu floats (%.1f MiB), %zu buffers in rotation\n", lg, n,
                    n * 4.0 / (1 << 20), in.count());
        std::printf("%-36s %8s %8s %11s %8s %11s\n", "", "launches", "blocks", "median us", "TB/s",
                    "of ceiling");
        std::printf("%-36s %8d %8zu %11.2f %8.3f %11.3f\n", "read-stream ceiling (reads only)", 1,
                    stride_blocks(n, s.tune, sms), cms * 1000, tbs(n, cms), 1.0);
        report_row("ceiling", label, n, cms, cms);
        for (std::size_t k = 0; k < reducers.size(); ++k) {
            const step_info& st = info(reducers[k].which());
            const double ms = t[k].median_ms;
            std::printf("%-36s %8zu %8zu %11.2f %8.3f %11.3f\n", std::string(st.title).c_str(),
                        reducers[k].launches(n), reducers[k].blocks(n), ms * 1000, tbs(n, ms),
                        cms / ms);
            report_row(std::string(st.key), label, n, ms, cms);
            book::report("launches_" + std::string(st.key) + "_" + label,
                         static_cast<double>(reducers[k].launches(n)), "count");
        }
        std::printf("%-36s %8s %8s %11.2f %8.3f %11.3f\n", "CUB DeviceReduce::Sum", "-", "-",
                    vs.b.median_ms * 1000, tbs(n, vs.b.median_ms), cms / vs.b.median_ms);
        report_row("cub", label, n, vs.b.median_ms, cms);
        book::report("best_over_cub_" + label, ratio, "ratio");
        book::report("blocks_" + label, static_cast<double>(best.blocks(n)), "blocks");
        std::printf("step 8 against CUB (alternating rounds, %d calls each): %.2fx as fast\n",
                    s.rounds * s.reps, ratio);

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
            std::printf(
                "as CUDA-graph replays (%d calls per graph): step 8 %.2f us, CUB %.2f us "
                "per call: %.2fx\n",
                calls, gb, gc, gc / gb);
        }
    }
    book::report("bench_failures", static_cast<double>(failures), "count");
    std::printf("\nresults against the double reference: %ld failures\n", failures);
    return failures == 0 ? 0 : 1;
}

// [listing:sweep]
int run_sweep(const settings& s) {
    const std::vector<int> logs = bench_log2s(s);
    const std::size_t max_n = std::size_t{1} << logs.back();
    std::vector<book::rotating_buffers<float>> in;
    for (int lg : logs) {
        in.emplace_back(std::size_t{1} << lg, 3);
        fill_input(in.back().all(), in.back().total(), static_cast<std::uint64_t>(s.seed) + lg,
                   input_kind::unit);
    }
    cub_sum cub(max_n);
    book::device_buffer<float> out(1);
    {
        reducer r(step::one_pass, max_n, s.tune);
        warm_up(s, r, out.data());
    }
    auto time_cub = [&](std::size_t k) {
        const std::size_t n = std::size_t{1} << logs[k];
        in[k].rewind();
        return book::time_launches([&] { cub.run(in[k].next(), n, out.data()); }, 3, s.reps)
            .median_ms;
    };
    std::vector<double> cub_ms(logs.size());
    for (std::size_t k = 0; k < logs.size(); ++k) cub_ms[k] = time_cub(k);

    std::printf("\nstep 8 (one launch), median us per call; in brackets: CUB's time over it\n");
    std::printf("%7s %6s %6s %7s", "threads", "bl/SM", "unroll", "fit/SM");
    for (int lg : logs) std::printf("  %18s", ("2^" + std::to_string(lg)).c_str());
    std::printf("  %8s\n", "geomean");
    std::vector<double> best_ratio(logs.size(), 0.0);
    std::vector<tuning> best_at(logs.size());
    double best_geo = 0.0;
    tuning best_overall{};
    for (int threads : {128, 256, 512, 1024}) {
        for (int bps : {1, 2, 4, 8, 16}) {
            for (int unroll : {1, 2, 4, 8}) {
                const tuning t{threads, bps, unroll};
                const int fit = max_blocks_per_sm(t);
                if (bps > fit) continue;  // the grid would not fit on the GPU at once
                reducer r(step::one_pass, max_n, t);
                std::printf("%7d %6d %6d %7d", threads, bps, unroll, fit);
                double log_sum = 0.0;
                for (std::size_t k = 0; k < logs.size(); ++k) {
                    const std::size_t n = std::size_t{1} << logs[k];
                    in[k].rewind();
                    const double ms =
                        book::time_launches([&] { r.run(in[k].next(), n, out.data()); }, 3, s.reps)
                            .median_ms;
                    const double ratio = cub_ms[k] / ms;
                    log_sum += std::log(ratio);
                    std::printf("  %9.2f [%5.2fx]", ms * 1000, ratio);
                    if (ratio > best_ratio[k]) {
                        best_ratio[k] = ratio;
                        best_at[k] = t;
                    }
                }
                const double geo = std::exp(log_sum / static_cast<double>(logs.size()));
                std::printf("  %7.3fx\n", geo);
                if (geo > best_geo) {
                    best_geo = geo;
                    best_overall = t;
                }
            }
        }
    }
    // CUB once more at the end: how far did its time drift during the sweep?
    std::printf("\nCUB median us at the start and at the end of the sweep:");
    for (std::size_t k = 0; k < logs.size(); ++k) {
        const double again = time_cub(k);
        std::printf("  2^%d: %.2f / %.2f", logs[k], cub_ms[k] * 1000, again * 1000);
        book::report("sweep_cub_drift_" + size_label(std::size_t{1} << logs[k]), again / cub_ms[k],
                     "ratio");
    }
    std::printf("\n\nbest per size:\n");
    for (std::size_t k = 0; k < logs.size(); ++k) {
        const std::string label = size_label(std::size_t{1} << logs[k]);
        const tuning& t = best_at[k];
        std::printf("  2^%d: --threads %d --blocks-per-sm %d --unroll %d: %.2fx CUB\n", logs[k],
                    t.threads, t.blocks_per_sm, t.unroll, best_ratio[k]);
        book::report("sweep_best_over_cub_" + label, best_ratio[k], "ratio");
        book::report("sweep_best_threads_" + label, t.threads, "threads");
        book::report("sweep_best_blocks_per_sm_" + label, t.blocks_per_sm, "blocks");
        book::report("sweep_best_unroll_" + label, t.unroll, "loads");
    }
    std::printf(
        "best over all sizes (geometric mean of the ratios): --threads %d --blocks-per-sm %d "
        "--unroll %d: %.3fx\n",
        best_overall.threads, best_overall.blocks_per_sm, best_overall.unroll, best_geo);
    book::report("sweep_overall_threads", best_overall.threads, "threads");
    book::report("sweep_overall_blocks_per_sm", best_overall.blocks_per_sm, "blocks");
    book::report("sweep_overall_unroll", best_overall.unroll, "loads");
    book::report("sweep_overall_geomean", best_geo, "ratio");
    return 0;
}
// [/listing:sweep]

int run_profile(const settings& s) {
    const std::size_t n = std::size_t{1} << s.profile_log2;
    const int sms = book::device_attribute(cudaDevAttrMultiProcessorCount);
    book::device_buffer<float> x(n), out(1), sink(1);
    fill_input(x.data(), n, static_cast<std::uint64_t>(s.seed), input_kind::unit);
    cub_sum cub(n);
    std::printf("\nprofiled on 2^%d floats, in this order:", s.profile_log2);
    read_ceiling(x.data(), n, sink.data(), s.tune, sms);
    std::printf(" ceiling (1 launch)");
    for (const step_info& st : steps) {
        reducer r(st.id, n, s.tune);
        r.run(x.data(), n, out.data());
        BOOK_CUDA_CHECK(cudaDeviceSynchronize());
        std::printf(", %s (%zu)", std::string(st.key).c_str(), r.launches(n));
    }
    cub.run(x.data(), n, out.data());
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());
    std::printf(", cub\n");
    return 0;
}

namespace {

int run(int argc, char** argv) {
    book::options opts("Reductions from the textbook tree to warp shuffles, against CUB");
    settings s;
    bool check = false, accuracy = false, sweep = false, profile = false, no_graphs = false;
    opts.flag("--check", check, "correctness over many sizes, alignments and launch parameters");
    opts.flag("--accuracy", accuracy, "float error of the sequential loop, the trees and CUB");
    opts.flag("--sweep", sweep, "time step 8 over threads, blocks per SM and unroll");
    opts.flag("--profile", profile, "one call of each kernel (for Nsight Compute)");
    opts.flag("--quick", s.quick, "small sizes, for compute-sanitizer");
    opts.flag("--no-graphs", no_graphs, "skip the CUDA-graph timings");
    opts.option("--threads", s.tune.threads, "steps 7 and 8: threads per block", 64, 1024);
    opts.option("--blocks-per-sm", s.tune.blocks_per_sm, "steps 7 and 8: blocks per SM", 1, 32);
    opts.option("--unroll", s.tune.unroll, "steps 7 and 8: float4 loads in flight (1, 2, 4, 8)", 1,
                8);
    opts.option("--max-log2", s.max_log2, "largest size: 2^this floats", 4, 30);
    opts.option("--reps", s.reps, "timed calls per measurement", 1, 100000);
    opts.option("--rounds", s.rounds, "alternating rounds of step 8 and CUB", 1, 1000);
    opts.option("--profile-log2", s.profile_log2, "--profile: 2^this floats", 4, 30);
    opts.option("--seed", s.seed, "first seed of the random input", 0);
    if (const auto status = opts.parse(argc, argv)) return *status;
    if (check + accuracy + sweep + profile > 1)
        throw std::invalid_argument("give at most one of --check, --accuracy, --sweep, --profile");
    check_tuning(s.tune);
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
