// Exercise 1.3, the warp vote: the hidden test set (tools/grade runs it; the
// student bundle and the reader's edition leave it out). Edge cases the visible
// set does not name: a value equal to the threshold is not above it, and the
// extreme values of int.
#include <catch2/catch.hpp>

#include <climits>
#include <cstddef>
#include <random>
#include <vector>

#include "vote_check.cuh"
#include "warp_vote.cuh"

TEST_CASE("a value equal to the threshold is not above it", "[ch01][exercise][ex03][gpu][hidden]") {
    const std::vector<int> sevens(64, 7);
    CHECK(ex03::count_on_gpu(sevens, 7) == std::vector<unsigned>{0, 0});
    CHECK(ex03::count_on_gpu(sevens, 6) == std::vector<unsigned>{32, 32});
}

TEST_CASE("the extreme values of int", "[ch01][exercise][ex03][gpu][hidden]") {
    // 100 elements: INT_MAX where i % 3 == 0, INT_MIN elsewhere.
    std::vector<int> data(100);
    std::vector<unsigned> want(ex03::warps_for(data.size()), 0u);
    for (std::size_t i = 0; i < data.size(); ++i) {
        data[i] = i % 3 == 0 ? INT_MAX : INT_MIN;
        if (i % 3 == 0) ++want[i / 32];
    }
    CHECK(ex03::count_on_gpu(data, 0) == want);
    CHECK(ex03::count_on_gpu(data, INT_MAX - 1) == want);
    CHECK(ex03::count_on_gpu(data, INT_MAX) == std::vector<unsigned>(want.size(), 0u));
}

TEST_CASE("count_matching itself, on more sizes and launches",
          "[ch01][exercise][ex03][gpu][hidden]") {
    // Block sizes, grids with warps to spare, sizes and thresholds drawn each run
    // (--rng-seed): the counts must come from the kernel, on the device.
    std::mt19937 gen(Catch::rngSeed() + 79u);
    for (int k = 0; k < 12; ++k) {
        const std::size_t n = k == 0 ? 0 : gen() % 20000;
        const int threads = 32 * static_cast<int>(1 + gen() % 32);
        const std::size_t lanes = ex03::warps_for(n) * 32;
        const int blocks = static_cast<int>((lanes + static_cast<std::size_t>(threads) - 1) /
                                            static_cast<std::size_t>(threads)) +
                           static_cast<int>(gen() % 3) + (n == 0 ? 1 : 0);
        std::vector<int> data(n);
        for (int& v : data) v = static_cast<int>(gen() % 2001) - 1000;
        const int threshold = static_cast<int>(gen() % 2001) - 1000;
        CAPTURE(n, threads, blocks, threshold);
        const auto got = ex03_check::launch_count(data, threshold, threads, blocks);
        const auto want = ex03_check::expected_launch(data, threshold, threads, blocks);
        REQUIRE(got.size() == want.size());
        std::size_t first = got.size();
        for (std::size_t w = 0; w < got.size() && first == got.size(); ++w)
            if (got[w] != want[w]) first = w;
        CAPTURE(first);
        CHECK(first == got.size());  // the first warp whose word differs, if any
    }
}
