// warp_tails.cuh: the last warp of a shared-memory tree, four ways.
//
// A block has reduced its values to s[0..63] in shared memory and passed a
// __syncthreads(). Threads 0..31 (one whole warp) now add those 64 values;
// each function returns the block's sum in thread 0. Only the last two are
// correct CUDA: the first two assume that the 32 lanes of a warp move in
// lockstep, which the CUDA C++ Programming Guide has not promised since
// Volta's independent thread scheduling.
#pragma once

// [listing:warp-sum]
// The sum of v over the 32 lanes of a warp, in lane 0: five steps, each adding
// the value of the lane `offset` above. All 32 lanes must call it.
__device__ inline float warp_sum(float v) {
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}
// [/listing:warp-sum]

// [listing:tail-shfl]
// Correct: the warp's values travel through registers, by shuffles whose
// mask names the lanes that take part.
__device__ inline float tail_shfl(const float* s, unsigned tid) {
    return warp_sum(s[tid] + s[tid + 32]);
}
// [/listing:tail-shfl]

// [listing:tail-syncwarp]
// Correct: shared memory as before, but every read is separated from the
// writes that follow it by __syncwarp(), a barrier for the warp's lanes.
__device__ inline float tail_syncwarp(float* s, unsigned tid) {
    float v = s[tid] + s[tid + 32];
    for (unsigned offset = 16; offset > 0; offset >>= 1) {
        __syncwarp();
        s[tid] = v;
        __syncwarp();
        v += s[tid + offset];
    }
    return v;
}
// [/listing:tail-syncwarp]

// [listing:tail-volatile]
// Kepler era: no barrier, because the 32 lanes were assumed to run each line
// together (all reads of a line before any write). `volatile` makes every
// access a real load or store. Lane t reads s[t + 16] while lane t + 16 may
// already have added to it: a data race in today's CUDA. (The old code wrote
// v[tid] += ...; C++20 deprecates compound assignment to a volatile, so the
// load and the store are spelled out. They are the same accesses.)
__device__ inline float tail_volatile(float* s, unsigned tid) {
    volatile float* v = s;
    v[tid] = v[tid] + v[tid + 32];
    v[tid] = v[tid] + v[tid + 16];
    v[tid] = v[tid] + v[tid + 8];
    v[tid] = v[tid] + v[tid + 4];
    v[tid] = v[tid] + v[tid + 2];
    v[tid] = v[tid] + v[tid + 1];
    return v[tid];
}
// [/listing:tail-volatile]

// [listing:tail-plain]
// Wrong even on Kepler: without volatile the compiler may keep s[tid] in a
// register and store it once at the end, so the lanes read stale values.
__device__ inline float tail_plain(float* s, unsigned tid) {
    s[tid] += s[tid + 32];
    s[tid] += s[tid + 16];
    s[tid] += s[tid + 8];
    s[tid] += s[tid + 4];
    s[tid] += s[tid + 2];
    s[tid] += s[tid + 1];
    return s[tid];
}
// [/listing:tail-plain]
