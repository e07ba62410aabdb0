// Exercise 2.5, the grader's hidden tests: sizes drawn from the grading's seed
// (Catch2's --rng-seed).
#include <catch2/catch.hpp>

#include <cstddef>
#include <random>

#include "fast_stencil.cuh"
#include "stencil_check.cuh"

TEST_CASE("ch02ex5: stencils of sizes drawn at grading time", "[ch02ex5][hidden]") {
    std::mt19937 gen(Catch::rngSeed());
    for (int k = 0; k < 12; ++k) {
        const std::size_t n =
            k < 4 ? static_cast<std::size_t>(k + 4) : gen() % (std::size_t{1} << 21);
        const auto in = ch02ex5test::whole_values(n, static_cast<unsigned>(gen()));
        INFO("case " << k << ": n = " << n);
        CHECK(ch02ex5test::check(in, ch02ex5test::stencil_of(in)) == "");
    }
}
