// Exercise 2.1, the stencil at the ends of the array
// (exercises/ch02-shared-memory/ex01-stencil-bounds): stencil_clamped against a
// CPU reference. A GPU test: its main (tests/exercises/catch_gpu_main.cpp) exits
// 77, "skipped", where no GPU is.
// The visible test set: shipped to students. The same tests are built against the
// starter (they must fail) and the solution (they must pass).
//
// The inputs are whole numbers 1..16, so every float sum of up to 2 * 1024 + 1
// of them is exact in any order, and a kernel must match the reference exactly.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "book/cuda.hpp"
#include "stencil_bounds.cuh"

namespace {

std::vector<float> whole_numbers(std::size_t n, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_int_distribution<int> value(1, 16);
    std::vector<float> v(n);
    for (auto& x : v) x = static_cast<float>(value(gen));
    return v;
}

// What stencil_clamped promises: the 2R + 1 inputs around i, each index
// clamped into [0, n - 1], summed exactly.
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

// "" when the outputs agree, else the first output that differs.
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

// Floats of guard before and after each array in run_guarded: more than any
// index the starter's kernel can reach outside the array.
constexpr std::size_t kGuard = 4096;

struct guarded_run {
    std::vector<float> out;  // the n outputs
    long long guard_writes;  // words of the output's guard zones the kernel changed
};

// Launch stencil_clamped as the header says, with both arrays inside larger
// allocations: the input's guard zones hold NaN, so a read outside [0, n) turns
// an output into NaN; the output's guard zones hold a NaN bit pattern that must
// still be there afterwards.
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

TEST_CASE("nothing outside the array is read or written", "[ch02][exercise][ex01][gpu]") {
    const int n = GENERATE(1, 5, 256, 1000, 1024);
    const int radius = GENERATE(1, 3, 8);
    CAPTURE(n, radius);
    const auto in = whole_numbers(static_cast<std::size_t>(n), 7u + static_cast<unsigned>(n));
    const guarded_run r = run_guarded(in, radius);
    CHECK(first_difference(r.out, clamped_reference(in, radius)) == "");
    CHECK(r.guard_writes == 0);
}

TEST_CASE("sizes that are not a multiple of the block", "[ch02][exercise][ex01][gpu]") {
    const int n = GENERATE(255, 257, 1000, 4097, 100003);
    const int radius = GENERATE(1, 3, 16);
    CAPTURE(n, radius);
    const auto in = whole_numbers(static_cast<std::size_t>(n), 11u + static_cast<unsigned>(n));
    CHECK(first_difference(ex01::stencil_on_gpu(in, radius), clamped_reference(in, radius)) == "");
}

TEST_CASE("arrays shorter than the window", "[ch02][exercise][ex01][gpu]") {
    // n <= 2R: every window runs past both ends; with n = 1 each output is
    // (2R + 1) * in[0].
    const int n = GENERATE(1, 2, 3, 7);
    const int radius = GENERATE(3, 8);
    CAPTURE(n, radius);
    const auto in = whole_numbers(static_cast<std::size_t>(n), 3u + static_cast<unsigned>(n));
    CHECK(first_difference(ex01::stencil_on_gpu(in, radius), clamped_reference(in, radius)) == "");
    const guarded_run r = run_guarded(in, radius);
    CHECK(first_difference(r.out, clamped_reference(in, radius)) == "");
    CHECK(r.guard_writes == 0);
}

TEST_CASE("the ends repeat the edge values", "[ch02][exercise][ex01][gpu]") {
    // in = 1, 2, ..., 10 with R = 3: out[0] = 1 + 1 + 1 + 1 + 2 + 3 + 4 = 13 and
    // out[9] = 7 + 8 + 9 + 10 + 10 + 10 + 10 = 64.
    std::vector<float> in(10);
    for (int i = 0; i < 10; ++i) in[static_cast<std::size_t>(i)] = static_cast<float>(i + 1);
    const auto out = ex01::stencil_on_gpu(in, 3);
    REQUIRE(out.size() == 10);
    CHECK(out[0] == 13.0f);
    CHECK(out[1] == 1.0f + 1.0f + 1.0f + 2.0f + 3.0f + 4.0f + 5.0f);
    CHECK(out[5] == 3.0f + 4.0f + 5.0f + 6.0f + 7.0f + 8.0f + 9.0f);
    CHECK(out[9] == 64.0f);
}

TEST_CASE("a radius wider than a warp", "[ch02][exercise][ex01][gpu]") {
    const int n = GENERATE(1000, 5000);
    const int radius = GENERATE(33, 100);
    CAPTURE(n, radius);
    const auto in = whole_numbers(static_cast<std::size_t>(n), 5u + static_cast<unsigned>(n));
    const guarded_run r = run_guarded(in, radius);
    CHECK(first_difference(r.out, clamped_reference(in, radius)) == "");
    CHECK(r.guard_writes == 0);
}

TEST_CASE("an empty array gives no outputs", "[ch02][exercise][ex01][gpu]") {
    CHECK(ex01::stencil_on_gpu({}, 3).empty());
}
