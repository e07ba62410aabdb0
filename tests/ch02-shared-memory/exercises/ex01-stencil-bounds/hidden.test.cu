// Exercise 2.1, the stencil at the ends of the array: the hidden test set
// (tools/grade runs it; the student bundle and the reader's edition leave it
// out). Edge cases the visible set does not name: a radius larger than the
// block (the halo no longer fits one load per thread), the largest radius, a
// radius of 0, a large array, and signed values.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "book/cuda.hpp"
#include "stencil_bounds.cuh"

namespace {

// Whole numbers in [lo, hi]: exact float sums in any order while
// (2R + 1) * max(|lo|, |hi|) < 2^24.
std::vector<float> whole_numbers(std::size_t n, unsigned seed, int lo = 1, int hi = 16) {
    std::mt19937 gen(seed);
    std::uniform_int_distribution<int> value(lo, hi);
    std::vector<float> v(n);
    for (auto& x : v) x = static_cast<float>(value(gen));
    return v;
}

std::vector<double> clamped_reference(const std::vector<float>& in, int radius) {
    const long long n = static_cast<long long>(in.size());
    std::vector<double> out(in.size());
    for (long long i = 0; i < n; ++i) {
        double sum = 0.0;
        for (long long j = i - radius; j <= i + radius; ++j)
            sum += in[static_cast<std::size_t>(j < 0 ? 0 : (j >= n ? n - 1 : j))];
        out[static_cast<std::size_t>(i)] = sum;
    }
    return out;
}

std::string first_difference(const std::vector<float>& got, const std::vector<double>& want) {
    if (got.size() != want.size())
        return "got " + std::to_string(got.size()) + " outputs, want " +
               std::to_string(want.size());
    for (std::size_t i = 0; i < got.size(); ++i)
        if (!(static_cast<double>(got[i]) == want[i]))
            return "out[" + std::to_string(i) + "]: got " + std::to_string(got[i]) + ", want " +
                   std::to_string(want[i]);
    return "";
}

constexpr std::size_t kGuard = 4096;

struct guarded_run {
    std::vector<float> out;
    long long guard_writes;
};

// As in the visible set: both arrays between guard zones (NaN in the input's,
// a NaN bit pattern in the output's that must stay).
guarded_run run_guarded(const std::vector<float>& in, int radius) {
    const std::size_t n = in.size();
    std::vector<float> host(n + 2 * kGuard, std::numeric_limits<float>::quiet_NaN());
    std::copy(in.begin(), in.end(), host.begin() + kGuard);
    book::device_buffer<float> d_in(host.size()), d_out(host.size());
    d_in.from_host(host);
    BOOK_CUDA_CHECK(cudaMemset(d_out.data(), 0xFF, d_out.bytes()));
    const int blocks = static_cast<int>((n + ex01::kBlockThreads - 1) / ex01::kBlockThreads);
    ex01::stencil_clamped<<<blocks, ex01::kBlockThreads, ex01::tile_bytes(radius)>>>(
        d_in.data() + kGuard, d_out.data() + kGuard, static_cast<int>(n), radius);
    BOOK_CHECK_LAUNCH();
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());
    const std::vector<float> all = d_out.to_host();
    guarded_run r{std::vector<float>(all.begin() + kGuard, all.begin() + kGuard + n), 0};
    for (std::size_t k = 0; k < all.size(); ++k) {
        if (k >= kGuard && k < kGuard + n) continue;
        std::uint32_t bits = 0;
        std::memcpy(&bits, &all[k], sizeof bits);
        r.guard_writes += bits == 0xFFFFFFFFu ? 0 : 1;
    }
    return r;
}

}  // namespace

TEST_CASE("a radius larger than the block", "[ch02][exercise][ex01][gpu][hidden]") {
    // The halo on each side is wider than the block's 256 threads: each thread
    // must load more than one halo entry.
    const int radius = GENERATE(256, 300, ex01::kMaxRadius);
    const int n = GENERATE(3, 1000, 3000);
    CAPTURE(n, radius);
    const auto in = whole_numbers(static_cast<std::size_t>(n), 17u + static_cast<unsigned>(n));
    const guarded_run r = run_guarded(in, radius);
    CHECK(first_difference(r.out, clamped_reference(in, radius)) == "");
    CHECK(r.guard_writes == 0);
}

TEST_CASE("radius 0 copies the input", "[ch02][exercise][ex01][gpu][hidden]") {
    const auto in = whole_numbers(1000, 23u);
    const auto out = ex01::stencil_on_gpu(in, 0);
    CHECK(out == in);
}

TEST_CASE("a large array with signed values", "[ch02][exercise][ex01][gpu][hidden]") {
    const int n = (1 << 22) + 3;
    const auto in = whole_numbers(static_cast<std::size_t>(n), 29u, -1000, 1000);
    CHECK(first_difference(ex01::stencil_on_gpu(in, 5), clamped_reference(in, 5)) == "");
    const auto small = whole_numbers(777, 31u, -1000, 1000);
    const guarded_run r = run_guarded(small, 40);
    CHECK(first_difference(r.out, clamped_reference(small, 40)) == "");
    CHECK(r.guard_writes == 0);
}

TEST_CASE("a radius outside [0, kMaxRadius] is refused", "[ch02][exercise][ex01][gpu][hidden]") {
    const std::vector<float> in(10, 1.0f);
    CHECK_THROWS_AS(ex01::stencil_on_gpu(in, -1), std::invalid_argument);
    CHECK_THROWS_AS(ex01::stencil_on_gpu(in, ex01::kMaxRadius + 1), std::invalid_argument);
}
