// Exercise 4.3's bridge (tools/grader/judge/grade_bridge.hpp): the tests' driver
// of the student's kernel (read_check.cuh), run in the worker, which owns the
// GPU, and called from the judge, which needs none.
#include "book/device.hpp"
#include "grade_bridge.hpp"
#include "read_check.cuh"
#include "read_sum.cuh"

#include <vector>

#ifdef BOOK_GRADE_WORKER
// The launch of the student's kernel by the tests' driver, here in the worker
// (and in the programs that link the student's code with the tests directly).
std::vector<double> ch04ex3test::launch_read(std::size_t vectors, int blocks_per_sm, int timed,
                                             unsigned offset) {
    return launch_read_here(vectors, blocks_per_sm, timed, offset);
}

BOOK_GRADE_EXPORTS(e) {
    book::use_allocated_gpu();  // the GPU CTest allocated, where it did
    e.add("launch_read", [](std::size_t vectors, int blocks_per_sm, int timed, unsigned offset) {
        return ch04ex3test::launch_read(vectors, blocks_per_sm, timed, offset);
    });
}
#else
std::vector<double> ch04ex3test::launch_read(std::size_t vectors, int blocks_per_sm, int timed,
                                             unsigned offset) {
    return book::grade::call<std::vector<double>>("launch_read", vectors, blocks_per_sm, timed,
                                                  offset);
}
#endif
