// cluster_sum.cuh: the device code of cluster_sum.cu. One kernel,
// cluster_sum_kernel, does the work of every variant. Its blocks stream
// through the input with 16-byte loads, several in flight per thread; each
// block adds its threads' sums; each block's thread 0 stores the block's sum
// into the shared memory of block 0 of its cluster (distributed shared
// memory), and after one cluster barrier block 0 holds its cluster's sum. How
// the clusters' sums become one (`finish`) makes the variants:
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
// Every kernel here calls cudaTriggerProgrammaticLaunchCompletion (the next
// kernel may launch now) and reads no memory before
// cudaGridDependencySynchronize, so each can be launched as a programmatic
// dependent of the kernel before it. With `prefetch`, each thread first asks
// the L2 cache for its first loads (prefetch.global.L2): a prefetch changes no
// value a program reads, so it is safe even while the kernel before is still
// writing the input.
//
// Included by cluster_sum.cu only (its kernels are defined here).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include <cooperative_groups.h>
#include <cuda/atomic>

#include "book/cuda.hpp"

namespace ch03 {

namespace cg = cooperative_groups;

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

}  // namespace ch03
