// The geometry of chapter 2's stencil kernels (code/ch02-shared-memory/stencil_plan.hpp),
// the same functions the kernels call: grid sizes, halo widths, which blocks
// may skip bounds checks, which threads load which halo chunk.
#include <catch2/catch.hpp>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "stencil_plan.hpp"

TEST_CASE("the vector halo is R rounded up to whole float4s", "[ch02][stencil-plan]") {
    CHECK(ch02::halo_pad(0) == 0);
    CHECK(ch02::halo_pad(1) == 4);
    CHECK(ch02::halo_pad(3) == 4);
    CHECK(ch02::halo_pad(4) == 4);
    CHECK(ch02::halo_pad(5) == 8);
    CHECK(ch02::halo_pad(33) == 36);
    CHECK(ch02::halo_pad(100) == 100);
    CHECK(ch02::halo_pad(128) == 128);
    for (int r = 0; r <= 256; ++r) {
        const int p = ch02::halo_pad(r);
        INFO("R = " << r);
        CHECK(p % 4 == 0);
        CHECK(p >= r);
        CHECK(p - r < 4);
    }
}

TEST_CASE("blocks_for covers n outputs, and none for n = 0", "[ch02][stencil-plan]") {
    CHECK(ch02::blocks_for(0, 256) == 0);
    CHECK(ch02::blocks_for(1, 256) == 1);
    CHECK(ch02::blocks_for(255, 256) == 1);
    CHECK(ch02::blocks_for(256, 256) == 1);
    CHECK(ch02::blocks_for(257, 256) == 2);
    CHECK(ch02::blocks_for(1LL << 28, 4096) == 65536);
    CHECK(ch02::blocks_for((1LL << 28) + 1, 4096) == 65537);
    CHECK_THROWS_AS(ch02::blocks_for(-1, 256), std::invalid_argument);
    CHECK_THROWS_AS(ch02::blocks_for(10, 0), std::invalid_argument);
    CHECK_THROWS_AS(ch02::blocks_for(1LL << 40, 1), std::overflow_error);
    CHECK(ch02::blocks_for((1LL << 31) - 1, 1) == (1LL << 31) - 1);  // the largest grid
}

TEST_CASE("outputs per block and the tile's size", "[ch02][stencil-plan]") {
    CHECK(ch02::outputs_per_block(256, 1) == 256);
    CHECK(ch02::outputs_per_block(256, 16) == 4096);
    CHECK(ch02::block_start(3, 4096) == 12288);
    // tiled: blockDim + 2R floats; tiled_vec: 4V x blockDim + 2 halo_pad(R).
    CHECK(ch02::tile_floats(256, 3) == 262);
    CHECK(ch02::tile_floats(ch02::outputs_per_block(256, 16), ch02::halo_pad(3)) == 4104);
    // The largest tile the programs launch (1024 threads x 32 outputs, R = 3)
    // fits in the 227 KiB a block may opt in to.
    CHECK(ch02::tile_floats(ch02::outputs_per_block(1024, 32), ch02::halo_pad(3)) * 4 <=
          227 * 1024);
}

TEST_CASE("a block is interior when its whole window lies in the array", "[ch02][stencil-plan]") {
    const long long per = 4096;
    const int pad = 4;
    const long long n = 10 * per;
    CHECK_FALSE(ch02::block_is_interior(0, per, pad, n));  // reads in[-4 .. -1]
    CHECK(ch02::block_is_interior(per, per, pad, n));
    CHECK(ch02::block_is_interior(8 * per, per, pad, n));
    CHECK_FALSE(ch02::block_is_interior(9 * per, per, pad, n));  // reads in[n .. n+3]
    CHECK(ch02::block_is_interior(0, per, 0, n));                // no halo: nothing outside
    CHECK_FALSE(ch02::block_is_interior(0, per, 0, per - 1));    // the block runs past n
}

TEST_CASE("interior_blocks in closed form agrees with asking every block", "[ch02][stencil-plan]") {
    for (long long per : {4LL, 16LL, 96LL, 256LL, 1024LL, 4096LL})
        for (int pad : {0, 4, 8, 36, 100, 128, 512})
            for (long long n : {0LL, 1LL, 3LL, 4LL, 100LL, 255LL, 256LL, 257LL, 1000LL, 4096LL,
                                4104LL, 8192LL, 12293LL, 100003LL}) {
                const long long blocks = ch02::blocks_for(n, per);
                long long interior = 0;
                for (long long b = 0; b < blocks; ++b)
                    interior +=
                        ch02::block_is_interior(ch02::block_start(b, per), per, pad, n) ? 1 : 0;
                INFO("n = " << n << ", per block = " << per << ", pad = " << pad);
                CHECK(ch02::interior_blocks(n, per, pad) == interior);
                CHECK(ch02::edge_blocks(n, per, pad) == blocks - interior);
            }
}

TEST_CASE("on the benchmark's array only the first and last blocks check bounds",
          "[ch02][stencil-plan]") {
    const long long n = 1LL << 28;
    for (int r : {1, 3, 33, 64, 128})
        for (long long per : {256LL, 1024LL, 4096LL, 8192LL}) {
            INFO("R = " << r << ", per block = " << per);
            CHECK(ch02::edge_blocks(n, per, ch02::halo_pad(r)) == 2);
        }
    // Arrays smaller than a block: every block is an edge block.
    CHECK(ch02::edge_blocks(1000, 4096, 4) == 1);
    CHECK(ch02::interior_blocks(0, 4096, 4) == 0);
}

TEST_CASE("the halo threads fill the tile's halo slots exactly once", "[ch02][stencil-plan]") {
    // Tile of P + chunks + P float4 slots; slot P + m holds the block's chunk m.
    for (int r : {1, 3, 4, 5, 33, 64, 100, 128})
        for (int chunks : {64, 96, 256, 1024, 4096}) {
            const int P = ch02::halo_pad(r) / 4;
            std::vector<int> filled(static_cast<std::size_t>(chunks + 2 * P), 0);
            for (int m = 0; m < chunks; ++m) ++filled[static_cast<std::size_t>(P + m)];
            for (int t = 0; t < 2 * P; ++t) {
                const int slot = ch02::halo_slot(t, P, chunks);
                const int chunk = ch02::halo_chunk(t, P, chunks);
                INFO("R = " << r << ", chunks = " << chunks << ", thread " << t);
                REQUIRE(slot >= 0);
                REQUIRE(slot < chunks + 2 * P);
                CHECK(slot == chunk + P);               // the slot of a chunk is always chunk + P
                CHECK((chunk < 0 || chunk >= chunks));  // halo chunks lie outside the block
                ++filled[static_cast<std::size_t>(slot)];
            }
            INFO("R = " << r << ", chunks = " << chunks);
            CHECK(std::count(filled.begin(), filled.end(), 1) == static_cast<long>(filled.size()));
        }
}
