// littles_law: how many bytes each SM must keep in flight to read device
// memory at full speed.
//
// Little's law: bytes in flight = bandwidth x latency. A streaming read sets
// its bytes in flight per SM with three knobs: the warps each SM holds (4 to
// 64: blocks of 128 threads, 1 to 16 per SM, a grid of exactly that many per
// SM), the independent loads each thread issues before it uses any (1, 2, 4
// or 8), and the width of each load (4, 8 or 16 bytes). Per SM:
//
//     bytes in flight = warps x 32 lanes x loads per thread x bytes per load
//
// The model predicts each point's bandwidth from this run's own figures:
// min(read ceiling, bytes in flight x SMs / latency), the latency being a cold
// pointer chase to device memory (chase.hpp) and the ceiling a streaming read
// at full occupancy with 16-byte evict-first loads (chapter 3's). The knee,
// where the line meets the ceiling, is at ceiling x latency / SMs bytes per SM.
//
// Every launch's sum of the array (x[i] = i) is checked against the exact one,
// and every point's blocks are counted per SM (they must spread evenly, or
// "per SM" means nothing).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "book/cuda.hpp"
#include "chase.hpp"
#include "little.hpp"

namespace ch04 {

constexpr int kThreads = 128;  // 4 warps per block: one per scheduler of the SM

__device__ __forceinline__ unsigned lanes(unsigned v) { return v; }
__device__ __forceinline__ unsigned lanes(uint2 v) { return v.x + v.y; }
__device__ __forceinline__ unsigned lanes(uint4 v) { return v.x + v.y + v.z + v.w; }

__device__ __forceinline__ unsigned smid() {
    unsigned id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    return id;
}

template <class V, bool EvictFirst>
__device__ __forceinline__ V load(const V* p) {
    if constexpr (EvictFirst)
        return __ldcs(p);
    else
        return *p;
}

// The fewest blocks of 128 threads per SM that ptxas must allow for: 8, so up
// to 64 registers a thread. Left to itself it keeps a kernel to 32 registers
// (2048 threads per SM), and 8 loads of 16 bytes then get fewer of them in
// flight than the thread asks for (ptxas -v: 32 registers, where the data
// alone needs 32; with this bound 48). 8 x 128 threads fit every SM from
// compute capability 7.5 on.
constexpr int kMinBlocks = 8;

// [listing:stream]
// Each thread issues K loads of sizeof(V) bytes, none waiting for another,
// then adds what they brought; a grid-stride loop over the whole array.
template <class V, int K, bool EvictFirst>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
    stream_read(const unsigned char* __restrict__ bytes, std::size_t n, unsigned* total,
                unsigned* sm_of_block) {
    const V* __restrict__ x = reinterpret_cast<const V*>(bytes);
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    unsigned sum = 0;
    for (; i + (K - 1) * stride < n; i += K * stride) {
        V v[K];
#pragma unroll
        for (int j = 0; j < K; ++j) v[j] = load<V, EvictFirst>(x + i + j * stride);
#pragma unroll
        for (int j = 0; j < K; ++j) sum += lanes(v[j]);
    }
    for (; i < n; i += stride) sum += lanes(load<V, EvictFirst>(x + i));
    // [/listing:stream]
    for (int o = 16; o > 0; o >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, o);
    if ((threadIdx.x & 31u) == 0) atomicAdd(total, sum);
    if (sm_of_block != nullptr && threadIdx.x == 0) sm_of_block[blockIdx.x] = smid();
}

__global__ void fill_index(unsigned* x, std::size_t n) {
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        x[i] = static_cast<unsigned>(i);
}

namespace {

using kernel_t = void (*)(const unsigned char*, std::size_t, unsigned*, unsigned*);

struct variant {
    int width;  // bytes per load
    int loads;  // independent loads per thread
    kernel_t kernel;
};

template <class V, int K>
variant make() {
    return {static_cast<int>(sizeof(V)), K, stream_read<V, K, false>};
}

struct point {
    int width, loads, warps;  // warps per SM
    double bytes_per_sm;      // in flight
    double tbs;               // measured
    double model_tbs;
};

int run(int argc, char** argv) {
    book::options opts("Bandwidth against bytes in flight per SM, and Little's law");
    bool quick = false;
    opts.flag("--quick", quick, "small sizes, for compute-sanitizer");
    if (const auto status = opts.parse(argc, argv)) return *status;
    const book::repeat_counts repeats = book::repeats_for(quick);

    const int sms = book::sm_count();
    const std::size_t bytes = quick ? (std::size_t{4} << 20) : (std::size_t{1} << 30);
    const std::size_t words = bytes / 4;
    book::device_buffer<unsigned> data(words);
    fill_index<<<8 * sms, 256>>>(data.data(), words);
    BOOK_CHECK_LAUNCH();
    // The exact sum of 0..words-1, modulo 2^32 (unsigned arithmetic wraps as the kernel's).
    const auto expected = static_cast<unsigned>(static_cast<std::uint64_t>(words) * (words - 1) /
                                                2 % (std::uint64_t{1} << 32));
    const auto* in = reinterpret_cast<const unsigned char*>(data.data());
    book::device_buffer<unsigned> total(1);
    book::device_buffer<unsigned> sm_of_block(static_cast<std::size_t>(64) * sms);
    BOOK_CUDA_CHECK(cudaMemset(sm_of_block.data(), 0, sm_of_block.bytes()));  // copied whole

    // Device memory's latency: a cold walk of 8192 random lines in one 2 MiB
    // page (one translation, so no TLB miss), L2 flushed first; globaltimer ns.
    aligned_region page(std::size_t{2} << 20);
    l2_flusher flusher(quick ? (std::size_t{1} << 20) : 4 * book::l2_cache_bytes());
    const std::size_t lines = quick ? 64 : 8192;
    const chain c(page.region(), std::size_t{2} << 20, lines, 43);
    const chase_timing lat =
        c.walk(chase_path::l2, 0, static_cast<long>(lines), quick ? 1 : 5, &flusher);
    const double latency_ns = lat.ns_per_step;

    long bad_sums = 0;
    // One launch's sum of the array (n: elements of the kernel's load width).
    auto sum_of = [&](kernel_t k, int blocks, std::size_t n, unsigned* where) {
        BOOK_CUDA_CHECK(cudaMemset(total.data(), 0, sizeof(unsigned)));
        k<<<blocks, kThreads>>>(in, n, total.data(), where);
        BOOK_CHECK_LAUNCH();
        return total.to_host()[0];
    };
    auto tbs = [&](const book::timing_stats& t) { return double(bytes) / (t.median_ms * 1e9); };

    // The ceiling: 16-byte evict-first loads, 4 per thread, every block the SM holds.
    const kernel_t ceiling_kernel = stream_read<uint4, 4, true>;
    const int ceiling_blocks = book::blocks_per_sm(ceiling_kernel, kThreads) * sms;
    auto launch_ceiling = [&] {
        ceiling_kernel<<<ceiling_blocks, kThreads>>>(in, words / 4, total.data(), nullptr);
    };
    if (sum_of(ceiling_kernel, ceiling_blocks, words / 4, nullptr) != expected) ++bad_sums;
    book::warm_up_clocks(launch_ceiling, repeats.clock_warmup_ms);
    const double ceiling = tbs(book::time_launches(launch_ceiling, repeats));

    const variant variants[] = {make<unsigned, 1>(), make<unsigned, 2>(), make<unsigned, 4>(),
                                make<unsigned, 8>(), make<uint2, 1>(),    make<uint2, 2>(),
                                make<uint2, 4>(),    make<uint2, 8>(),    make<uint4, 1>(),
                                make<uint4, 2>(),    make<uint4, 4>(),    make<uint4, 8>()};
    // 4 to 64 warps per SM (--quick: 8, every kernel once, for the sanitizers).
    const std::vector<int> blocks_per_sm_list =
        quick ? std::vector<int>{2} : std::vector<int>{1, 2, 4, 8, 16};
    std::vector<point> points;
    long uneven = 0, skipped = 0;
    for (const variant& v : variants) {
        const std::size_t n = bytes / static_cast<std::size_t>(v.width);
        const int most = book::blocks_per_sm(v.kernel, kThreads);
        for (const int b : blocks_per_sm_list) {
            if (b > most) {  // registers or the SM's limits allow fewer blocks
                ++skipped;
                continue;
            }
            const int blocks = b * sms;
            // Correctness, and where the blocks ran: b on every SM, or the point's
            // "bytes in flight per SM" is not what it says.
            if (sum_of(v.kernel, blocks, n, sm_of_block.data()) != expected) ++bad_sums;
            std::vector<unsigned> where = sm_of_block.to_host();
            where.resize(static_cast<std::size_t>(blocks));
            std::map<unsigned, int> per_sm;
            for (unsigned s : where) ++per_sm[s];
            bool even = static_cast<int>(per_sm.size()) == sms;
            for (const auto& [s, count] : per_sm) even = even && count == b;
            if (!even) ++uneven;

            const book::timing_stats t = book::time_launches(
                [&] { v.kernel<<<blocks, kThreads>>>(in, n, total.data(), nullptr); }, repeats);
            point p{v.width, v.loads, b * kThreads / 32, 0, tbs(t), 0};
            p.bytes_per_sm = bytes_in_flight(p.warps, v.loads, v.width);
            p.model_tbs = model_tbs(p.bytes_per_sm, sms, latency_ns, ceiling);
            points.push_back(p);
        }
    }

    // Little's law at the ceiling: the bytes each SM must keep in flight.
    const double knee = knee_bytes_per_sm(ceiling, latency_ns, sms);
    double worst_below_knee = 0, worst_below_half = 0, best = 0, measured_knee = -1;
    // Below the knee the model uses the latency of one thread's chase, an idle
    // memory's: a point whose requests queue sees a longer one (its bytes in flight
    // over its bandwidth), and the model is then an upper bound. The least
    // model / measured ratio there, and how far the latency the points saw grows.
    double least_model_over_measured = -1, least_seen_ns = -1, most_seen_ns = -1;
    const point* best_point = nullptr;
    for (const point& p : points) {
        const double err = std::fabs(p.model_tbs / p.tbs - 1.0);
        if (p.bytes_per_sm < knee) {
            worst_below_knee = std::max(worst_below_knee, err);
            const double ratio = p.model_tbs / p.tbs;
            const double seen_ns = p.bytes_per_sm * sms / (p.tbs * 1e3);
            if (least_model_over_measured < 0 || ratio < least_model_over_measured)
                least_model_over_measured = ratio;
            if (least_seen_ns < 0 || seen_ns < least_seen_ns) least_seen_ns = seen_ns;
            most_seen_ns = std::max(most_seen_ns, seen_ns);
        }
        if (p.bytes_per_sm < 0.5 * knee) worst_below_half = std::max(worst_below_half, err);
        if (p.tbs > best) {
            best = p.tbs;
            best_point = &p;
        }
        if (p.tbs >= 0.9 * ceiling && (measured_knee < 0 || p.bytes_per_sm < measured_knee))
            measured_knee = p.bytes_per_sm;
    }

    for (const point& p : points) {
        const std::string key = "w" + std::to_string(p.warps) + "_k" + std::to_string(p.loads) +
                                "_b" + std::to_string(p.width);
        book::report(key + "_tbs", p.tbs, "TB/s");
        book::report(key + "_model_tbs", p.model_tbs, "TB/s");
        book::report(key + "_bytes_per_sm", p.bytes_per_sm, "bytes");
    }
    book::report("ceiling_tbs", ceiling, "TB/s");
    // The ceiling kernel's own bytes in flight per SM: its warps x 32 lanes x 4 loads x 16 bytes.
    book::report("ceiling_bytes_per_sm",
                 bytes_in_flight(ceiling_blocks / sms * (kThreads / 32), 4, 16), "bytes");
    book::report("lat_hbm_ns", latency_ns, "ns");
    book::report("lat_hbm_cycles", lat.cycles_per_step, "cycles");
    book::report("knee_bytes_per_sm", knee, "bytes");
    book::report("measured_knee_bytes_per_sm", measured_knee, "bytes");
    book::report("measured_knee_over_knee", measured_knee / knee, "ratio");
    book::report("model_worst_error_below_knee", worst_below_knee, "fraction");
    book::report("model_worst_error_below_half_knee", worst_below_half, "fraction");
    book::report("model_least_over_measured_below_knee", least_model_over_measured, "ratio");
    book::report("seen_latency_least_below_knee_ns", least_seen_ns, "ns");
    book::report("seen_latency_most_below_knee_ns", most_seen_ns, "ns");
    book::report("seen_latency_most_over_idle", most_seen_ns / latency_ns, "ratio");
    book::report("best_tbs", best, "TB/s");
    book::report("best_of_ceiling", best / ceiling, "fraction");
    book::report("points", static_cast<double>(points.size()), "count");
    book::report("points_skipped", static_cast<double>(skipped), "count");
    book::report("uneven_points", static_cast<double>(uneven), "count");
    book::report("sum_mismatches", static_cast<double>(bad_sums), "count");
    book::report("chase_end_mismatches", lat.end_ok ? 0.0 : 1.0, "count");
    book::report("sms", sms, "SMs");

    std::printf("\n%zu MiB read per launch, %d SMs\n", bytes >> 20, sms);
    std::printf("device memory latency %.1f ns (cold pointer chase)\n", latency_ns);
    std::printf("read ceiling %.3f TB/s (16-byte evict-first loads, %d blocks of %d)\n", ceiling,
                ceiling_blocks, kThreads);
    std::printf("knee: %.0f bytes in flight per SM (ceiling x latency / SMs)\n\n", knee);
    std::printf("%5s %5s %5s %9s %8s %8s %7s %10s\n", "bytes", "loads", "warps", "B/SM", "TB/s",
                "model", "model/", "implied ns");
    for (const point& p : points)
        std::printf("%5d %5d %5d %9.0f %8.3f %8.3f %7.3f %10.1f\n", p.width, p.loads, p.warps,
                    p.bytes_per_sm, p.tbs, p.model_tbs, p.model_tbs / p.tbs,
                    p.bytes_per_sm * sms / (p.tbs * 1e3));
    std::printf(
        "\n(implied ns: bytes in flight / measured bandwidth, the latency the point "
        "saw)\n");
    if (best_point != nullptr)
        std::printf("best: %d-byte loads x %d, %d warps per SM: %.3f TB/s, %.3f of the ceiling\n",
                    best_point->width, best_point->loads, best_point->warps, best, best / ceiling);
    std::printf("fewest bytes in flight per SM at 0.9 of the ceiling: %.0f (%.2f x knee)\n",
                measured_knee, measured_knee / knee);
    std::printf("model error below the knee: worst %.3f (below half the knee: %.3f)\n",
                worst_below_knee, worst_below_half);
    std::printf("points %zu (left out, more blocks than fit: %ld)\n", points.size(), skipped);
    std::printf("points whose blocks spread unevenly: %ld; wrong sums: %ld\n", uneven, bad_sums);
    return 0;
}

}  // namespace

}  // namespace ch04

int main(int argc, char** argv) { return book::gpu_main(argc, argv, ch04::run); }
