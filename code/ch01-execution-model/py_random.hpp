/// @file py_random.hpp
/// @brief A C++ reproduction of CPython's `random.seed(int)` and `random.random()`.
///
/// The book's Python seed programs draw their "random" data from CPython's
/// Mersenne Twister. To port such a program exactly (same rows, same digits),
/// the C++ port must draw the very same numbers. `std::mt19937` alone is not
/// enough: CPython seeds the generator with `init_by_array` (not the single
/// 32-bit `init_genrand` that `std::mt19937(seed)` uses) and builds each double
/// from two 32-bit outputs. This class does both, and nothing else.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace ch01 {

/// The generator behind CPython's `random` module (MT19937), seeded and read
/// the way CPython does it.
///
/// Example: `PyRandom r(7); r.random();` gives the same value as
/// `random.seed(7); random.random()` in Python, bit for bit.
class PyRandom {
public:
    /// Seed as Python's `random.seed(seed)` does for an `int` seed.
    explicit PyRandom(std::int64_t seed);

    /// Re-seed as `random.seed(seed)` does for an `int`: the key is the
    /// absolute value of `seed` split into 32-bit words, least significant
    /// word first, with no leading zero words (seed 0 gives the key `[0]`).
    void seed(std::int64_t seed);

    /// Re-seed from an explicit key (the general case, for Python integers
    /// wider than 64 bits): MT19937's `init_by_array(key)`.
    /// An empty key is treated as `[0]`, as CPython does.
    void seed_by_array(const std::vector<std::uint32_t>& key);

    /// The next 32-bit output of MT19937 (`genrand_uint32`).
    std::uint32_t next_u32();

    /// Python's `random.random()`: a double in [0, 1) with 53 random bits,
    /// made from two outputs as `(a * 2^26 + b) / 2^53` with `a` the top 27
    /// bits of the first and `b` the top 26 bits of the second.
    double random();

private:
    static constexpr int kN = 624;  ///< State size in 32-bit words.
    static constexpr int kM = 397;  ///< Twist offset.

    void init_genrand(std::uint32_t s);  ///< MT19937's single-word seeding.
    void twist();                        ///< Refill the state (all kN words).

    std::array<std::uint32_t, kN> mt_{};  ///< The generator's state.
    int mti_ = kN + 1;                    ///< Next state word to temper.
};

}  // namespace ch01
