// Exercise 4.3, a quarter of the warps (exercises/ch04-latency/ex03-fewer-warps):
// read_sum's sums against the exact ones. A GPU test: its main (the book's GPU
// Catch2 main, catch_gpu_main.cpp) exits 77, "skipped", where no GPU is. The
// visible test set: shipped to students. Its speed with a quarter of the warps is
// graded by tools/grade (the bridge's timed harness), not here.
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
