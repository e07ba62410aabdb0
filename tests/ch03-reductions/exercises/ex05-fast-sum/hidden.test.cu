// Exercise 3.5, the grader's hidden tests: sizes and alignments drawn from the
// grading's seed (Catch2's --rng-seed).
#include <catch2/catch.hpp>

#include <cstddef>
#include <random>
#include <vector>

#include "fast_sum.cuh"
#include "sum_check.cuh"

TEST_CASE("ch03ex5: sums of sizes and offsets drawn at grading time", "[ch03ex5][hidden]") {
    std::mt19937 gen(Catch::rngSeed());
    for (int k = 0; k < 12; ++k) {
        const std::size_t n = k < 2 ? static_cast<std::size_t>(k) : gen() % (std::size_t{1} << 22);
        const std::size_t offset = gen() % 8;
        double exact = 0.0;
        const auto x = ch03ex5test::whole_values(n, static_cast<unsigned>(gen()), exact);
        INFO("case " << k << ": n = " << n << ", offset = " << offset);
        CHECK(ch03ex5test::sum_of(x, offset) == static_cast<float>(exact));
    }
}
