// Exercise 2.2, the 5-point stencil with a tile and halo
// (exercises/ch02-shared-memory/ex02-stencil-2d): stencil5_tiled against a CPU
// reference. A GPU test: its main (tests/exercises/catch_gpu_main.cpp) exits
// 77, "skipped", where no GPU is.
// The visible test set: shipped to students. The same tests are built against the
// starter (they must fail) and the solution (they must pass).
//
// The inputs are whole numbers 1..16, so every float sum of five of them is
// exact in any order, and a kernel must match the reference exactly.
#include <catch2/catch.hpp>

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "book/cuda.hpp"
#include "stencil_2d.cuh"

namespace {

std::vector<float> whole_numbers(std::size_t n, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_int_distribution<int> value(1, 16);
    std::vector<float> v(n);
    for (auto& x : v) x = static_cast<float>(value(gen));
    return v;
}

// What stencil5_tiled promises: the cell and its four neighbours, 0 outside
// the grid, summed exactly.
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

// "" when the outputs agree, else the first cell that differs.
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

// Floats of guard before and after each array in run_guarded: more than a
// whole block's rows past either end.
constexpr std::size_t kGuard = 1 << 16;

struct guarded_run {
    std::vector<float> out;  // the width x height outputs
    long long guard_writes;  // words of the output's guard zones the kernel changed
};

// Launch stencil5_tiled as the header says, with both arrays inside larger
// allocations: the input's guard zones hold NaN, so a read outside the grid
// turns an output into NaN; the output's guard zones hold a NaN bit pattern
// that must still be there afterwards. (A read past the end of a row but
// inside the grid gives a wrong number instead, which the comparison finds.)
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

TEST_CASE("one tile, and nothing outside the grid is read or written",
          "[ch02][exercise][ex02][gpu]") {
    const auto [width, height] =
        GENERATE(std::pair{32, 8}, std::pair{33, 9}, std::pair{100, 37}, std::pair{31, 7});
    CAPTURE(width, height);
    const auto in = whole_numbers(static_cast<std::size_t>(width) * height, 5u + width);
    const guarded_run r = run_guarded(in, width, height);
    CHECK(first_difference(r.out, reference(in, width, height), width) == "");
    CHECK(r.guard_writes == 0);
}

TEST_CASE("cells on a block's border see the neighbouring blocks", "[ch02][exercise][ex02][gpu]") {
    // A 64 x 16 grid is 2 x 2 blocks; every cell holds 1. An inner cell sums to
    // 5, a cell on the grid's edge to 4, a corner to 3, also where the
    // neighbour lies in another block.
    const int width = 64, height = 16;
    const auto out = ex02::stencil5_on_gpu(std::vector<float>(width * height, 1.0f), width, height);
    REQUIRE(out.size() == static_cast<std::size_t>(width * height));
    auto at = [&](int x, int y) { return out[static_cast<std::size_t>(y * width + x)]; };
    CHECK(at(31, 3) == 5.0f);  // right border of block (0, 0)
    CHECK(at(32, 3) == 5.0f);  // left border of block (1, 0)
    CHECK(at(10, 7) == 5.0f);  // bottom border of block (0, 0)
    CHECK(at(10, 8) == 5.0f);  // top border of block (0, 1)
    CHECK(at(31, 7) == 5.0f);  // a block's corner: neighbours in two other blocks
    CHECK(at(0, 0) == 3.0f);
    CHECK(at(63, 15) == 3.0f);
    CHECK(at(40, 0) == 4.0f);
    CHECK(at(0, 9) == 4.0f);
}

TEST_CASE("grids that are not a multiple of the tile", "[ch02][exercise][ex02][gpu]") {
    const auto [width, height] =
        GENERATE(std::pair{257, 129}, std::pair{1000, 3}, std::pair{64, 17}, std::pair{65, 16});
    CAPTURE(width, height);
    const auto in = whole_numbers(static_cast<std::size_t>(width) * height, 9u + width);
    CHECK(first_difference(ex02::stencil5_on_gpu(in, width, height), reference(in, width, height),
                           width) == "");
}

TEST_CASE("the kernel keeps a tile with its halo in shared memory", "[ch02][exercise][ex02][gpu]") {
    cudaFuncAttributes attributes{};
    BOOK_CUDA_CHECK(cudaFuncGetAttributes(&attributes, ex02::stencil5_tiled));
    CHECK(attributes.sharedSizeBytes >= sizeof(float) * (ex02::kTileX + 2) * (ex02::kTileY + 2));
}

TEST_CASE("an empty grid gives no outputs", "[ch02][exercise][ex02][gpu]") {
    CHECK(ex02::stencil5_on_gpu({}, 0, 5).empty());
    CHECK(ex02::stencil5_on_gpu({}, 5, 0).empty());
}
