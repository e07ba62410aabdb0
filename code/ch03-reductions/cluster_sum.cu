// cluster_sum: reductions that combine partial sums through Hopper's thread
// block clusters, against CUB in GPU time (CUDA-graph replay) and in batches
// launched from the host.
//
// One kernel, cluster_sum_kernel, does the work of every variant. Its blocks
// stream through the input with 16-byte loads, several in flight per thread;
// each block adds its threads' sums; each block's thread 0 stores the block's
// sum into the shared memory of block 0 of its cluster (distributed shared
// memory), and after one cluster barrier block 0 holds its cluster's sum. How
// the clusters' sums become one (its `finish`) makes the variants:
//
//   one     one cluster (8 or 16 blocks) is the whole grid: block 0 writes the
//           sum. No atomic, no ticket, no second launch; 8 or 16 SMs only.
//   ticket  a grid of clusters sized to the GPU: block 0 of each cluster
//           writes the cluster's sum and takes a ticket, and the last cluster
//           adds the clusters' sums (one ticket per cluster, not per block;
//           cluster size 1 is step 8's ticket per block).
//   two     the same grid writes the clusters' sums, and a second kernel of
//           one warp adds them.
//
// Each variant launches in one of three ways (its `start`):
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
//           its first loads (prefetch.global.L2). A prefetch moves data into
//           L2, which every SM sees the same way, and changes no value a
//           program reads, so it is safe even when the kernel before writes
//           the input; it overlaps the first trip to DRAM with the end of the
//           kernel before.
//
// --check runs every variant on awkward sizes and alignments, alone, back to
// back and in a CUDA graph, against the exact sum (the inputs are small whole
// numbers). --sweep times every variant over a grid of its launch parameters,
// and CUB's DeviceReduce::Sum, at 2^16 to 2^28 floats.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <cooperative_groups.h>
#include <cuda/atomic>

#include "book/cuda.hpp"
#include "cub_sum.hpp"
#include "page_print.hpp"

namespace cg = cooperative_groups;

namespace ch03 {

// ---------------------------------------------------------------------------
// Device code

/// The largest cluster any variant runs in (Hopper's non-portable limit).
inline constexpr int max_cluster_blocks = 16;
/// The most threads per block of any variant.
inline constexpr int max_threads = 1024;

inline constexpr unsigned full_mask = 0xffffffffu;

/// How the clusters' sums become the result.
enum class finish : int {
    out,       ///< the grid is one cluster: its sum is the result
    ticket,    ///< each cluster's sum to `partials`, a ticket, the last cluster adds them
    partials,  ///< each cluster's sum to `partials` (a second kernel adds them)
};

/// The arguments of cluster_sum_kernel.
struct sum_args {
    const float* x;           ///< the input, aligned to 4 bytes only
    std::size_t n;            ///< floats in the input
    float* partials;          ///< one per cluster (finish::ticket, finish::partials)
    unsigned* clusters_done;  ///< the ticket counter, 0 between launches (finish::ticket)
    float* out;               ///< the sum (finish::out, finish::ticket)
    finish end;
    int prefetch;  ///< nonzero: prefetch the first loads into L2 before waiting
};

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(full_mask, v, offset);
    return v;
}

// The sum of v over the block, in thread 0 (blockDim.x a multiple of 32).
__device__ __forceinline__ float block_sum(float v) {
    __shared__ float warp_sums[max_threads / 32];
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    v = warp_sum(v);
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) v = warp_sum(lane < blockDim.x / 32 ? warp_sums[lane] : 0.0f);
    return v;
}

/// How x[0..n) is cut for 16-byte loads: `head` floats up to the first
/// 16-byte boundary (0 to 3, no more than n), `vectors` whole float4s, and
/// the floats from `tail` to n (0 to 3).
struct float4_cut {
    std::size_t head, vectors, tail;
};

__host__ __device__ inline float4_cut cut_float4(const float* x, std::size_t n) {
    const std::size_t skew = (reinterpret_cast<std::uintptr_t>(x) / sizeof(float)) % 4;
    const std::size_t to_boundary = (4 - skew) % 4;
    const std::size_t head = to_boundary < n ? to_boundary : n;
    const std::size_t vectors = (n - head) / 4;
    return {head, vectors, head + 4 * vectors};
}

// [listing:cluster-thread-sum]
// This thread's share of x[0..n): a grid-stride walk through the float4s,
// `Unroll` loads issued before any is added. With `prefetch`, it first asks L2
// for the float4s of its first round. It reads no memory before
// cudaGridDependencySynchronize(), which returns at once unless the kernel was
// launched as a programmatic dependent of the one before it, and then returns
// when that one has finished and its writes are visible.
template <int Unroll>
__device__ __forceinline__ float thread_sum(const float* __restrict__ x, std::size_t n,
                                            bool prefetch) {
    const std::size_t g = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const unsigned stride = gridDim.x * blockDim.x;  // below 2^32 for every grid here
    const float4_cut c = cut_float4(x, n);
    const float4* __restrict__ v = reinterpret_cast<const float4*>(x + c.head);
    if (prefetch) {
#pragma unroll
        for (int u = 0; u < Unroll; ++u) {
            const std::size_t j = g + static_cast<std::size_t>(u) * stride;
            if (j < c.vectors)
                asm volatile("prefetch.global.L2 [%0];" ::"l"(__cvta_generic_to_global(v + j)));
        }
    }
    cudaGridDependencySynchronize();
    float sum = 0.0f;
    if (g < c.head) sum += x[g];
    if (g < n - c.tail) sum += x[c.tail + g];
    float acc[Unroll];
#pragma unroll
    for (int u = 0; u < Unroll; ++u) acc[u] = 0.0f;
    std::size_t i = g;
    // Whole rounds: every load in bounds, so none waits on a test of its own.
    for (; i + static_cast<std::size_t>(Unroll - 1) * stride < c.vectors;
         i += static_cast<std::size_t>(Unroll) * stride) {
        float4 t[Unroll];
#pragma unroll
        for (int u = 0; u < Unroll; ++u)
            t[u] = __ldcs(v + i + static_cast<std::size_t>(u) * stride);
#pragma unroll
        for (int u = 0; u < Unroll; ++u) acc[u] += (t[u].x + t[u].y) + (t[u].z + t[u].w);
    }
    // The last round, if part of it is past the end.
#pragma unroll
    for (int u = 0; u < Unroll; ++u) {
        const std::size_t j = i + static_cast<std::size_t>(u) * stride;
        const float4 t = j < c.vectors ? __ldcs(v + j) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        acc[u] += (t.x + t.y) + (t.z + t.w);
    }
#pragma unroll
    for (int u = 0; u < Unroll; ++u) sum += acc[u];
    return sum;
}
// [/listing:cluster-thread-sum]

// One warp's share of count partial sums (lane `lane` of 32), read from L2
// (__ldcg: never a line an earlier launch left in this SM's L1), eight loads
// in flight per lane.
__device__ __forceinline__ float warp_partials(const float* partials, unsigned count,
                                               unsigned lane) {
    constexpr int loads = 8;
    float v = 0.0f;
    for (unsigned base = 0; base < count; base += loads * 32) {
        float p[loads];
#pragma unroll
        for (int k = 0; k < loads; ++k) {
            const unsigned i = base + k * 32 + lane;
            p[k] = i < count ? __ldcg(partials + i) : 0.0f;
        }
#pragma unroll
        for (int k = 0; k < loads; ++k) v += p[k];
    }
    return v;
}

// [listing:cluster-sum-kernel]
// Every variant's kernel (see the top of the file). The first cluster barrier
// is split: each block arrives at once and waits only before it writes into
// block 0's shared memory, which must have started by then; the wait costs
// nothing after the loads. The second barrier (cluster.sync) publishes the
// blocks' sums to block 0, whose first warp adds them; the other blocks are
// done, and no block reads another's shared memory after it.
// Up to 4 loads per thread, two blocks of 1024 threads fit on an SM (32
// registers a thread); with 8, one.
template <int Unroll>
__global__ void __launch_bounds__(max_threads, Unroll <= 4 ? 2 : 1) cluster_sum_kernel(sum_args a) {
    const cg::cluster_group cluster = cg::this_cluster();
    auto started = cluster.barrier_arrive();
    cudaTriggerProgrammaticLaunchCompletion();  // the next kernel may launch now

    const float block_total = block_sum(thread_sum<Unroll>(a.x, a.n, a.prefetch != 0));
    __shared__ float block_totals[max_cluster_blocks];
    const unsigned rank = cluster.block_rank();
    cluster.barrier_wait(std::move(started));
    if (threadIdx.x == 0) *cluster.map_shared_rank(&block_totals[rank], 0) = block_total;
    cluster.sync();
    if (rank != 0 || threadIdx.x >= 32) return;

    const unsigned lane = threadIdx.x, size = cluster.num_blocks();
    const float total = warp_sum(lane < size ? block_totals[lane] : 0.0f);
    if (a.end == finish::out) {
        if (lane == 0) *a.out = total;
        return;
    }
    const unsigned id = blockIdx.x / size, clusters = gridDim.x / size;
    unsigned last = 0;
    if (lane == 0) {
        a.partials[id] = total;
        if (a.end == finish::ticket) {
            // release: this cluster's sum is visible before its ticket;
            // acquire: the last ticket sees every cluster's sum.
            cuda::atomic_ref<unsigned, cuda::thread_scope_device> done(*a.clusters_done);
            last = done.fetch_add(1, cuda::memory_order_acq_rel) == clusters - 1;
        }
    }
    __syncwarp();  // orders what lane 0 saw (every cluster's sum) before the warp's reads
    if (!__shfl_sync(full_mask, last, 0)) return;
    const float sum = warp_sum(warp_partials(a.partials, clusters, lane));
    if (lane == 0) {
        *a.out = sum;
        cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*a.clusters_done)
            .store(0, cuda::memory_order_relaxed);  // ready for the next launch
    }
}
// [/listing:cluster-sum-kernel]

// The second kernel of `two`: one warp adds the clusters' sums, once the
// kernel that wrote them has finished (cudaGridDependencySynchronize, when it
// was launched as a programmatic dependent; stream order otherwise).
__global__ void __launch_bounds__(32)
    partials_sum_kernel(const float* partials, unsigned count, float* out) {
    cudaTriggerProgrammaticLaunchCompletion();
    cudaGridDependencySynchronize();
    const float sum = warp_sum(warp_partials(partials, count, threadIdx.x));
    if (threadIdx.x == 0) *out = sum;
}

/// A whole number in [-8, 8], never 0, from a random 32-bit value. Every sum
/// of up to 2^28 of them that a kernel forms stays a whole number far below
/// 2^24 (a random walk), so every variant must return the exact sum.
__host__ __device__ inline float small_whole(std::uint32_t r) {
    const int k = static_cast<int>(r & 15u) - 8;
    return static_cast<float>(k >= 0 ? k + 1 : k);
}

__global__ void fill_kernel(float* x, std::size_t n, std::uint64_t seed) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += stride)
        x[i] = small_whole(book::random_u32(seed, i));
}

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
    switch (k) {
        case kind::one:
            return "one";
        case kind::ticket:
            return "ticket";
        default:
            return "two";
    }
}

const char* start_key(start s) {
    switch (s) {
        case start::plain:
            return "plain";
        case start::pdl:
            return "pdl";
        default:
            return "pdlpf";
    }
}

const char* start_title(start s) {
    switch (s) {
        case start::plain:
            return "plain";
        case start::pdl:
            return "pdl";
        default:
            return "pdl+pf";
    }
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

// [listing:cluster-graph-time]
// Microseconds per call when `calls` calls (call i on its own buffer, so
// that no call finds its input in L2) are captured in one CUDA graph and the
// graph is replayed: the median over `replays` replays, each between its own
// pair of events, after two untimed ones. No launch cost of the host is in
// it, only the GPU's: what a reduction costs inside a graph, or in a stream
// of kernels that the host keeps ahead of.
template <class F>
double graph_us_per_call(cudaStream_t stream, int calls, int replays, F&& enqueue) {
    graph_handle g;
    capture(g, stream, calls, enqueue);
    for (int i = 0; i < 2; ++i) BOOK_CUDA_CHECK(cudaGraphLaunch(g.exec, stream));
    std::vector<book::cuda_event> begin(replays), end(replays);
    for (int i = 0; i < replays; ++i) {
        BOOK_CUDA_CHECK(cudaEventRecord(begin[i].get(), stream));
        BOOK_CUDA_CHECK(cudaGraphLaunch(g.exec, stream));
        BOOK_CUDA_CHECK(cudaEventRecord(end[i].get(), stream));
    }
    BOOK_CUDA_CHECK(cudaStreamSynchronize(stream));
    std::vector<double> ms(replays);
    for (int i = 0; i < replays; ++i) ms[i] = book::elapsed_ms(begin[i], end[i]);
    return book::summarize_times(std::move(ms)).median_ms * 1000.0 / calls;
}
// [/listing:cluster-graph-time]

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

/// Whether a CUDA error is one of a launch's configuration, which leaves the
/// context usable (the sweep then skips the variant), not one of a kernel.
bool launch_refused(const book::cuda_error& e) {
    switch (e.code()) {
        case cudaErrorInvalidValue:
        case cudaErrorInvalidConfiguration:
        case cudaErrorNotSupported:
        case cudaErrorInvalidClusterSize:
        case cudaErrorLaunchOutOfResources:
        case cudaErrorStreamCaptureUnsupported:
            return true;
        default:
            return false;
    }
}

// ---------------------------------------------------------------------------
// The variants each mode runs

std::vector<config> one_cluster_configs(bool quick) {
    std::vector<config> out;
    for (start s : {start::plain, start::pdl, start::pdl_prefetch})
        for (int cluster : {8, 16})
            for (int threads : {512, 1024})
                for (int unroll : {1, 2, 4}) {
                    if (quick && (threads != 1024 || unroll == 2)) continue;
                    out.push_back({kind::one, cluster, threads, 1, unroll, s});
                }
    return out;
}

// Threads x blocks per SM x unroll: 2048 threads per SM with 1 to 4 float4s
// each, 1024 with 2 to 8.
struct grid_shape {
    int threads, blocks_per_sm, unroll;
};
const std::vector<grid_shape>& grid_shapes(bool quick) {
    static const std::vector<grid_shape> all = {
        {256, 8, 1}, {256, 8, 2},  {256, 8, 4},  {512, 4, 1},  {512, 4, 2},
        {512, 4, 4}, {1024, 2, 1}, {1024, 2, 2}, {1024, 2, 4}, {512, 2, 2},
        {512, 2, 4}, {512, 2, 8},  {1024, 1, 2}, {1024, 1, 4}, {1024, 1, 8},
    };
    static const std::vector<grid_shape> few = {{256, 8, 1}, {1024, 2, 4}, {1024, 1, 8}};
    return quick ? few : all;
}

std::vector<config> grid_configs(kind k, bool quick) {
    std::vector<config> out;
    for (start s : {start::plain, start::pdl, start::pdl_prefetch}) {
        if (k == kind::two && s == start::plain && !quick) continue;  // step 7 with clusters
        for (int cluster : {1, 2, 4, 8, 16}) {
            if (quick && (cluster == 2 || cluster == 8)) continue;
            for (const grid_shape& g : grid_shapes(quick))
                out.push_back({k, cluster, g.threads, g.blocks_per_sm, g.unroll, s});
        }
    }
    return out;
}

std::vector<config> all_configs(bool quick) {
    std::vector<config> out = one_cluster_configs(quick);
    for (kind k : {kind::ticket, kind::two}) {
        const std::vector<config> more = grid_configs(k, quick);
        out.insert(out.end(), more.begin(), more.end());
    }
    return out;
}

// ---------------------------------------------------------------------------
// --check

struct settings {
    bool quick = false;
    bool all_rows = false;
    int top = 12;
    int only_log2 = 0;
    long seed = 1;
};

int run_check(const settings& s) {
    cluster_reducer r;
    const stream_handle stream;
    const std::vector<config> configs = all_configs(s.quick);
    std::vector<std::size_t> sizes = {0, 1, 31, 1023, (1u << 16) + 1};
    if (!s.quick) {
        sizes.push_back((std::size_t{1} << 20) + 3);
        sizes.push_back((std::size_t{1} << 22) + 7);
    }
    const std::vector<std::size_t> offsets =
        s.quick ? std::vector<std::size_t>{0, 3} : std::vector<std::size_t>{0, 1, 2, 3};
    const std::size_t max_n = sizes.back();
    book::device_buffer<float> x(max_n + 4), outs(3);
    long runs = 0, failures = 0, refused = 0;
    std::set<std::string> skipped;

    auto report_failure = [&](const config& c, const std::string& where, float got, double want) {
        ++failures;
        if (failures <= 40)
            page_print("FAILED: %s,\n  %s: %.9g, not %.9g\n", config_title(c).c_str(),
                       where.c_str(), static_cast<double>(got), want);
    };

    // 1. Each variant alone, at every size and alignment.
    for (std::size_t si = 0; si < sizes.size(); ++si) {
        const std::size_t n = sizes[si];
        fill(x.data(), max_n + 4, static_cast<std::uint64_t>(s.seed) * 1000 + si, stream.s);
        BOOK_CUDA_CHECK(cudaStreamSynchronize(stream.s));
        for (std::size_t off : offsets) {
            const double want = cpu_sum(x.data() + off, n);
            for (const config& c : configs) {
                if (skipped.count(config_key(c))) continue;
                r.poison(stream.s);
                poison_one(outs.data(), stream.s);
                try {
                    r.run(c, x.data() + off, n, outs.data(), stream.s);
                } catch (const book::cuda_error& e) {
                    if (!launch_refused(e)) throw;
                    cudaGetLastError();
                    ++refused;
                    skipped.insert(config_key(c));
                    page_print("refused: %s: %s\n", config_title(c).c_str(),
                               cudaGetErrorName(e.code()));
                    continue;
                } catch (const std::invalid_argument& e) {  // no cluster of this shape fits
                    ++refused;
                    skipped.insert(config_key(c));
                    page_print("refused: %s\n", e.what());
                    continue;
                }
                BOOK_CUDA_CHECK(cudaStreamSynchronize(stream.s));
                ++runs;
                const float got = read_one(outs.data());
                if (static_cast<double>(got) != want)
                    report_failure(c,
                                   "n = " + std::to_string(n) + " at offset " + std::to_string(off),
                                   got, want);
            }
        }
    }

    // 2. Three calls back to back on three inputs (programmatic dependent
    // launches overlap there), then the same three captured in a graph and
    // replayed twice.
    const std::size_t n3 = s.quick ? (1u << 16) + 1 : (std::size_t{1} << 20) + 3;
    const std::size_t offs3[3] = {0, 1, 3};
    std::vector<book::device_buffer<float>> in3;
    double want3[3];
    for (int k = 0; k < 3; ++k) {
        in3.emplace_back(n3 + 4);
        fill(in3[k].data(), n3 + 4, static_cast<std::uint64_t>(s.seed) * 7919 + k, stream.s);
        BOOK_CUDA_CHECK(cudaStreamSynchronize(stream.s));
        want3[k] = cpu_sum(in3[k].data() + offs3[k], n3);
    }
    long sequences = 0;
    for (const config& c : configs) {
        if (skipped.count(config_key(c))) continue;
        auto enqueue = [&](int k, cudaStream_t st) {
            r.run(c, in3[k].data() + offs3[k], n3, outs.data() + k, st);
        };
        auto compare = [&](const char* how) {
            for (int k = 0; k < 3; ++k) {
                const float got = read_one(outs.data() + k);
                if (static_cast<double>(got) != want3[k])
                    report_failure(c, std::string(how) + ", call " + std::to_string(k), got,
                                   want3[k]);
            }
        };
        r.poison(stream.s);
        BOOK_CUDA_CHECK(cudaMemsetAsync(outs.data(), 0xFF, outs.bytes(), stream.s));
        for (int k = 0; k < 3; ++k) enqueue(k, stream.s);
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

    book::report("check_variants", static_cast<double>(configs.size() - skipped.size()), "count");
    book::report("check_runs", static_cast<double>(runs), "count");
    book::report("check_sequences", static_cast<double>(sequences), "count");
    book::report("check_refused", static_cast<double>(refused), "count");
    book::report("check_failures", static_cast<double>(failures), "count");
    page_print("%zu variants (%ld refused at launch) x %zu sizes (0 to %zu) x %zu alignments:\n",
               configs.size(), refused, sizes.size(), max_n, offsets.size());
    page_print(
        "%ld runs alone, %ld sequences of 3 calls (back to back, then in a graph\n"
        "replayed twice), against the exact sum: %ld failures\n",
        runs, sequences, failures);
    return failures == 0 && refused == 0 ? 0 : 1;
}

// ---------------------------------------------------------------------------
// --sweep

struct row {
    config c;
    unsigned clusters;
    double graph_us, host_us;
};

// Every variant (and CUB) at one size: its result against the exact sum,
// then its time in graph replay and from the host. Returns the failures.
long sweep_size(const settings& s, cluster_reducer& r, cub_sum& cub, int lg,
                const std::vector<config>& configs) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::size_t n = std::size_t{1} << lg;
    const std::string label = size_label(n);
    const stream_handle stream;
    book::rotating_buffers<float> in(n, 3);
    fill(in.all(), in.total(), static_cast<std::uint64_t>(s.seed) + lg, stream.s);
    BOOK_CUDA_CHECK(cudaStreamSynchronize(stream.s));
    const int calls = static_cast<int>(std::min<std::size_t>(in.count(), 512));
    const int replays = lg <= 22 ? 7 : 5;
    const int batches = 5, reps = lg <= 22 ? 20 : 5;
    const double want_first = cpu_sum(in.slot(0), n);
    const double want_last = cpu_sum(in.slot(static_cast<std::size_t>(calls) - 1), n);
    book::device_buffer<float> out(1);
    long failures = 0;

    // Run f on slot 0 and then as a graph; both results are checked.
    auto checked = [&](const std::string& title, auto&& enqueue, double& graph_us,
                       double& host_us) {
        poison_one(out.data(), stream.s);
        enqueue(0, stream.s);
        BOOK_CUDA_CHECK(cudaStreamSynchronize(stream.s));
        const float first = read_one(out.data());
        graph_us = graph_us_per_call(stream.s, calls, replays, enqueue);
        const float last = read_one(out.data());
        host_us = host_us_per_call(stream.s, batches, reps, enqueue);
        if (static_cast<double>(first) != want_first || static_cast<double>(last) != want_last) {
            ++failures;
            page_print("FAILED: %s on 2^%d floats:\n  %.9g and %.9g, not %.9g and %.9g\n",
                       title.c_str(), lg, static_cast<double>(first), static_cast<double>(last),
                       want_first, want_last);
            return false;
        }
        return true;
    };
    auto cub_enqueue = [&](int i, cudaStream_t st) {
        cub.run(in.slot(static_cast<std::size_t>(i)), n, out.data(), st);
    };
    std::vector<double> cub_graph, cub_host;
    auto time_cub = [&] {
        double g = 0.0, h = 0.0;
        checked("CUB", cub_enqueue, g, h);
        cub_graph.push_back(g);
        cub_host.push_back(h);
    };

    time_cub();
    std::vector<row> rows;
    std::set<std::tuple<int, int, int, int, unsigned, int>> seen;  // launches already timed
    for (std::size_t k = 0; k < configs.size(); ++k) {
        const config& c = configs[k];
        if (k == configs.size() / 2) time_cub();
        if (c.k == kind::one && lg > 20) continue;  // 16 SMs: far behind from 2^20 on
        unsigned g = 0;
        try {
            g = r.clusters(c, n);
        } catch (const std::invalid_argument& e) {
            page_print("skipped: %s\n", e.what());
            continue;
        } catch (const book::cuda_error& e) {  // the occupancy query refused the shape
            if (!launch_refused(e)) throw;
            cudaGetLastError();
            page_print("refused: %s: %s\n", config_title(c).c_str(), cudaGetErrorName(e.code()));
            continue;
        }
        const auto effective = std::make_tuple(static_cast<int>(c.k), c.cluster, c.threads,
                                               c.unroll, g, static_cast<int>(c.launch));
        if (!seen.insert(effective).second) continue;  // the same launch as a row before
        auto enqueue = [&](int i, cudaStream_t st) {
            r.run(c, in.slot(static_cast<std::size_t>(i)), n, out.data(), st);
        };
        row rw{c, g, 0.0, 0.0};
        try {
            if (!checked(config_title(c), enqueue, rw.graph_us, rw.host_us)) continue;
        } catch (const book::cuda_error& e) {
            if (!launch_refused(e)) throw;
            cudaGetLastError();
            page_print("refused: %s: %s\n", config_title(c).c_str(), cudaGetErrorName(e.code()));
            continue;
        }
        rows.push_back(rw);
    }
    time_cub();

    std::vector<double> sorted_graph = cub_graph, sorted_host = cub_host;
    std::sort(sorted_graph.begin(), sorted_graph.end());
    std::sort(sorted_host.begin(), sorted_host.end());
    const double cg_us = sorted_graph[1], ch_us = sorted_host[1];  // the median of three
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    // The table: the fastest rows in graph replay, then the best of each family.
    std::sort(rows.begin(), rows.end(),
              [](const row& a, const row& b) { return a.graph_us < b.graph_us; });
    page_print("\nn = 2^%d = %zu floats: %zu buffers, %d calls per graph, %zu variants\n", lg, n,
               in.count(), calls, rows.size());
    page_print("CUB, graph: %.2f us (%.2f, %.2f, %.2f)\n", cg_us, cub_graph[0], cub_graph[1],
               cub_graph[2]);
    page_print("CUB, host:  %.2f us (%.2f, %.2f, %.2f)\n", ch_us, cub_host[0], cub_host[1],
               cub_host[2]);
    const char* head = "%-30s %8s %8s %6s %8s %6s\n";
    const char* line = "%-30s %8u %8.2f %6.3f %8.2f %6.3f\n";
    page_print(head, "variant", "clusters", "graph us", "xCUB", "host us", "xCUB");
    auto print_row = [&](const row& w) {
        page_print(line, config_title(w.c).c_str(), w.clusters, w.graph_us, cg_us / w.graph_us,
                   w.host_us, ch_us / w.host_us);
    };
    const std::size_t shown =
        s.all_rows ? rows.size()
                   : std::min<std::size_t>(rows.size(), static_cast<std::size_t>(s.top));
    for (std::size_t i = 0; i < shown; ++i) print_row(rows[i]);
    page_print("the best of each variant and launch:\n");
    for (kind k : {kind::one, kind::ticket, kind::two})
        for (start st : {start::plain, start::pdl, start::pdl_prefetch})
            for (const row& w : rows)
                if (w.c.k == k && w.c.launch == st) {
                    print_row(w);
                    break;
                }
    page_print("(2^%d: %.1f s)\n", lg, secs);

    // The results: every row, CUB's three measurements and the best row.
    book::report("cub_graph_us_" + label, cg_us, "us");
    book::report("cub_host_us_" + label, ch_us, "us");
    for (std::size_t i = 0; i < cub_graph.size(); ++i) {
        book::report("cub_graph_us_" + label + "_" + std::to_string(i), cub_graph[i], "us");
        book::report("cub_host_us_" + label + "_" + std::to_string(i), cub_host[i], "us");
    }
    for (const row& w : rows) {
        const std::string key = config_key(w.c) + "_" + label;
        book::report("graph_us_" + key, w.graph_us, "us");
        book::report("graph_over_cub_" + key, cg_us / w.graph_us, "ratio");
        book::report("host_us_" + key, w.host_us, "us");
        book::report("host_over_cub_" + key, ch_us / w.host_us, "ratio");
        book::report("clusters_" + key, w.clusters, "count");
    }
    if (!rows.empty()) {
        book::report("best_graph_over_cub_" + label, cg_us / rows[0].graph_us, "ratio");
        book::report("best_host_over_cub_" + label, ch_us / rows[0].host_us, "ratio");
    }
    book::report("sweep_seconds_" + label, secs, "s");
    book::report("sweep_failures_" + label, static_cast<double>(failures), "count");
    return failures;
}

int run_sweep(const settings& s) {
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<int> logs = {16, 18, 20, 22, 24, 28};
    if (s.quick) logs = {12, 16};
    if (s.only_log2 != 0) logs = {s.only_log2};
    cluster_reducer r;
    cub_sum cub(std::size_t{1} << *std::max_element(logs.begin(), logs.end()));
    const std::vector<config> configs = all_configs(s.quick);
    {  // bring the clocks up
        book::device_buffer<float> x(std::size_t{1} << 24), out(1);
        fill(x.data(), x.size(), 1, nullptr);
        const config warm{kind::ticket, 1, 1024, 2, 4, start::plain};
        book::warm_up_clocks([&] { r.run(warm, x.data(), x.size(), out.data(), nullptr); },
                             s.quick ? 1.0 : 200.0);
    }
    page_print(
        "%zu variants against CUB DeviceReduce::Sum (%zu bytes of temporary\n"
        "storage) on %d SMs; each result against the exact sum; times per call\n"
        "in graph replay (median of replays) and launched from the host (median\n"
        "of batches); xCUB: CUB's time over the variant's (above 1: faster)\n",
        configs.size(), cub.temp_bytes(), r.sms());
    long failures = 0;
    for (int lg : logs) failures += sweep_size(s, r, cub, lg, configs);
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    book::report("sweep_failures", static_cast<double>(failures), "count");
    book::report("sweep_seconds", secs, "s");
    page_print("\nresults against the exact sum: %ld failures; %.1f s in all\n", failures, secs);
    return failures == 0 ? 0 : 1;
}

namespace {

int run(int argc, char** argv) {
    settings s;
    bool check = false, sweep = false;
    book::options opts(
        "Sums through thread block clusters and distributed shared memory, with\n"
        "and without programmatic dependent launch, against CUB. Give --check\n"
        "(every variant at awkward sizes and alignments, against the exact sum)\n"
        "or --sweep (every variant's launch parameters and CUB, timed in graph\n"
        "replay and from the host, 2^16 to 2^28 floats).");
    opts.flag("--check", check, "every variant against the exact sum; nonzero exit on a mismatch");
    opts.flag("--sweep", sweep, "time every variant and CUB, in graph replay and from the host");
    opts.flag("--quick", s.quick, "few variants and small sizes (for compute-sanitizer)");
    opts.flag("--all", s.all_rows, "--sweep: print every row, not only the fastest");
    opts.option("--top", s.top, "--sweep: rows printed per size, fastest first", 1, 100000);
    opts.option("--only-log2", s.only_log2, "--sweep: only 2^this floats", 4, 30);
    opts.option("--seed", s.seed, "seed of the random input", 0);
    if (const auto status = opts.parse(argc, argv)) return *status;
    if (check == sweep) throw std::invalid_argument("give one of --check and --sweep");
    if (check && (s.all_rows || s.only_log2 != 0))
        throw std::invalid_argument("--all and --only-log2 are options of --sweep");
    return check ? run_check(s) : run_sweep(s);
}

}  // namespace
}  // namespace ch03

int main(int argc, char** argv) { return book::gpu_main(argc, argv, ch03::run); }
