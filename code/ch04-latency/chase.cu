// chase.cu: the pointer-chasing kernels, the L2 flush and the SM clock
// (chase.hpp says what each is for).
#include "chase.hpp"

#include "device_clock.cuh"

#include <algorithm>
#include <stdexcept>

namespace ch04 {

// Writes each line's pointer: the line at where[i] points to where[i + 1],
// and the last to the first.
__global__ void write_chain(const unsigned long long* where, std::size_t n) {
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) *reinterpret_cast<unsigned long long*>(where[i]) = where[i + 1 < n ? i + 1 : 0];
}

// [listing:chase]
// One thread follows the chain: each load's address is the last load's value.
// out[0]: where the walk ended; out[1]: clock64 cycles; out[2]: nanoseconds.
__global__ void chase_cg(unsigned long long p, long warm, long steps, unsigned long long* out) {
    for (long i = 0; i < warm; ++i) asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(p));
    const long long c0 = sm_cycles();
    const unsigned long long t0 = global_ns();
    for (long i = 0; i < steps; ++i) asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(p));
    out[0] = p;  // waits for the last load, so the clock is read after it
    const long long c1 = sm_cycles();
    const unsigned long long t1 = global_ns();
    out[1] = static_cast<unsigned long long>(c1 - c0);
    out[2] = t1 - t0;
}
// [/listing:chase]

// The same walk with loads that L1 caches too (ld.global.ca).
__global__ void chase_ca(unsigned long long p, long warm, long steps, unsigned long long* out) {
    for (long i = 0; i < warm; ++i) asm volatile("ld.global.ca.u64 %0, [%0];" : "+l"(p));
    const long long c0 = sm_cycles();
    const unsigned long long t0 = global_ns();
    for (long i = 0; i < steps; ++i) asm volatile("ld.global.ca.u64 %0, [%0];" : "+l"(p));
    out[0] = p;
    const long long c1 = sm_cycles();
    const unsigned long long t1 = global_ns();
    out[1] = static_cast<unsigned long long>(c1 - c0);
    out[2] = t1 - t0;
}

// Reads x[0..n) and keeps the loads alive (the store happens only where the
// words add up to 0xFFFFFFFF, into a sink nobody reads).
__global__ void flush_read(const uint4* x, std::size_t n, unsigned* sink) {
    unsigned s = 0;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
        const uint4 v = x[i];
        s += v.x + v.y + v.z + v.w;
    }
    if (s == 0xFFFFFFFFu) *sink = s;
}

// One thread spins for spin_ns nanoseconds of globaltimer, counting clock64 cycles.
__global__ void clock_spin(unsigned long long spin_ns, unsigned long long* out) {
    const unsigned long long t0 = global_ns();
    const long long c0 = sm_cycles();
    unsigned long long t1;
    do {  // (bounded by cycles too, should globaltimer stand still)
        t1 = global_ns();
    } while (t1 - t0 < spin_ns && sm_cycles() - c0 < static_cast<long long>(spin_ns) * 10);
    const long long c1 = sm_cycles();
    out[0] = static_cast<unsigned long long>(c1 - c0);
    out[1] = t1 - t0;
}

double median(std::vector<double> v) {
    if (v.empty()) throw std::invalid_argument("median of nothing");
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

chain::chain(unsigned char* region, std::size_t footprint, std::size_t lines, std::uint64_t seed)
    : out_(3) {
    if (lines < 2) throw std::invalid_argument("chain: at least 2 lines");
    const std::size_t segment = footprint / lines / kLineBytes * kLineBytes;
    if (segment < kLineBytes) throw std::invalid_argument("chain: footprint < lines * 256 bytes");
    const std::size_t slots = segment / kLineBytes;
    // Fisher-Yates with the book's counter-based random numbers: the same
    // layout and order on every run.
    std::vector<std::size_t> visit(lines);
    for (std::size_t i = 0; i < lines; ++i) visit[i] = i;
    for (std::size_t i = lines - 1; i > 0; --i)
        std::swap(visit[i], visit[book::random_u32(seed + 1, i) % (i + 1)]);
    order_.resize(lines);
    const auto base = reinterpret_cast<std::uint64_t>(region);
    for (std::size_t k = 0; k < lines; ++k) {
        const std::size_t line = visit[k];
        order_[k] = base + line * segment + book::random_u32(seed, line) % slots * kLineBytes;
    }
    book::device_buffer<unsigned long long> where(lines);
    where.from_host(std::vector<unsigned long long>(order_.begin(), order_.end()));
    write_chain<<<static_cast<unsigned>((lines + 255) / 256), 256>>>(where.data(), lines);
    BOOK_CHECK_LAUNCH();
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());
}

chase_timing chain::walk(chase_path path, long warm, long steps, int repeats,
                         l2_flusher* cold) const {
    if (steps < 1 || warm < 0 || repeats < 1) throw std::invalid_argument("chain::walk");
    std::vector<double> cycles, ns;
    bool ok = true;
    const std::uint64_t expected = order_[static_cast<std::size_t>(warm + steps) % order_.size()];
    for (int r = 0; r < repeats; ++r) {
        if (cold != nullptr) cold->flush();
        if (path == chase_path::l1)
            chase_ca<<<1, 1>>>(order_[0], warm, steps, out_.data());
        else
            chase_cg<<<1, 1>>>(order_[0], warm, steps, out_.data());
        BOOK_CHECK_LAUNCH();
        const std::vector<unsigned long long> got = out_.to_host();
        ok = ok && got[0] == expected;
        cycles.push_back(static_cast<double>(got[1]) / static_cast<double>(steps));
        ns.push_back(static_cast<double>(got[2]) / static_cast<double>(steps));
    }
    return {median(cycles), median(ns), ok};
}

l2_flusher::l2_flusher(std::size_t bytes) : buf_((bytes + 15) / 16 * 4), sink_(1) {
    BOOK_CUDA_CHECK(cudaMemset(buf_.data(), 0, buf_.bytes()));
    BOOK_CUDA_CHECK(cudaMemset(sink_.data(), 0, sink_.bytes()));
}

void l2_flusher::flush() {
    const std::size_t n = buf_.size() / 4;
    flush_read<<<4 * book::sm_count(), 512>>>(reinterpret_cast<const uint4*>(buf_.data()), n,
                                              sink_.data());
    BOOK_CHECK_LAUNCH();
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());
}

void read_through(const unsigned char* p, std::size_t bytes) {
    book::device_buffer<unsigned> sink(1);
    BOOK_CUDA_CHECK(cudaMemset(sink.data(), 0, sink.bytes()));
    flush_read<<<4 * book::sm_count(), 512>>>(reinterpret_cast<const uint4*>(p), bytes / 16,
                                              sink.data());
    BOOK_CHECK_LAUNCH();
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());
}

aligned_region::aligned_region(std::size_t bytes) : raw_(bytes + (std::size_t{2} << 20)) {
    const auto p = reinterpret_cast<std::uintptr_t>(raw_.data());
    const std::uintptr_t page = std::uintptr_t{2} << 20;
    aligned_ = reinterpret_cast<unsigned char*>((p + page - 1) / page * page);
}

double measure_sm_clock_mhz(double ms) {
    book::device_buffer<unsigned long long> out(2);
    clock_spin<<<1, 1>>>(static_cast<unsigned long long>(ms * 1e6), out.data());
    BOOK_CHECK_LAUNCH();
    const std::vector<unsigned long long> got = out.to_host();
    return static_cast<double>(got[0]) / static_cast<double>(got[1]) * 1e3;
}

}  // namespace ch04
