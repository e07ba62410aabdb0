// device_clock.cuh: the two clocks a kernel can read.
//
// clock64 counts the SM's own clock cycles; globaltimer counts nanoseconds of
// a clock shared by the whole GPU. The "memory" clobber keeps the compiler
// from moving loads and stores across a reading.
#pragma once

namespace ch04 {

__device__ __forceinline__ long long sm_cycles() {
    long long c;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(c)::"memory");
    return c;
}

__device__ __forceinline__ unsigned long long global_ns() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
    return t;
}

}  // namespace ch04
