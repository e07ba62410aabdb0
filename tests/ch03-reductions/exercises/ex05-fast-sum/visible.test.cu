// Exercise 3.5, a sum at the speed of memory (exercises/ch03-reductions/ex05-fast-sum):
// sum() against the exact sum. A GPU test: its main exits 77, "skipped", where no GPU
// is. The visible test set: shipped to students. Its speed is graded by tools/grade
// (the bridge's timed harness), not here.
#include <catch2/catch.hpp>

#include <cstddef>
#include <vector>

#include "fast_sum.cuh"
#include "sum_check.cuh"

TEST_CASE("ch03ex5: the sum of every size from 0 to 2^24 + 7 values is exact", "[ch03ex5]") {
    for (std::size_t n :
         {std::size_t{0}, std::size_t{1}, std::size_t{31}, std::size_t{257}, std::size_t{1000},
          std::size_t{65537}, (std::size_t{1} << 20) + 3, (std::size_t{1} << 24) + 7}) {
        double exact = 0.0;
        const auto x = ch03ex5test::whole_values(n, static_cast<unsigned>(n) + 5u, exact);
        INFO("n = " << n);
        CHECK(ch03ex5test::sum_of(x, 0) == static_cast<float>(exact));
    }
}

TEST_CASE("ch03ex5: an array that starts at any 4-byte address", "[ch03ex5]") {
    for (std::size_t offset : {1, 2, 3, 5}) {
        double exact = 0.0;
        const auto x = ch03ex5test::whole_values((std::size_t{1} << 18) + offset, 77u, exact);
        INFO("offset = " << offset);
        CHECK(ch03ex5test::sum_of(x, offset) == static_cast<float>(exact));
    }
}

TEST_CASE("ch03ex5: sums in a row do not depend on each other", "[ch03ex5]") {
    for (unsigned seed = 1; seed <= 3; ++seed) {
        double exact = 0.0;
        const auto x = ch03ex5test::whole_values(300000, seed, exact);
        CHECK(ch03ex5test::sum_of(x, 0) == static_cast<float>(exact));
    }
}
