// stencil_kernels.cuh: the chapter's stencil kernels, from the first correct
// one to the fast one, one idea per kernel.
//
//   out[i] = in[i-R] + ... + in[i+R]   for 0 <= i < n
//
// Boundary rule, in every kernel here: values outside [0, n) count as 0.
// R is a template parameter (the loops over the window unroll); the block size
// is the launch's. Every kernel sums each window in the order i-R, ..., i+R.
//
//   stencil_plain<R>          one output per thread, 2R+1 loads from global memory
//   stencil_tiled<R>          one output per thread, from a shared-memory tile with a halo
//   stencil_strided<R, K>     K outputs per thread, blockDim apart, plain loads
//   stencil_vec<R, V>         4V outputs per thread, 16-byte loads from global memory
//   stencil_tiled_vec<R, V>   4V outputs per thread, 16-byte loads into a shared tile
//   stencil_tiled_async<R, V> the same, a block per SM slot walking the tiles, the next
//                             tile's cp.async copies in flight while this one is summed
//   copy_vec<V>               no stencil: a copy with the geometry of the vec kernels
#pragma once

#include <cuda_pipeline_primitives.h>
#include <cuda_runtime.h>

#include "stencil_plan.hpp"

namespace ch02 {

// [listing:plain]
// One output per thread. Each of the 2R+1 loads goes to global memory; the
// neighbours' loads of the same values are served by the L1 cache.
template <int R>
__global__ void stencil_plain(const float* __restrict__ in, float* __restrict__ out, long long n) {
    const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
    if (i >= n) return;
    float sum = 0.0f;
#pragma unroll
    for (int d = -R; d <= R; ++d) {
        const long long j = i + d;
        if (j >= 0 && j < n) sum += in[j];  // outside [0, n): 0
    }
    out[i] = sum;
}
// [/listing:plain]

// [listing:tiled]
// One output per thread, read from a tile in shared memory. The block's
// blockDim.x + 2R inputs are loaded once, by all its threads in turn (so any R
// works, even R > blockDim.x), with zeros outside [0, n); then every thread
// waits at the barrier until the whole tile is written, and sums from it.
// Dynamic shared memory: (blockDim.x + 2R) floats.
template <int R>
__global__ void stencil_tiled(const float* __restrict__ in, float* __restrict__ out, long long n) {
    extern __shared__ float tile[];  // tile[k] holds in[start - R + k]
    const long long start = blockIdx.x * static_cast<long long>(blockDim.x);
    const int width = blockDim.x + 2 * R;
    for (int k = threadIdx.x; k < width; k += blockDim.x) {
        const long long j = start - R + k;
        tile[k] = (j >= 0 && j < n) ? in[j] : 0.0f;
    }
    __syncthreads();  // nobody reads the tile before all of it is written
    const long long i = start + threadIdx.x;
    if (i >= n) return;  // after the barrier: every thread took part in it
    float sum = 0.0f;
#pragma unroll
    for (int d = 0; d <= 2 * R; ++d) sum += tile[threadIdx.x + d];
    out[i] = sum;
}
// [/listing:tiled]

// [listing:strided]
// K outputs per thread, blockDim.x apart (so each warp's loads stay
// coalesced). The K windows' loads are independent: a thread has K times the
// bytes in flight of stencil_plain, with as many load instructions per output.
template <int R, int K>
__global__ void stencil_strided(const float* __restrict__ in, float* __restrict__ out,
                                long long n) {
    const long long start = blockIdx.x * outputs_per_block(blockDim.x, K);
    float sum[K];
#pragma unroll
    for (int k = 0; k < K; ++k) {
        const long long i = start + threadIdx.x + static_cast<long long>(k) * blockDim.x;
        sum[k] = 0.0f;
#pragma unroll
        for (int d = -R; d <= R; ++d) {
            const long long j = i + d;
            if (j >= 0 && j < n) sum[k] += in[j];
        }
    }
#pragma unroll
    for (int k = 0; k < K; ++k) {
        const long long i = start + threadIdx.x + static_cast<long long>(k) * blockDim.x;
        if (i < n) out[i] = sum[k];
    }
}
// [/listing:strided]

// [listing:window-sum4]
// The four sums of the outputs p, p+1, p+2, p+3 (p a multiple of 4), from the
// float4 chunks around them: load(c) returns in[p + 4c .. p + 4c + 3] for
// c = -P .. P, P = halo_pad(R) / 4. Which element goes into which sum is known
// at compile time, so the unrolled loop holds only the adds that count.
template <int R, class Load>
__device__ __forceinline__ float4 window_sum4(Load load) {
    constexpr int P = halo_pad(R) / kVec;
    float s[kVec] = {0.0f, 0.0f, 0.0f, 0.0f};
#pragma unroll
    for (int c = -P; c <= P; ++c) {
        const float4 v = load(c);
        const float e[kVec] = {v.x, v.y, v.z, v.w};
#pragma unroll
        for (int k = 0; k < kVec; ++k)
#pragma unroll
            for (int j = 0; j < kVec; ++j) {
                const int d = kVec * c + k - j;  // e[k]'s offset from output p + j
                if (d >= -R && d <= R) s[j] += e[k];
            }
    }
    return make_float4(s[0], s[1], s[2], s[3]);
}
// [/listing:window-sum4]

// in[q] as a kernel sees it: 0 outside [0, n).
__device__ __forceinline__ float load_checked(const float* __restrict__ in, long long q,
                                              long long n) {
    return (q >= 0 && q < n) ? in[q] : 0.0f;
}

// Store the four outputs of chunk p, those below n.
__device__ __forceinline__ void store_checked(float* __restrict__ out, long long p, float4 v,
                                              long long n) {
    if (p + kVec <= n) {
        *reinterpret_cast<float4*>(out + p) = v;
    } else {
        const float e[kVec] = {v.x, v.y, v.z, v.w};
        for (int k = 0; k < kVec && p + k < n; ++k) out[p + k] = e[k];
    }
}

// [listing:vec]
// 4V outputs per thread with 16-byte loads, straight from global memory:
// V chunks of 4 outputs, blockDim.x chunks apart. Each chunk reads its own
// float4 and P = halo_pad(R)/4 float4s on each side (L1 hits, mostly): at
// R = 3, 3 load instructions for 4 outputs, against 28 in stencil_plain.
// Interior blocks load without checks; the block at each end of the array
// takes the checked path (the branch is the same for the whole block).
template <int R, int V>
__global__ void stencil_vec(const float* __restrict__ in, float* __restrict__ out, long long n) {
    const long long per_block = outputs_per_block(blockDim.x, kVec * V);
    const long long start = block_start(blockIdx.x, per_block);
    if (block_is_interior(start, per_block, halo_pad(R), n)) {
        const float4* in4 = reinterpret_cast<const float4*>(in + start);
        float4* out4 = reinterpret_cast<float4*>(out + start);
        float4 result[V];
#pragma unroll
        for (int v = 0; v < V; ++v) {
            const int chunk = threadIdx.x + v * blockDim.x;
            result[v] = window_sum4<R>([&](int c) { return __ldg(in4 + chunk + c); });
        }
#pragma unroll
        for (int v = 0; v < V; ++v) out4[threadIdx.x + v * blockDim.x] = result[v];
    } else {
        for (int v = 0; v < V; ++v) {
            const long long p =
                start + kVec * (threadIdx.x + static_cast<long long>(v) * blockDim.x);
            if (p >= n) break;
            const float4 r = window_sum4<R>([&](int c) {
                const long long q = p + kVec * c;
                return make_float4(load_checked(in, q, n), load_checked(in, q + 1, n),
                                   load_checked(in, q + 2, n), load_checked(in, q + 3, n));
            });
            store_checked(out, p, r, n);
        }
    }
}
// [/listing:vec]

// The outputs of a block's tile: V chunks of 4 per thread, blockDim.x chunks
// apart, summed from the tile (slot P + m holds chunk m) and stored with float4s.
template <int R, int V>
__device__ __forceinline__ void sum_tile(const float4* tile4, long long start,
                                         float* __restrict__ out, long long n) {
    constexpr int P = halo_pad(R) / kVec;
#pragma unroll
    for (int v = 0; v < V; ++v) {
        const int m = threadIdx.x + v * blockDim.x;
        const float4 s = window_sum4<R>([&](int c) { return tile4[P + m + c]; });
        const long long p = start + static_cast<long long>(kVec) * m;
        if (p + kVec <= n)
            reinterpret_cast<float4*>(out)[p / kVec] = s;
        else if (p < n)
            store_checked(out, p, s, n);
    }
}

// [listing:tiled-vec]
// 4V outputs per thread from a shared tile, loaded with 16-byte loads. Each
// thread first issues all V of its float4 loads (16V bytes in flight per
// thread), and the first 2P threads one halo float4 each; then the stores to
// the tile, the barrier, and the sums from shared memory.
// Dynamic shared memory: tile_floats(4V x blockDim.x, halo_pad(R)) floats.
template <int R, int V>
__global__ void stencil_tiled_vec(const float* __restrict__ in, float* __restrict__ out,
                                  long long n) {
    constexpr int pad = halo_pad(R), P = pad / kVec;
    extern __shared__ float4 tile4[];  // tile4[P + m] holds chunk m of the block; P on each side
    const int chunks = V * blockDim.x;
    const long long per_block = outputs_per_block(blockDim.x, kVec * V);
    const long long start = block_start(blockIdx.x, per_block);
    if (block_is_interior(start, per_block, pad, n)) {
        const float4* in4 = reinterpret_cast<const float4*>(in + start);
        float4 r[V];
#pragma unroll
        for (int v = 0; v < V; ++v) r[v] = __ldg(in4 + threadIdx.x + v * blockDim.x);
        float4 halo;
        const int t = threadIdx.x;
        if (t < 2 * P) halo = __ldg(in4 + halo_chunk(t, P, chunks));
#pragma unroll
        for (int v = 0; v < V; ++v) tile4[P + threadIdx.x + v * blockDim.x] = r[v];
        if (t < 2 * P) tile4[halo_slot(t, P, chunks)] = halo;
    } else {
        float* tile = reinterpret_cast<float*>(tile4);
        const int width = static_cast<int>(tile_floats(per_block, pad));
        for (int k = threadIdx.x; k < width; k += blockDim.x)
            tile[k] = load_checked(in, start - pad + k, n);
    }
    __syncthreads();  // the whole tile is written before anyone reads it
    sum_tile<R, V>(tile4, start, out, n);
}
// [/listing:tiled-vec]

// Start loading tile `tile` into `tile4` without waiting: 16-byte cp.async
// copies, global to shared, that hold no registers while in flight. An edge
// tile is loaded with checked loads instead (it is written when this returns).
template <int R, int V>
__device__ __forceinline__ void load_tile_async(const float* __restrict__ in, long long n,
                                                long long tile, long long tiles, float4* tile4) {
    constexpr int pad = halo_pad(R), P = pad / kVec;
    if (tile >= tiles) return;
    const int chunks = V * blockDim.x;
    const long long per_block = outputs_per_block(blockDim.x, kVec * V);
    const long long start = block_start(tile, per_block);
    if (block_is_interior(start, per_block, pad, n)) {
        const float4* in4 = reinterpret_cast<const float4*>(in + start);
#pragma unroll
        for (int v = 0; v < V; ++v) {
            const int m = threadIdx.x + v * blockDim.x;
            __pipeline_memcpy_async(tile4 + P + m, in4 + m, sizeof(float4));
        }
        const int t = threadIdx.x;
        if (t < 2 * P)
            __pipeline_memcpy_async(tile4 + halo_slot(t, P, chunks), in4 + halo_chunk(t, P, chunks),
                                    sizeof(float4));
    } else {
        float* floats = reinterpret_cast<float*>(tile4);
        const int width = static_cast<int>(tile_floats(per_block, pad));
        for (int k = threadIdx.x; k < width; k += blockDim.x)
            floats[k] = load_checked(in, start - pad + k, n);
    }
}

// [listing:tiled-async]
// stencil_tiled_vec with the next tile's loads in flight while this one is
// summed: a grid of as many blocks as fit at once, each walking the tiles
// gridDim.x apart with two tile buffers. Every iteration starts copying the
// next tile into one buffer, waits for the current tile's copies (its own, then
// everyone's, at the barrier), sums from the other, and meets the block at a
// second barrier before that buffer is refilled.
// Dynamic shared memory: 2 x tile_floats(4V x blockDim.x, halo_pad(R)) floats.
template <int R, int V>
__global__ void stencil_tiled_async(const float* __restrict__ in, float* __restrict__ out,
                                    long long n) {
    extern __shared__ float4 buffers[];
    const int slots = V * blockDim.x + 2 * (halo_pad(R) / kVec);
    const long long per_block = outputs_per_block(blockDim.x, kVec * V);
    const long long tiles = n / per_block + (n % per_block != 0 ? 1 : 0);
    long long tile = blockIdx.x;
    load_tile_async<R, V>(in, n, tile, tiles, buffers);
    __pipeline_commit();
    for (int k = 0; tile < tiles; ++k, tile += gridDim.x) {
        float4* current = buffers + (k & 1) * slots;
        float4* next = buffers + ((k + 1) & 1) * slots;
        load_tile_async<R, V>(in, n, tile + gridDim.x, tiles, next);
        __pipeline_commit();       // (an empty group past the last tile)
        __pipeline_wait_prior(1);  // this thread's copies of the current tile have landed
        __syncthreads();           // and every thread's
        sum_tile<R, V>(current, block_start(tile, per_block), out, n);
        __syncthreads();  // nobody reads `current` any more: it may be refilled
    }
}
// [/listing:tiled-async]

// A copy with the geometry of stencil_vec<R, V>: the same loads and stores,
// no neighbours and no adds. What the access pattern alone reaches.
template <int V>
__global__ void copy_vec(const float* __restrict__ in, float* __restrict__ out, long long n) {
    const long long per_block = outputs_per_block(blockDim.x, kVec * V);
    const long long start = block_start(blockIdx.x, per_block);
    if (start + per_block <= n) {
        const float4* in4 = reinterpret_cast<const float4*>(in + start);
        float4* out4 = reinterpret_cast<float4*>(out + start);
        float4 r[V];
#pragma unroll
        for (int v = 0; v < V; ++v) r[v] = __ldg(in4 + threadIdx.x + v * blockDim.x);
#pragma unroll
        for (int v = 0; v < V; ++v) out4[threadIdx.x + v * blockDim.x] = r[v];
    } else {
        for (long long q = start + threadIdx.x; q < n && q < start + per_block; q += blockDim.x)
            out[q] = in[q];
    }
}

}  // namespace ch02
