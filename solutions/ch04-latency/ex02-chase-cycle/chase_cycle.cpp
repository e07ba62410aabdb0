// Chapter 4, exercise 2: a solution (a shuffled order, linked into a ring).
#include "chase_cycle.hpp"

#include <random>
#include <utility>

namespace ch04ex2 {

Next random_cycle(std::uint32_t n, std::uint64_t seed) {
    // A random order of the lines (Fisher-Yates), in which each line is
    // followed by the next and the last by the first: one cycle, by construction.
    std::vector<std::uint32_t> order(n);
    for (std::uint32_t i = 0; i < n; ++i) order[i] = i;
    std::mt19937_64 gen(seed);
    for (std::uint32_t i = n; i > 1; --i) {
        std::uniform_int_distribution<std::uint32_t> pick(0, i - 1);
        std::swap(order[i - 1], order[pick(gen)]);
    }
    Next next(n);
    for (std::uint32_t k = 0; k < n; ++k) next[order[k]] = order[k + 1 < n ? k + 1 : 0];
    return next;
}

std::uint32_t cycle_length(const Next& next, std::uint32_t start) {
    std::uint32_t steps = 1;
    for (std::uint32_t at = next[start]; at != start; at = next[at]) ++steps;
    return steps;
}

}  // namespace ch04ex2
