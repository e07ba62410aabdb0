// cluster_sum: step 9 of the chapter, a sum whose blocks add their partial
// sums through Hopper's thread block clusters, against CUB in GPU time
// (CUDA-graph replay) and in batches launched from the host. The kernels are
// in cluster_sum.cuh.
//
// Step 9 is one kernel with a size policy (step9_config): up to 2^18 floats
// one cluster of 16 blocks is the whole grid; above, a grid of clusters of 2
// blocks with a ticket per cluster. It launches in one of three ways:
//
//   plain   an ordinary launch (cudaLaunchKernelEx, the cluster's size as a
//           launch attribute).
//   pdl     programmatic dependent launch: the launch attribute
//           cudaLaunchAttributeProgrammaticStreamSerialization lets a kernel
//           start while the kernel before it in the stream is still running;
//           each kernel allows the next to start at once
//           (cudaTriggerProgrammaticLaunchCompletion) and waits for the one
//           before it to finish, and its writes to be visible
//           (cudaGridDependencySynchronize), before it reads any memory. What
//           it saves is the time to launch and place the next kernel's blocks.
//   pdl+pf  as pdl, and before waiting each thread asks the L2 cache to fetch
//           its first loads, overlapping the first trip to DRAM with the end
//           of the kernel before.
//
// With no option it times step 9 in the three ways and CUB at 2^16, 2^20,
// 2^24 and 2^28 floats, in rounds that alternate CUB with step 9, each result
// against the exact sum. --sweep times a dozen variants (the cluster's size,
// the grid's shape, ticket or second kernel) that show why the policy picks
// what it picks; --check runs step 9 and the sweep's variants on awkward
// sizes and alignments, alone, back to back and in a CUDA graph, against the
// exact sum (the inputs are small whole numbers).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "book/cuda.hpp"
#include "cluster_sum.cuh"
#include "cub_sum.hpp"
#include "page_print.hpp"
#include "reduce_timing.hpp"

namespace ch03 {

// ---------------------------------------------------------------------------
// Host side: the variants and their launches

enum class kind { one, ticket, two };
enum class start { plain, pdl, pdl_prefetch };

/// One variant with its launch parameters.
struct config {
    kind k = kind::ticket;
    int cluster = 1;        ///< blocks per cluster: 1, 2, 4, 8 or 16
    int threads = 1024;     ///< threads per block
    int blocks_per_sm = 1;  ///< ticket, two: the grid is at most SMs x this blocks
    int unroll = 1;         ///< float4 loads in flight per thread: 1, 2, 4 or 8
    start launch = start::plain;
};

const char* kind_name(kind k) {
    static const char* const names[] = {"one", "ticket", "two"};
    return names[static_cast<int>(k)];
}

/// The launch in result names ("pdlpf") and in tables ("pdl+pf").
const char* start_key(start s) {
    static const char* const keys[] = {"plain", "pdl", "pdlpf"};
    return keys[static_cast<int>(s)];
}
const char* start_title(start s) {
    static const char* const titles[] = {"plain", "pdl", "pdl+pf"};
    return titles[static_cast<int>(s)];
}

/// "c16 1024x1" (one: threads x unroll) or "c4 1024x2x4" (threads x blocks
/// per SM x unroll).
std::string shape_text(const config& c, char sep) {
    std::string s = "c" + std::to_string(c.cluster) + sep + std::to_string(c.threads) + "x";
    if (c.k != kind::one) s += std::to_string(c.blocks_per_sm) + "x";
    return s + std::to_string(c.unroll);
}

/// The result-name key: "ticket_c4_1024x2x4_pdl".
std::string config_key(const config& c) {
    return std::string(kind_name(c.k)) + "_" + shape_text(c, '_') + "_" + start_key(c.launch);
}

/// The table's title: "ticket c4 1024x2x4 pdl".
std::string config_title(const config& c) {
    return std::string(kind_name(c.k)) + " " + shape_text(c, ' ') + " " + start_title(c.launch);
}

/// "2e16" for 2^16, the decimal number otherwise.
std::string size_label(std::size_t n) {
    for (int k = 0; k < 63; ++k)
        if (n == (std::size_t{1} << k)) return "2e" + std::to_string(k);
    return std::to_string(n);
}

using sum_kernel = void (*)(sum_args);

sum_kernel kernel_for(int unroll) {
    switch (unroll) {
        case 1:
            return cluster_sum_kernel<1>;
        case 2:
            return cluster_sum_kernel<2>;
        case 4:
            return cluster_sum_kernel<4>;
        case 8:
            return cluster_sum_kernel<8>;
        default:
            throw std::invalid_argument("unroll must be 1, 2, 4 or 8, not " +
                                        std::to_string(unroll));
    }
}

/// A launch configuration with the cluster's size and the programmatic
/// serialization flag as launch attributes (cluster = 0: no cluster attribute).
struct launch_config {
    cudaLaunchAttribute attrs[2] = {};
    cudaLaunchConfig_t cfg = {};
    launch_config(unsigned blocks, unsigned threads, unsigned cluster, bool pdl,
                  cudaStream_t stream) {
        unsigned count = 0;
        if (cluster > 0) {
            attrs[count].id = cudaLaunchAttributeClusterDimension;
            attrs[count].val.clusterDim.x = cluster;
            attrs[count].val.clusterDim.y = 1;
            attrs[count].val.clusterDim.z = 1;
            ++count;
        }
        attrs[count].id = cudaLaunchAttributeProgrammaticStreamSerialization;
        attrs[count].val.programmaticStreamSerializationAllowed = pdl ? 1 : 0;
        ++count;
        cfg.gridDim = dim3(blocks);
        cfg.blockDim = dim3(threads);
        cfg.dynamicSmemBytes = 0;
        cfg.stream = stream;
        cfg.attrs = attrs;
        cfg.numAttrs = count;
    }
    launch_config(const launch_config&) = delete;
    launch_config& operator=(const launch_config&) = delete;
};

/// Runs any variant: owns the partial sums and the ticket counter, and knows
/// how many clusters of each shape fit on the GPU at once.
class cluster_reducer {
public:
    cluster_reducer()
        : sms_(book::sm_count()),
          partials_(static_cast<std::size_t>(sms_) * 32),  // more than any grid has clusters
          counter_(1) {
        BOOK_CUDA_CHECK(cudaMemset(counter_.data(), 0, counter_.bytes()));
        for (int u : {1, 2, 4, 8})
            BOOK_CUDA_CHECK(cudaFuncSetAttribute(
                kernel_for(u), cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    }

    int sms() const noexcept { return sms_; }

    /// Clusters of c's shape that fit on the GPU at once
    /// (cudaOccupancyMaxActiveClusters). @throws std::invalid_argument if none.
    int max_active_clusters(const config& c) {
        const auto key = std::make_tuple(c.cluster, c.threads, c.unroll);
        auto it = active_.find(key);
        if (it == active_.end()) {
            const launch_config l(static_cast<unsigned>(c.cluster),
                                  static_cast<unsigned>(c.threads),
                                  static_cast<unsigned>(c.cluster), false, nullptr);
            int clusters = 0;
            BOOK_CUDA_CHECK(
                cudaOccupancyMaxActiveClusters(&clusters, kernel_for(c.unroll), &l.cfg));
            it = active_.emplace(key, clusters).first;
        }
        if (it->second < 1)
            throw std::invalid_argument(config_title(c) + ": not one cluster fits on the GPU");
        return it->second;
    }

    /// The clusters of c's grid for n floats: 1 for `one`; otherwise SMs x
    /// blocks_per_sm blocks, but no more clusters than fit at once (one wave)
    /// and none without a float4 to load.
    unsigned clusters(const config& c, std::size_t n) {
        if (c.k == kind::one) return 1;
        const std::size_t per_round =
            static_cast<std::size_t>(c.cluster) * c.threads * c.unroll;  // float4s
        const std::size_t with_work = std::max<std::size_t>(1, (n / 4 + per_round - 1) / per_round);
        const std::size_t by_sms =
            std::max<std::size_t>(1, static_cast<std::size_t>(sms_) * c.blocks_per_sm / c.cluster);
        const auto fit = static_cast<std::size_t>(max_active_clusters(c));
        return static_cast<unsigned>(std::min({with_work, by_sms, fit}));
    }

    /// Enqueue the sum of x[0..n) into *out on `stream`.
    void run(const config& c, const float* x, std::size_t n, float* out, cudaStream_t stream) {
        const unsigned g = clusters(c, n);
        if (g > partials_.size()) throw std::logic_error("more clusters than partial sums");
        const bool pdl = c.launch != start::plain;
        const finish end = c.k == kind::one      ? finish::out
                           : c.k == kind::ticket ? finish::ticket
                                                 : finish::partials;
        const sum_args a{x,
                         n,
                         partials_.data(),
                         counter_.data(),
                         out,
                         end,
                         c.launch == start::pdl_prefetch ? 1 : 0};
        const launch_config l(g * static_cast<unsigned>(c.cluster),
                              static_cast<unsigned>(c.threads), static_cast<unsigned>(c.cluster),
                              pdl, stream);
        BOOK_CUDA_CHECK(cudaLaunchKernelEx(&l.cfg, kernel_for(c.unroll), a));
        if (c.k == kind::two) {
            const launch_config f(1, 32, 0, pdl, stream);
            const float* partials = partials_.data();
            BOOK_CUDA_CHECK(cudaLaunchKernelEx(&f.cfg, partials_sum_kernel, partials, g, out));
        }
    }

    /// Fill the partial sums with NaN (a check then sees any that a kernel
    /// reads without having written it).
    void poison(cudaStream_t stream) {
        BOOK_CUDA_CHECK(cudaMemsetAsync(partials_.data(), 0xFF, partials_.bytes(), stream));
    }

private:
    int sms_;
    book::device_buffer<float> partials_;
    book::device_buffer<unsigned> counter_;
    std::map<std::tuple<int, int, int>, int> active_;
};

// ---------------------------------------------------------------------------
// Host side: inputs, references, timing

void fill(float* x, std::size_t n, std::uint64_t seed, cudaStream_t stream) {
    if (n == 0) return;
    const std::size_t wanted = (n + 255) / 256;
    const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>(wanted, 65535));
    const launch_config l(blocks, 256, 0, false, stream);
    BOOK_CUDA_CHECK(cudaLaunchKernelEx(&l.cfg, fill_kernel, x, n, seed));
}

/// The exact sum of x[0..n) on the device: the floats are whole numbers, so
/// the sum in double is exact. @throws std::logic_error if it is not a whole
/// number below 2^24 in size (then a float result could not be exact).
double cpu_sum(const float* d, std::size_t n) {
    std::vector<float> h(n);
    if (n > 0) BOOK_CUDA_CHECK(cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
    double s = 0.0;
    for (float v : h) s += v;
    if (s != std::floor(s) || std::fabs(s) >= 16777216.0)
        throw std::logic_error("the input's sum " + std::to_string(s) +
                               " is not a whole number below 2^24");
    return s;
}

float read_one(const float* d) {
    float v = 0.0f;
    BOOK_CUDA_CHECK(cudaMemcpy(&v, d, sizeof v, cudaMemcpyDeviceToHost));
    return v;
}

void poison_one(float* d, cudaStream_t stream) {
    BOOK_CUDA_CHECK(cudaMemsetAsync(d, 0xFF, sizeof(float), stream));
}

/// A stream that destroys itself.
struct stream_handle {
    cudaStream_t s = nullptr;
    stream_handle() { BOOK_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)); }
    ~stream_handle() {
        if (s) cudaStreamDestroy(s);
    }
    stream_handle(const stream_handle&) = delete;
    stream_handle& operator=(const stream_handle&) = delete;
};

/// A captured graph and its executable form, released in reverse.
struct graph_handle {
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    graph_handle() = default;
    ~graph_handle() {
        if (exec) cudaGraphExecDestroy(exec);
        if (graph) cudaGraphDestroy(graph);
    }
    graph_handle(const graph_handle&) = delete;
    graph_handle& operator=(const graph_handle&) = delete;
};

/// Capture enqueue(i, stream) for i in [0, calls) into one graph on `stream`.
template <class F>
void capture(graph_handle& g, cudaStream_t stream, int calls, F&& enqueue) {
    BOOK_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    try {
        for (int i = 0; i < calls; ++i) enqueue(i, stream);
    } catch (...) {
        cudaGraph_t broken = nullptr;
        cudaStreamEndCapture(stream, &broken);  // end the capture before the error leaves
        if (broken) cudaGraphDestroy(broken);
        throw;
    }
    BOOK_CUDA_CHECK(cudaStreamEndCapture(stream, &g.graph));
    BOOK_CUDA_CHECK(cudaGraphInstantiate(&g.exec, g.graph, 0));
}

// Microseconds per call launched from the host: `batches` batches of `reps`
// calls issued back to back between one pair of events (call i of the run on
// buffer i mod buffers), after one untimed batch; the median over the batches.
// Whichever is slower sets the pace: the host issuing the launches or the GPU.
template <class F>
double host_us_per_call(cudaStream_t stream, int batches, int reps, F&& enqueue) {
    const book::cuda_event begin, end;
    std::vector<double> ms;
    int call = 0;
    for (int b = 0; b <= batches; ++b) {
        BOOK_CUDA_CHECK(cudaEventRecord(begin.get(), stream));
        for (int i = 0; i < reps; ++i) enqueue(call++, stream);
        BOOK_CUDA_CHECK(cudaEventRecord(end.get(), stream));
        BOOK_CUDA_CHECK(cudaEventSynchronize(end.get()));
        if (b > 0) ms.push_back(book::elapsed_ms(begin, end) * 1000.0 / reps);
    }
    return book::summarize_times(std::move(ms)).median_ms;
}

// ---------------------------------------------------------------------------
// Step 9 and the variants the sweep compares

// [listing:step9-policy]
/// Step 9's launch for n floats: the shapes that the sweep (--sweep) found
/// fastest on the H200 as programmatic dependent launches with the prefetch.
/// Up to 2^18 floats one cluster of 16 blocks is the whole grid (no ticket,
/// no atomic); above, a grid of clusters of 2 blocks, a ticket per cluster,
/// with more loads in flight per thread as n grows.
config step9_config(std::size_t n, start launch) {
    //       kind          cluster threads blocks/SM unroll
    if (n <= (std::size_t{1} << 16)) return {kind::one, 16, 1024, 1, 1, launch};
    if (n <= (std::size_t{1} << 18)) return {kind::one, 16, 1024, 1, 2, launch};
    if (n <= (std::size_t{1} << 20)) return {kind::ticket, 2, 1024, 2, 1, launch};
    if (n <= (std::size_t{1} << 22)) return {kind::ticket, 2, 1024, 2, 2, launch};
    return {kind::ticket, 2, 512, 2, 8, launch};
}
// [/listing:step9-policy]

/// The sweep's variants, all launched with PDL and the prefetch: one cluster
/// of 8 or 16 blocks; tickets per block (cluster 1, step 8's finish), per
/// cluster of 2, 4 and 16 at step 9's shapes and others; and a second kernel
/// instead of the ticket.
std::vector<config> sweep_configs() {
    const start pf = start::pdl_prefetch;
    return {
        {kind::one, 8, 1024, 1, 2, pf},    {kind::one, 16, 1024, 1, 1, pf},
        {kind::one, 16, 1024, 1, 2, pf},   {kind::ticket, 1, 1024, 2, 1, pf},
        {kind::ticket, 1, 512, 2, 8, pf},  {kind::ticket, 2, 1024, 2, 1, pf},
        {kind::ticket, 2, 1024, 2, 2, pf}, {kind::ticket, 2, 512, 2, 8, pf},
        {kind::ticket, 4, 512, 4, 2, pf},  {kind::ticket, 16, 512, 4, 1, pf},
        {kind::two, 2, 512, 4, 2, pf},     {kind::two, 2, 512, 2, 8, pf},
    };
}

constexpr start all_starts[3] = {start::plain, start::pdl, start::pdl_prefetch};

struct settings {
    bool quick = false;
    int rounds = 7;
    long seed = 1;
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

void warm_up(cluster_reducer& r, bool quick) {  // bring the clocks up
    book::device_buffer<float> x(std::size_t{1} << 24), out(1);
    fill(x.data(), x.size(), 1, nullptr);
    const config warm = step9_config(x.size(), start::plain);
    book::warm_up_clocks([&] { r.run(warm, x.data(), x.size(), out.data(), nullptr); },
                         quick ? 1.0 : 200.0);
}

/// Times calls on rotating inputs of 2^lg floats and checks their results:
/// the first call's, the graph's last and the host batches' last, each
/// against the exact sum of its input.
class timed_size {
public:
    timed_size(const settings& s, int lg)
        : lg_(lg),
          n_(std::size_t{1} << lg),
          in_(n_, 3),
          out_(1),
          calls_(graph_calls(in_.count())),
          reps_(lg <= 22 ? 20 : 5) {
        fill(in_.all(), in_.total(), static_cast<std::uint64_t>(s.seed) + lg, stream_.s);
        BOOK_CUDA_CHECK(cudaStreamSynchronize(stream_.s));
    }

    std::size_t n() const noexcept { return n_; }
    std::size_t buffers() const noexcept { return in_.count(); }
    int calls() const noexcept { return calls_; }
    long failures() const noexcept { return failures_; }

    /// run(x, n, out, stream) enqueues one sum: its µs per call in graph
    /// replay and from the host.
    template <class Run>
    std::pair<double, double> time(const std::string& title, Run&& run) {
        auto enqueue = [&](int i, cudaStream_t st) {
            run(in_.slot(static_cast<std::size_t>(i)), n_, out_.data(), st);
        };
        poison_one(out_.data(), stream_.s);
        enqueue(0, stream_.s);
        BOOK_CUDA_CHECK(cudaStreamSynchronize(stream_.s));
        expect(title, "alone", 0);
        const double graph_us = graph_us_per_call(enqueue, calls_);  // as reduce_bench times it
        expect(title, "last call of the graph", calls_ - 1);
        const double host_us = host_us_per_call(stream_.s, batches, reps_, enqueue);
        expect(title, "last call from the host", (batches + 1) * reps_ - 1);
        return {graph_us, host_us};
    }

    /// enqueue(i, x, n, out, stream) enqueues call i of a graph: its µs per call in
    /// graph replay (the last call's result is checked).
    template <class Enqueue>
    double time_graph(const std::string& title, Enqueue&& enqueue_call) {
        auto enqueue = [&](int i, cudaStream_t st) {
            enqueue_call(i, in_.slot(static_cast<std::size_t>(i)), n_, out_.data(), st);
        };
        poison_one(out_.data(), stream_.s);
        BOOK_CUDA_CHECK(cudaStreamSynchronize(stream_.s));
        const double us = graph_us_per_call(enqueue, calls_);
        expect(title, "last call of the graph", calls_ - 1);
        return us;
    }

private:
    static constexpr int batches = 5;

    void expect(const std::string& title, const char* which, int call) {
        const std::size_t slot = static_cast<std::size_t>(call) % in_.count();
        auto it = want_.find(slot);
        if (it == want_.end()) it = want_.emplace(slot, cpu_sum(in_.slot(slot), n_)).first;
        const float got = read_one(out_.data());
        if (static_cast<double>(got) == it->second) return;
        ++failures_;
        page_print("FAILED: %s on 2^%d floats, %s: %.9g, not %.9g\n", title.c_str(), lg_, which,
                   static_cast<double>(got), it->second);
    }

    int lg_;
    std::size_t n_;
    stream_handle stream_;
    book::rotating_buffers<float> in_;
    book::device_buffer<float> out_;
    int calls_, reps_;
    std::map<std::size_t, double> want_;
    long failures_ = 0;
};

// ---------------------------------------------------------------------------
// The default mode: step 9 against CUB

// Step 9 in its three launches and CUB at one size, in rounds: CUB first in
// even rounds and last in odd ones, so that a drift of the clocks over a round
// falls on both sides. Each ratio is the median of the rounds' ratios.
long bench_size(const settings& s, cluster_reducer& r, cub_sum& cub, int lg) {
    timed_size t(s, lg);
    const std::string label = size_label(t.n());
    const config shape = step9_config(t.n(), start::plain);
    std::vector<double> cub_graph, cub_host, graph[3], host[3], graph_x[3], host_x[3];
    auto cub_run = [&](const float* x, std::size_t n, float* out, cudaStream_t st) {
        cub.run(x, n, out, st);
    };
    for (int round = 0; round < s.rounds; ++round) {
        std::pair<double, double> c{}, ours[3];
        if (round % 2 == 0) c = t.time("CUB", cub_run);
        for (int k = 0; k < 3; ++k) {
            const int m = round % 2 == 0 ? k : 2 - k;
            const config cfg = step9_config(t.n(), all_starts[m]);
            ours[m] = t.time("step 9 " + config_title(cfg),
                             [&](const float* x, std::size_t n, float* out, cudaStream_t st) {
                                 r.run(cfg, x, n, out, st);
                             });
        }
        if (round % 2 == 1) c = t.time("CUB", cub_run);
        cub_graph.push_back(c.first);
        cub_host.push_back(c.second);
        for (int m = 0; m < 3; ++m) {
            graph[m].push_back(ours[m].first);
            host[m].push_back(ours[m].second);
            graph_x[m].push_back(c.first / ours[m].first);
            host_x[m].push_back(c.second / ours[m].second);
        }
    }

    // Step 9 (PDL and prefetch) between calls of CUB, alternating in one graph: of
    // the boundaries between calls, which overlap? (CUB neither triggers nor is
    // launched as a programmatic dependent.)
    double alternating = 0.0;
    if (lg <= 16) {
        const config pf = step9_config(t.n(), start::pdl_prefetch);
        alternating =
            t.time_graph("CUB and step 9 alternating",
                         [&](int i, const float* x, std::size_t n, float* out, cudaStream_t st) {
                             if (i % 2 == 0)
                                 cub.run(x, n, out, st);
                             else
                                 r.run(pf, x, n, out, st);
                         });
        book::report("alternating_graph_us_" + label, alternating, "us");
    }

    page_print("\nn = 2^%d = %zu floats, %zu buffers, %d calls per graph\n", lg, t.n(), t.buffers(),
               t.calls());
    page_print("step 9 here: %s %s (%u clusters)\n", kind_name(shape.k),
               shape_text(shape, ' ').c_str(), r.clusters(shape, t.n()));
    page_print("%-16s %9s %6s %9s %6s\n", "", "graph us", "xCUB", "host us", "xCUB");
    page_print("%-16s %9.2f %6s %9.2f %6s\n", "CUB", median(cub_graph), "", median(cub_host), "");
    book::report("cub_graph_us_" + label, median(cub_graph), "us");
    book::report("cub_host_us_" + label, median(cub_host), "us");
    book::report("clusters_" + label, r.clusters(shape, t.n()), "count");
    for (int m = 0; m < 3; ++m) {
        const std::string mode = start_key(all_starts[m]);
        page_print("%-16s %9.2f %6.3f %9.2f %6.3f\n",
                   ("step 9 " + std::string(start_title(all_starts[m]))).c_str(), median(graph[m]),
                   median(graph_x[m]), median(host[m]), median(host_x[m]));
        book::report("graph_us_" + label + "_" + mode, median(graph[m]), "us");
        book::report("host_us_" + label + "_" + mode, median(host[m]), "us");
        book::report("graph_over_cub_" + label + "_" + mode, median(graph_x[m]), "ratio");
        book::report("host_over_cub_" + label + "_" + mode, median(host_x[m]), "ratio");
    }
    if (lg <= 16)
        page_print("CUB and step 9 (pdl+pf) alternating in one graph: %.2f us per call\n",
                   alternating);
    return t.failures();
}

int run_bench(const settings& s) {
    const std::vector<int> logs =
        s.quick ? std::vector<int>{12, 16} : std::vector<int>{16, 20, 24, 28};
    cluster_reducer r;
    cub_sum cub(std::size_t{1} << logs.back());
    warm_up(r, s.quick);
    page_print(
        "Step 9 (plain, pdl: programmatic dependent launch, pdl+pf: with the L2\n"
        "prefetch) against CUB DeviceReduce::Sum on %d SMs; us per call in graph\n"
        "replay and launched from the host, medians of %d rounds; xCUB: CUB's\n"
        "time over step 9's, the median of the rounds' ratios (above 1: faster);\n"
        "every result against the exact sum\n",
        r.sms(), s.rounds);
    long failures = 0;
    for (int lg : logs) failures += bench_size(s, r, cub, lg);
    book::report("bench_failures", static_cast<double>(failures), "count");
    page_print("\nresults against the exact sum: %ld failures\n", failures);
    return failures == 0 ? 0 : 1;
}

// ---------------------------------------------------------------------------
// --sweep

// The sweep's variants and CUB (timed first, in the middle and last; the
// median of the three) at one size, fastest first in graph replay.
long sweep_size(const settings& s, cluster_reducer& r, cub_sum& cub, int lg) {
    timed_size t(s, lg);
    const std::string label = size_label(t.n());
    auto cub_run = [&](const float* x, std::size_t n, float* out, cudaStream_t st) {
        cub.run(x, n, out, st);
    };
    struct row {
        config c;
        unsigned clusters;
        std::pair<double, double> us;
    };
    std::vector<row> rows;
    std::vector<double> cub_graph, cub_host;
    auto time_cub = [&] {
        const auto c = t.time("CUB", cub_run);
        cub_graph.push_back(c.first);
        cub_host.push_back(c.second);
    };
    const std::vector<config> configs = sweep_configs();
    time_cub();
    for (std::size_t k = 0; k < configs.size(); ++k) {
        const config& c = configs[k];
        if (k == configs.size() / 2) time_cub();
        if (c.k == kind::one && lg > 20) continue;  // 16 SMs: far behind from 2^20 on
        const auto us = t.time(config_title(c), [&](const float* x, std::size_t n, float* out,
                                                    cudaStream_t st) { r.run(c, x, n, out, st); });
        rows.push_back({c, r.clusters(c, t.n()), us});
    }
    time_cub();
    const double cg_us = median(cub_graph), ch_us = median(cub_host);

    std::sort(rows.begin(), rows.end(),
              [](const row& a, const row& b) { return a.us.first < b.us.first; });
    page_print("\nn = 2^%d = %zu floats: %zu buffers, %d calls per graph\n", lg, t.n(), t.buffers(),
               t.calls());
    page_print("%-26s %8s %8s %6s %8s %6s\n", "variant (all pdl+pf)", "clusters", "graph us",
               "xCUB", "host us", "xCUB");
    page_print("%-26s %8s %8.2f %6s %8.2f %6s\n", "CUB", "", cg_us, "", ch_us, "");
    for (const row& w : rows) {
        page_print("%-26s %8u %8.2f %6.3f %8.2f %6.3f\n", config_title(w.c).c_str(), w.clusters,
                   w.us.first, cg_us / w.us.first, w.us.second, ch_us / w.us.second);
        const std::string key = config_key(w.c) + "_" + label;
        book::report("graph_us_" + key, w.us.first, "us");
        book::report("graph_over_cub_" + key, cg_us / w.us.first, "ratio");
        book::report("host_us_" + key, w.us.second, "us");
        book::report("host_over_cub_" + key, ch_us / w.us.second, "ratio");
        book::report("clusters_" + key, w.clusters, "count");
    }
    book::report("cub_graph_us_" + label, cg_us, "us");
    book::report("cub_host_us_" + label, ch_us, "us");
    return t.failures();
}

int run_sweep(const settings& s) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::vector<int> logs =
        s.quick ? std::vector<int>{12, 16} : std::vector<int>{16, 18, 20, 22, 24, 28};
    cluster_reducer r;
    cub_sum cub(std::size_t{1} << logs.back());
    warm_up(r, s.quick);
    page_print(
        "%zu variants against CUB DeviceReduce::Sum on %d SMs, each launched\n"
        "with PDL and the prefetch; us per call in graph replay (median of\n"
        "replays) and from the host (median of batches); xCUB: CUB's time over\n"
        "the variant's (above 1: faster); every result against the exact sum\n",
        sweep_configs().size(), r.sms());
    long failures = 0;
    for (int lg : logs) failures += sweep_size(s, r, cub, lg);
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    book::report("sweep_failures", static_cast<double>(failures), "count");
    book::report("sweep_seconds", secs, "s");
    page_print("\nresults against the exact sum: %ld failures\n", failures);
    return failures == 0 ? 0 : 1;
}

// ---------------------------------------------------------------------------
// --check

// Step 9 in its three launches and the sweep's variants: each alone at every
// size and alignment (around the policy's steps), then three calls back to
// back on three inputs (programmatic dependent launches overlap there) and
// the same three captured in a graph and replayed twice.
int run_check(const settings& s) {
    cluster_reducer r;
    const stream_handle stream;
    std::vector<config> configs = sweep_configs();
    for (start st : all_starts) configs.push_back(step9_config(0, st));  // one call per size below
    const std::vector<std::size_t> sizes =
        s.quick ? std::vector<std::size_t>{0, 1, 31, 1023, 65536, 65537, 262145}
                : std::vector<std::size_t>{0,     1,      31,     1023,    65535,   65536,
                                           65537, 262144, 262145, 1048579, 4194311, 16777221};
    const std::vector<std::size_t> offsets =
        s.quick ? std::vector<std::size_t>{0, 3} : std::vector<std::size_t>{0, 1, 2, 3};
    const std::size_t max_n = sizes.back();
    book::device_buffer<float> x(max_n + 4), outs(3);
    long runs = 0, sequences = 0, failures = 0;
    auto failed = [&](const std::string& what, float got, double want) {
        if (++failures <= 40)
            page_print("FAILED: %s: %.9g, not %.9g\n", what.c_str(), static_cast<double>(got),
                       want);
    };
    // The step-9 entries follow the policy at each n; the others keep their shape.
    auto at = [&](std::size_t k, std::size_t n) {
        return k < configs.size() - 3 ? configs[k] : step9_config(n, configs[k].launch);
    };
    auto title = [&](std::size_t k, std::size_t n) {
        return (k < configs.size() - 3 ? "" : "step 9 ") + config_title(at(k, n));
    };

    for (std::size_t si = 0; si < sizes.size(); ++si) {
        const std::size_t n = sizes[si];
        fill(x.data(), max_n + 4, static_cast<std::uint64_t>(s.seed) * 1000 + si, stream.s);
        BOOK_CUDA_CHECK(cudaStreamSynchronize(stream.s));
        for (std::size_t off : offsets) {
            const double want = cpu_sum(x.data() + off, n);
            for (std::size_t k = 0; k < configs.size(); ++k) {
                r.poison(stream.s);
                poison_one(outs.data(), stream.s);
                r.run(at(k, n), x.data() + off, n, outs.data(), stream.s);
                BOOK_CUDA_CHECK(cudaStreamSynchronize(stream.s));
                ++runs;
                const float got = read_one(outs.data());
                if (static_cast<double>(got) != want)
                    failed(title(k, n) + ", n = " + std::to_string(n) + " at offset " +
                               std::to_string(off),
                           got, want);
            }
        }
    }

    const std::vector<std::size_t> seq_sizes =
        s.quick ? std::vector<std::size_t>{65537, 262145}
                : std::vector<std::size_t>{65537, 1048579, 4194311};
    const std::size_t offs3[3] = {0, 1, 3};
    for (std::size_t n3 : seq_sizes) {
        std::vector<book::device_buffer<float>> in3;
        double want3[3];
        for (int j = 0; j < 3; ++j) {
            in3.emplace_back(n3 + 4);
            fill(in3[j].data(), n3 + 4, static_cast<std::uint64_t>(s.seed) * 7919 + j, stream.s);
            BOOK_CUDA_CHECK(cudaStreamSynchronize(stream.s));
            want3[j] = cpu_sum(in3[j].data() + offs3[j], n3);
        }
        for (std::size_t k = 0; k < configs.size(); ++k) {
            const config c = at(k, n3);
            auto enqueue = [&](int j, cudaStream_t st) {
                r.run(c, in3[j].data() + offs3[j], n3, outs.data() + j, st);
            };
            auto compare = [&](const char* how) {
                for (int j = 0; j < 3; ++j) {
                    const float got = read_one(outs.data() + j);
                    if (static_cast<double>(got) != want3[j])
                        failed(title(k, n3) + ", n = " + std::to_string(n3) + ", " + how +
                                   ", call " + std::to_string(j),
                               got, want3[j]);
                }
            };
            r.poison(stream.s);
            BOOK_CUDA_CHECK(cudaMemsetAsync(outs.data(), 0xFF, outs.bytes(), stream.s));
            for (int j = 0; j < 3; ++j) enqueue(j, stream.s);
            BOOK_CUDA_CHECK(cudaStreamSynchronize(stream.s));
            compare("back to back");
            graph_handle g;
            capture(g, stream.s, 3, enqueue);
            for (int rep = 0; rep < 2; ++rep) {
                BOOK_CUDA_CHECK(cudaMemsetAsync(outs.data(), 0xFF, outs.bytes(), stream.s));
                BOOK_CUDA_CHECK(cudaGraphLaunch(g.exec, stream.s));
                BOOK_CUDA_CHECK(cudaStreamSynchronize(stream.s));
                compare(rep == 0 ? "graph, first replay" : "graph, second replay");
            }
            ++sequences;
        }
    }

    book::report("check_variants", static_cast<double>(configs.size()), "count");
    book::report("check_sizes", static_cast<double>(sizes.size()), "count");
    book::report("check_largest_n", static_cast<double>(max_n), "count");
    book::report("check_runs", static_cast<double>(runs), "count");
    book::report("check_sequences", static_cast<double>(sequences), "count");
    book::report("check_failures", static_cast<double>(failures), "count");
    page_print(
        "step 9 (three launches) and %zu variants x %zu sizes (0 to %zu) x %zu\n"
        "alignments: %ld runs alone, %ld sequences of 3 calls (back to back, then\n"
        "in a graph replayed twice), against the exact sum: %ld failures\n",
        configs.size() - 3, sizes.size(), max_n, offsets.size(), runs, sequences, failures);
    return failures == 0 ? 0 : 1;
}

namespace {

int run(int argc, char** argv) {
    settings s;
    bool check = false, sweep = false;
    book::options opts(
        "Step 9: sums through thread block clusters and distributed shared\n"
        "memory, launched plainly, with programmatic dependent launch, and with\n"
        "an L2 prefetch as well, against CUB at 2^16, 2^20, 2^24 and 2^28 floats\n"
        "in graph replay and from the host. --sweep compares a dozen variants;\n"
        "--check runs everything against the exact sum.");
    opts.flag("--check", check,
              "step 9 and the variants against the exact sum; nonzero exit on a mismatch");
    opts.flag("--sweep", sweep, "time the variants and CUB, in graph replay and from the host");
    opts.flag("--quick", s.quick, "small sizes only (for compute-sanitizer)");
    opts.option("--rounds", s.rounds, "rounds of step 9 against CUB per size", 1, 1001);
    opts.option("--seed", s.seed, "seed of the random input", 0);
    if (const auto status = opts.parse(argc, argv)) return *status;
    if (check && sweep) throw std::invalid_argument("give at most one of --check and --sweep");
    return check ? run_check(s) : sweep ? run_sweep(s) : run_bench(s);
}

}  // namespace
}  // namespace ch03

int main(int argc, char** argv) { return book::gpu_main(argc, argv, ch03::run); }
