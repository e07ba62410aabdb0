// Exercise 4.3, a quarter of the warps: the hidden test set (tools/grade runs it;
// the student bundle and the reader's edition leave it out). Sums at sizes and
// offsets drawn at grading time, and the tail of a grid-stride loop of every
// length. Its speed is graded by tools/grade (the bridge's timed harness).
#include <catch2/catch.hpp>

#include <cstddef>
#include <random>

#include "read_check.cuh"
#include "read_sum.cuh"

TEST_CASE("sums at sizes drawn now", "[ch04][exercise][ex03][gpu][hidden]") {
    std::mt19937 gen(Catch::rngSeed() + 29u);  // drawn each run (--rng-seed)
    for (int k = 0; k < 8; ++k) {
        const std::size_t vectors = gen() % 300000;
        const int blocks = 1 + static_cast<int>(gen() % 16);
        const unsigned offset = gen();
        CAPTURE(vectors, blocks, offset);
        const auto got = ch04ex3test::launch_read(vectors, blocks, 0, offset);
        REQUIRE(got.size() == 3);
        CHECK(got[0] == ch04ex3test::expected_sum(vectors, offset));
    }
    // Tails of many lengths after whole strides of a 4-block-per-SM grid (on a
    // GPU of 132 SMs, as the reference GPUs; a size like any other elsewhere).
    const auto stride = static_cast<std::size_t>(4 * 132 * ch04ex3::kThreads);
    for (std::size_t extra = 0; extra < 9; ++extra) {
        const std::size_t vectors = 3 * stride + extra * 37;
        CAPTURE(vectors);
        const auto got = ch04ex3test::launch_read(vectors, 4, 0, 3u);
        REQUIRE(got.size() == 3);
        CHECK(got[0] == ch04ex3test::expected_sum(vectors, 3u));
    }
}
