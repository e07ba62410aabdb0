// Exercise 1.3's bridge (tools/grader/judge/grade_bridge.hpp): count_on_gpu, and
// the launch of count_matching by the tests' driver (vote_check.cuh), called in the
// worker (which owns the GPU), from the judge (which needs none).
#include "book/device.hpp"
#include "grade_bridge.hpp"
#include "vote_check.cuh"
#include "warp_vote.cuh"

#include <vector>

using Ints = book::grade::packed<int>;
using Counts = book::grade::packed<unsigned>;

#ifdef BOOK_GRADE_WORKER
// The launch of the student's kernel by the tests' driver (vote_check.cuh), here in
// the worker (and in the programs that link the student's code with the tests
// directly, which link this side too).
std::vector<unsigned> ex03_check::launch_count(const std::vector<int>& data, int threshold,
                                               int threads, int blocks) {
    return launch_count_here(data, threshold, threads, blocks);
}

BOOK_GRADE_EXPORTS(e) {
    book::use_allocated_gpu();  // the GPU CTest allocated, where it did
    e.add("count_on_gpu", [](Ints data, int threshold) {
        return Counts{ex03::count_on_gpu(data.values, threshold)};
    });
    e.add("launch_count", [](Ints data, int threshold, int threads, int blocks) {
        return Counts{ex03_check::launch_count(data.values, threshold, threads, blocks)};
    });
}
#else
std::vector<unsigned> ex03::count_on_gpu(const std::vector<int>& data, int threshold) {
    return book::grade::call<Counts>("count_on_gpu", Ints{data}, threshold).values;
}
std::vector<unsigned> ex03_check::launch_count(const std::vector<int>& data, int threshold,
                                               int threads, int blocks) {
    return book::grade::call<Counts>("launch_count", Ints{data}, threshold, threads, blocks).values;
}
#endif
