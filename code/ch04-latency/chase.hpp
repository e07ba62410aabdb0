// chase.hpp: pointer chasing and the SM clock, shared by the latency ladder
// and the Little's-law sweep.
//
// A chain is a cycle of 8-byte pointers laid in device memory, one per "line"
// (a line is 256 bytes apart from any other, so no two share a cache line or
// an L2 sector). Each load's address is the value the last load returned, so
// one thread walking the chain has exactly one load in flight: the time per
// step is the latency of one load, nothing overlapped. The lines are visited
// in a random order, so neither a prefetcher nor coalescing helps.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "book/cuda.hpp"

namespace ch04 {

/// Bytes between the starts of two lines of a chain.
constexpr std::size_t kLineBytes = 256;

/// Which path a chase's loads take.
enum class chase_path {
    l1,  ///< ld.global.ca: cached in L1 (and L2)
    l2,  ///< ld.global.cg: L2 only, never L1
};

class l2_flusher;

/// One timed walk of a chain.
struct chase_timing {
    double cycles_per_step;  ///< SM clock cycles (clock64) per load
    double ns_per_step;      ///< nanoseconds (globaltimer) per load
    bool end_ok;             ///< the walk ended on the line the host expected
};

/// A cycle of `lines` pointers spread over `footprint` bytes of `region`
/// (device memory): line i lies at a random 256-byte slot of the i-th of
/// `lines` equal segments, and the cycle visits the lines in a random order.
/// The pointers are written by a kernel when the chain is made.
class chain {
public:
    /// @param region device memory of at least `footprint` bytes, 256-byte aligned
    /// @param footprint bytes the lines spread over (at least lines * 256)
    /// @param lines how many lines the cycle has
    /// @param seed the random layout and order
    chain(unsigned char* region, std::size_t footprint, std::size_t lines, std::uint64_t seed);

    /// Walk the chain from its first line: `warm` steps untimed, then `steps`
    /// timed steps (one thread, loads by `path`); the median of `repeats`
    /// walks, each starting from the chain's first line again. With `cold`,
    /// `cold->flush()` runs before each walk, so that it starts with nothing
    /// of the chain in L2.
    chase_timing walk(chase_path path, long warm, long steps, int repeats,
                      l2_flusher* cold = nullptr) const;

    /// How many lines the cycle has.
    std::size_t lines() const noexcept { return order_.size(); }

private:
    std::vector<std::uint64_t> order_;  // the lines' addresses, in visiting order
    book::device_buffer<unsigned long long> out_;
};

/// A buffer of `bytes` (zeroed once) that a kernel reads end to end, so that
/// whatever a chase left in the L2 cache is evicted before the next cold walk.
class l2_flusher {
public:
    explicit l2_flusher(std::size_t bytes);
    /// Read the whole buffer once (and wait for it).
    void flush();

private:
    book::device_buffer<unsigned> buf_;
    book::device_buffer<unsigned> sink_;
};

/// Device memory of `bytes` whose start is aligned to 2 MiB (the GPU's large
/// page), so that a 2 MiB footprint from region() lies in one page.
class aligned_region {
public:
    explicit aligned_region(std::size_t bytes);
    unsigned char* region() const noexcept { return aligned_; }

private:
    book::device_buffer<unsigned char> raw_;
    unsigned char* aligned_ = nullptr;
};

/// Read `bytes` of device memory from `p` (16-byte aligned, initialised) once,
/// with every SM, and wait: what fits of it is then in L2.
void read_through(const unsigned char* p, std::size_t bytes);

/// The SM clock while one thread spins: clock64 cycles over globaltimer
/// nanoseconds across about `ms` milliseconds, in MHz.
double measure_sm_clock_mhz(double ms);

/// Median of a vector (by copy).
double median(std::vector<double> v);

}  // namespace ch04
