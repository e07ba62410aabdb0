// Exercise 4.2, the order of a pointer chase: the hidden test set (tools/grade
// runs it; the student bundle and the reader's edition leave it out). The edge
// sizes, a walk from any line, and cycle lengths of permutations drawn at
// grading time.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "chase_cycle.hpp"

TEST_CASE("no lines, one line", "[ch04][exercise][ex02][hidden]") {
    CHECK(ch04ex2::random_cycle(0, 5).empty());
    CHECK(ch04ex2::random_cycle(1, 5) == std::vector<std::uint32_t>{0});
    CHECK(ch04ex2::random_cycle(2, 5) == std::vector<std::uint32_t>{1, 0});
}

TEST_CASE("every line lies on the one cycle", "[ch04][exercise][ex02][hidden]") {
    std::mt19937 gen(Catch::rngSeed() + 19u);  // drawn each run (--rng-seed)
    const std::uint32_t n = 500 + gen() % 3000;
    CAPTURE(n);
    const auto next = ch04ex2::random_cycle(n, gen());
    REQUIRE(next.size() == n);
    // A permutation: every line is some line's successor, once.
    std::vector<std::uint32_t> sorted = next;
    std::sort(sorted.begin(), sorted.end());
    std::vector<std::uint32_t> all(n);
    std::iota(all.begin(), all.end(), 0u);
    CHECK(sorted == all);
    for (int k = 0; k < 5; ++k) CHECK(ch04ex2::cycle_length(next, gen() % n) == n);
}

TEST_CASE("cycle lengths of permutations drawn now", "[ch04][exercise][ex02][hidden]") {
    std::mt19937 gen(Catch::rngSeed() + 23u);
    for (int t = 0; t < 10; ++t) {
        std::vector<std::uint32_t> next(1 + gen() % 200);
        std::iota(next.begin(), next.end(), 0u);
        std::shuffle(next.begin(), next.end(), gen);
        const auto start = static_cast<std::uint32_t>(gen() % next.size());
        std::uint32_t steps = 1;
        for (std::uint32_t at = next[start]; at != start; at = next[at]) ++steps;
        CAPTURE(next.size(), start);
        CHECK(ch04ex2::cycle_length(next, start) == steps);
    }
}
