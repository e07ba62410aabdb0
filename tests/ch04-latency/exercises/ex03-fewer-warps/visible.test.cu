// Exercise 4.3, a quarter of the warps (exercises/ch04-latency/ex03-fewer-warps):
// read_sum's sums against the exact ones, and its bandwidth with 16 warps per SM
// against its own with 64. A GPU test: its main (the book's GPU Catch2 main,
// catch_gpu_main.cpp) exits 77, "skipped", where no GPU is. The visible test
// set: shipped to students. The same tests are built against the starter (they
// must fail) and the solution (they must pass).
#include <catch2/catch.hpp>

#include <cstddef>

#include "read_check.cuh"
#include "read_sum.cuh"

TEST_CASE("every word added once", "[ch04][exercise][ex03][gpu]") {
    const std::size_t vectors = GENERATE(std::size_t{0}, std::size_t{1}, std::size_t{127},
                                         std::size_t{100003}, std::size_t{1} << 20);
    const int blocks = GENERATE(1, 4, 16);
    CAPTURE(vectors, blocks);
    const auto got = ch04ex3test::launch_read(vectors, blocks, 0, 7u);
    REQUIRE(got.size() == 3);
    CHECK(got[0] == ch04ex3test::expected_sum(vectors, 7u));
}

TEST_CASE("a quarter of the warps reaches 90% of the bandwidth of all of them",
          "[ch04][exercise][ex03][gpu]") {
    const std::size_t vectors = std::size_t{1} << 24;  // 256 MiB, well past any L2
    const auto full = ch04ex3test::launch_read(vectors, 16, 15, 1u);
    const auto quarter = ch04ex3test::launch_read(vectors, 4, 15, 1u);
    REQUIRE(full.size() == 3);
    REQUIRE(quarter.size() == 3);
    CHECK(full[1] == ch04ex3test::expected_sum(vectors, 1u));
    CHECK(quarter[1] == ch04ex3test::expected_sum(vectors, 1u));
    CAPTURE(full[2], quarter[2]);  // median ms
    CHECK(full[2] > 0);
    CHECK(full[2] / quarter[2] >= 0.9);
}
