// Exercise 4.2, the order of a pointer chase (exercises/ch04-latency/ex02-chase-cycle):
// one random cycle through every line. The visible test set: shipped to
// students. The same tests are built against the starter (they must fail) and
// the solution (they must pass).
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "chase_cycle.hpp"

namespace {

// Follows next from line 0 and counts the lines seen before the walk returns;
// every entry must be a line.
std::uint32_t lines_visited(const std::vector<std::uint32_t>& next) {
    std::vector<bool> seen(next.size(), false);
    std::uint32_t at = 0, count = 0;
    while (at < next.size() && !seen[at]) {
        seen[at] = true;
        ++count;
        at = next[at];
    }
    return count;
}

// Lines followed by their neighbour (i + 1), as a walk in order would be.
std::size_t in_order(const std::vector<std::uint32_t>& next) {
    std::size_t k = 0;
    for (std::size_t i = 0; i + 1 < next.size(); ++i) k += next[i] == i + 1;
    return k;
}

}  // namespace

TEST_CASE("one cycle through every line", "[ch04][exercise][ex02]") {
    const std::uint32_t n = GENERATE(2u, 3u, 17u, 1024u, 8192u);
    CAPTURE(n);
    const auto next = ch04ex2::random_cycle(n, Catch::rngSeed() + n);  // drawn each run
    REQUIRE(next.size() == n);
    CHECK(lines_visited(next) == n);
    for (std::uint32_t i = 0; i < n; ++i) CHECK(next[i] != i);
}

TEST_CASE("a random order, not the lines in turn", "[ch04][exercise][ex02]") {
    const std::uint32_t n = 8192;
    const auto a = ch04ex2::random_cycle(n, Catch::rngSeed() + 7u);
    // A random successor is the neighbour about once in n: allow a handful.
    CHECK(in_order(a) < 10);
    CHECK(a != ch04ex2::random_cycle(n, Catch::rngSeed() + 8u));  // another seed, another cycle
    CHECK(a == ch04ex2::random_cycle(n, Catch::rngSeed() + 7u));  // the same seed, the same one
}

TEST_CASE("the length of a cycle", "[ch04][exercise][ex02]") {
    // 0 -> 1 -> 2 -> 0 and 3 -> 4 -> 3 and 5 -> 5.
    const std::vector<std::uint32_t> next = {1, 2, 0, 4, 3, 5};
    CHECK(ch04ex2::cycle_length(next, 0) == 3);
    CHECK(ch04ex2::cycle_length(next, 2) == 3);
    CHECK(ch04ex2::cycle_length(next, 4) == 2);
    CHECK(ch04ex2::cycle_length(next, 5) == 1);
}
