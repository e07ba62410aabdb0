// Exercise 2.2, the 5-point stencil with a tile and halo: the hidden test set
// (tools/grade runs it; the student bundle and the reader's edition leave it
// out). Edge cases the visible set does not name: a single cell, a single row
// and a single column (the halo on two or four sides lies outside the grid),
// a grid one cell wider or taller than a whole number of tiles, a large grid,
// and sizes that are refused.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "book/cuda.hpp"
#include "stencil_2d.cuh"

namespace {

std::vector<float> whole_numbers(std::size_t n, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_int_distribution<int> value(-16, 16);
    std::vector<float> v(n);
    for (auto& x : v) x = static_cast<float>(value(gen));
    return v;
}

std::vector<double> reference(const std::vector<float>& in, int width, int height) {
    auto at = [&](long long x, long long y) -> double {
        return x >= 0 && x < width && y >= 0 && y < height
                   ? in[static_cast<std::size_t>(y * width + x)]
                   : 0.0;
    };
    std::vector<double> out(in.size());
    for (long long y = 0; y < height; ++y)
        for (long long x = 0; x < width; ++x)
            out[static_cast<std::size_t>(y * width + x)] =
                at(x, y) + at(x - 1, y) + at(x + 1, y) + at(x, y - 1) + at(x, y + 1);
    return out;
}

std::string first_difference(const std::vector<float>& got, const std::vector<double>& want,
                             int width) {
    if (got.size() != want.size())
        return "got " + std::to_string(got.size()) + " outputs, want " +
               std::to_string(want.size());
    for (std::size_t i = 0; i < got.size(); ++i)
        if (!(static_cast<double>(got[i]) == want[i]))
            return "cell (" + std::to_string(i % static_cast<std::size_t>(width)) + ", " +
                   std::to_string(i / static_cast<std::size_t>(width)) + "): got " +
                   std::to_string(got[i]) + ", want " + std::to_string(want[i]);
    return "";
}

constexpr std::size_t kGuard = 1 << 16;

struct guarded_run {
    std::vector<float> out;
    long long guard_writes;
};

// As in the visible set: both arrays between guard zones (NaN in the input's,
// a NaN bit pattern in the output's that must stay).
guarded_run run_guarded(const std::vector<float>& in, int width, int height) {
    const std::size_t n = in.size();
    std::vector<float> host(n + 2 * kGuard, std::numeric_limits<float>::quiet_NaN());
    std::copy(in.begin(), in.end(), host.begin() + kGuard);
    book::device_buffer<float> d_in(host.size()), d_out(host.size());
    d_in.from_host(host);
    BOOK_CUDA_CHECK(cudaMemset(d_out.data(), 0xFF, d_out.bytes()));
    const dim3 block(ex02::kTileX, ex02::kTileY);
    const dim3 grid((width + ex02::kTileX - 1) / ex02::kTileX,
                    (height + ex02::kTileY - 1) / ex02::kTileY);
    ex02::stencil5_tiled<<<grid, block>>>(d_in.data() + kGuard, d_out.data() + kGuard, width,
                                          height);
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

TEST_CASE("a single cell, a single row, a single column", "[ch02][exercise][ex02][gpu][hidden]") {
    const auto [width, height] = GENERATE(std::pair{1, 1}, std::pair{1000, 1}, std::pair{1, 1000},
                                          std::pair{2, 1}, std::pair{1, 9});
    CAPTURE(width, height);
    const auto in = whole_numbers(static_cast<std::size_t>(width) * height, 13u + width);
    const guarded_run r = run_guarded(in, width, height);
    CHECK(first_difference(r.out, reference(in, width, height), width) == "");
    CHECK(r.guard_writes == 0);
}

TEST_CASE("one cell past a whole number of tiles", "[ch02][exercise][ex02][gpu][hidden]") {
    // The last column (or row) of blocks holds one cell of the grid: all its
    // other threads lie outside and must still take part in the barrier.
    const auto [width, height] =
        GENERATE(std::pair{33, 8}, std::pair{32, 9}, std::pair{33, 9}, std::pair{129, 65});
    CAPTURE(width, height);
    const auto in = whole_numbers(static_cast<std::size_t>(width) * height, 19u + height);
    const guarded_run r = run_guarded(in, width, height);
    CHECK(first_difference(r.out, reference(in, width, height), width) == "");
    CHECK(r.guard_writes == 0);
}

TEST_CASE("a large grid with signed values", "[ch02][exercise][ex02][gpu][hidden]") {
    const int width = 2053, height = 1031;
    const auto in = whole_numbers(static_cast<std::size_t>(width) * height, 23u);
    CHECK(first_difference(ex02::stencil5_on_gpu(in, width, height), reference(in, width, height),
                           width) == "");
}

TEST_CASE("sizes that are no grid are refused", "[ch02][exercise][ex02][gpu][hidden]") {
    CHECK_THROWS_AS(ex02::stencil5_on_gpu({}, -1, 0), std::invalid_argument);
    CHECK_THROWS_AS(ex02::stencil5_on_gpu(std::vector<float>(6), 2, 2), std::invalid_argument);
}
