// Exercise 2.3's bridge (tools/grader/judge/grade_bridge.hpp): the functions of
// banks.hpp, called in the worker, from the judge.
#include "banks.hpp"
#include "grade_bridge.hpp"

#ifdef BOOK_GRADE_WORKER
BOOK_GRADE_EXPORTS(e) {
    e.add("bank_of", &ex03::bank_of);
    e.add("conflict_ways", &ex03::conflict_ways);
    e.add("column_read_ways", &ex03::column_read_ways);
    e.add("conflict_free_pitch", &ex03::conflict_free_pitch);
}
#else
using book::grade::call;
int ex03::bank_of(std::uint64_t address) { return call<int>("bank_of", address); }
int ex03::conflict_ways(const std::vector<std::uint64_t>& addresses) {
    return call<int>("conflict_ways", addresses);
}
int ex03::column_read_ways(int pitch, int column) {
    return call<int>("column_read_ways", pitch, column);
}
int ex03::conflict_free_pitch(int width) { return call<int>("conflict_free_pitch", width); }
#endif
