/// @file random.hpp
/// @brief Random input that is the same on the host and the device:
/// book::random_u32 and book::fill_random_u32.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace book {

/// A 32-bit pseudo-random value, the same on host and device, from a seed and
/// an index (a counter-based hash). Never zero, so a kernel never times zeros.
__host__ __device__ inline std::uint32_t random_u32(std::uint64_t seed, std::uint64_t index) {
    std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + index + 0x632BE59BD9B4E019ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    const auto r = static_cast<std::uint32_t>(z >> 32);
    return r != 0u ? r : 0x9E3779B9u;
}

/// Fill `d[0..n)` with `random_u32(seed, i)` on the device (one kernel launch,
/// checked; returns without waiting for it).
void fill_random_u32(std::uint32_t* d, std::size_t n, std::uint64_t seed);

}  // namespace book
