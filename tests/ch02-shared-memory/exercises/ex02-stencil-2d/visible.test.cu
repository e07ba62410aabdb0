// Exercise 2.2, the 5-point stencil with a tile and halo
// (exercises/ch02-shared-memory/ex02-stencil-2d): stencil5_tiled against a CPU
// reference. A GPU test: its main (the book's GPU Catch2 main, catch_gpu_main.cpp) exits
// 77, "skipped", where no GPU is.
// The visible test set: shipped to students. The same tests are built against the
// starter (they must fail) and the solution (they must pass).
// The inputs, the reference, the comparison and the guarded launch are in
// stencil_check.cuh, which the hidden set uses too.
#include <catch2/catch.hpp>

#include <utility>
#include <vector>

#include "stencil_2d.cuh"
#include "stencil_check.cuh"

using namespace ex02_check;

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
    CHECK(kernel_shared_bytes() >= sizeof(float) * (ex02::kTileX + 2) * (ex02::kTileY + 2));
}

TEST_CASE("an empty grid gives no outputs", "[ch02][exercise][ex02][gpu]") {
    CHECK(ex02::stencil5_on_gpu({}, 0, 5).empty());
    CHECK(ex02::stencil5_on_gpu({}, 5, 0).empty());
}
