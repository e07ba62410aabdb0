// Exercise 4.2's bridge (tools/grader/judge/grade_bridge.hpp): the functions of
// chase_cycle.hpp, called in the worker, from the judge. A cycle travels as its
// n successors (packed).
#include "chase_cycle.hpp"
#include "grade_bridge.hpp"

#include <vector>

using Lines = book::grade::packed<std::uint32_t>;

#ifdef BOOK_GRADE_WORKER
BOOK_GRADE_EXPORTS(e) {
    e.add("random_cycle", [](std::uint32_t n, std::uint64_t seed) {
        return Lines{ch04ex2::random_cycle(n, seed)};
    });
    e.add("cycle_length", [](Lines next, std::uint32_t start) {
        return ch04ex2::cycle_length(next.values, start);
    });
}
#else
using book::grade::call;
std::vector<std::uint32_t> ch04ex2::random_cycle(std::uint32_t n, std::uint64_t seed) {
    return call<Lines>("random_cycle", n, seed).values;
}
std::uint32_t ch04ex2::cycle_length(const std::vector<std::uint32_t>& next, std::uint32_t start) {
    return call<std::uint32_t>("cycle_length", Lines{next}, start);
}
#endif
