// reduce_device.cuh: the device pieces of the streaming reductions (steps 7
// and 8, the read ceiling and the layout variants): loading float4s, the sum of
// one thread's share, the sum over a block, and the end of a one-launch
// reduction (the ticket and the last block).
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda/atomic>

#include "reduce_plan.hpp"
#include "warp_tails.cuh"

namespace ch03 {

// [listing:load4]
// One 16-byte load, with the cache hint of `K`: an ordinary load; the
// read-only path (__ldg, as CUB loads); streaming, evict first (__ldcs); or a
// read-only load that also brings the whole 256-byte block into L2.
template <load_kind K>
__device__ __forceinline__ float4 load4(const float4* p) {
    if constexpr (K == load_kind::ldg) {
        return __ldg(p);
    } else if constexpr (K == load_kind::ldcs) {
        return __ldcs(p);
    } else if constexpr (K == load_kind::l2_256) {
        float4 v;
        asm("ld.global.nc.L2::256B.v4.f32 {%0, %1, %2, %3}, [%4];"
            : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
            : "l"(p));
        return v;
    } else {
        return *p;
    }
}
// [/listing:load4]

// [listing:block-sum]
// The sum of v over the block, in thread 0: each warp adds its 32 values by
// shuffles, lane 0 of each warp leaves the warp's sum in shared memory, and
// warp 0 adds those. blockDim.x must be a multiple of 32. It ends without a
// barrier: two calls in a row need a __syncthreads() between them.
__device__ inline float block_sum(float v) {
    __shared__ float warp_sums[32];
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    v = warp_sum(v);
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < blockDim.x / 32 ? warp_sums[lane] : 0.0f;
        v = warp_sum(v);
    }
    return v;
}
// [/listing:block-sum]

// [listing:thread-sum]
// This thread's share of x[0..n). The float4s start at the first 16-byte
// boundary; the few floats before it (head) and after the last whole float4
// (tail) go to the first threads of the grid, loaded first so that they
// overlap the stream. Then the thread walks through the float4s of its layout
// (walk() in reduce_plan.hpp; steps 7 and 8: the grid-stride loop), `Unroll`
// at a time: every load of a round is issued before any is added, and a round
// past the end loads nothing, so the last round is as wide as the others.
template <layout L, int Unroll, load_kind K = load_kind::plain>
__device__ float thread_sum(const float* __restrict__ x, std::size_t n) {
    static_assert(L != layout::old, "the old layout has its own code (reduce_layouts.cu)");
    const std::size_t tid = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const auto [head, vectors, tail] = split_float4(reinterpret_cast<std::uintptr_t>(x), n);
    float sum = 0.0f;
    if (tid < head) sum += x[tid];
    if (tid < n - tail) sum += x[tail + tid];

    const float4* __restrict__ v = reinterpret_cast<const float4*>(x + head);
    const thread_walk w = walk(L, vectors, blockIdx.x, gridDim.x, threadIdx.x, blockDim.x, Unroll);
    float acc[Unroll];
#pragma unroll
    for (int u = 0; u < Unroll; ++u) acc[u] = 0.0f;
    for (std::size_t i = w.first; i < w.end; i += w.round_step) {
        float4 t[Unroll];
#pragma unroll
        for (int u = 0; u < Unroll; ++u) {
            const std::size_t j = i + u * w.slot_step;
            t[u] = j < w.end ? load4<K>(v + j) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        }
#pragma unroll
        for (int u = 0; u < Unroll; ++u) acc[u] += (t[u].x + t[u].y) + (t[u].z + t[u].w);
    }
#pragma unroll
    for (int u = 0; u < Unroll; ++u) sum += acc[u];
    return sum;
}
// [/listing:thread-sum]

// [listing:sum-partials]
// One thread's share of the blocks' partial sums, for a group of `threads`
// threads (a block, or one warp) of which this thread is number `rank`: it adds
// partials rank, rank + threads, ...; it issues up to partials_per_thread
// loads before it adds any, so up to partials_per_thread x threads partial
// sums cost one trip to memory, not one per partial sum.
__device__ inline float sum_partials(const float* partials, unsigned count, unsigned threads,
                                     unsigned rank) {
    float v = 0.0f;
    for (unsigned base = 0; base < count; base += partials_per_thread * threads) {
        float p[partials_per_thread];
#pragma unroll
        for (int k = 0; k < partials_per_thread; ++k) {
            const unsigned i = base + k * threads + rank;
            p[k] = i < count ? partials[i] : 0.0f;
        }
#pragma unroll
        for (int k = 0; k < partials_per_thread; ++k) v += p[k];
    }
    return v;
}
// [/listing:sum-partials]

// [listing:finish-one-pass]
// The end of a one-launch reduction, in every block. block_sum has left the
// block's sum in thread 0, so every warp but the first is done and leaves.
// Thread 0 publishes the block's sum and takes a ticket: a read-modify-write
// at device scope with release (publishes this block's partial sum) and
// acquire (if the ticket is the last, every block's partial sum is visible to
// this thread). __syncwarp() passes what thread 0 saw on to the rest of its
// warp, and that one warp of the last block adds all the partial sums. It
// resets the counter for the next launch.
__device__ inline void finish_one_pass(float block_total, float* partials, unsigned* blocks_done,
                                       float* out) {
    if (threadIdx.x >= 32) return;
    unsigned last = 0;
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = block_total;
        cuda::atomic_ref<unsigned, cuda::thread_scope_device> done(*blocks_done);
        last = done.fetch_add(1, cuda::memory_order_acq_rel) == gridDim.x - 1;
    }
    __syncwarp();
    if (!__shfl_sync(0xffffffffu, last, 0)) return;
    const float total = warp_sum(sum_partials(partials, gridDim.x, 32, threadIdx.x));
    if (threadIdx.x == 0) {
        *out = total;
        cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*blocks_done)
            .store(0, cuda::memory_order_relaxed);
    }
}
// [/listing:finish-one-pass]

}  // namespace ch03
