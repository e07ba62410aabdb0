// Exercise 1.3's bridge (tools/grader/judge/grade_bridge.hpp): count_on_gpu, called
// in the worker (which owns the GPU), from the judge (which needs none).
#include "book/device.hpp"
#include "grade_bridge.hpp"
#include "warp_vote.cuh"

#include <vector>

using Ints = book::grade::packed<int>;
using Counts = book::grade::packed<unsigned>;

#ifdef BOOK_GRADE_WORKER
BOOK_GRADE_EXPORTS(e) {
    book::use_allocated_gpu();  // the GPU CTest allocated, where it did
    e.add("count_on_gpu", [](Ints data, int threshold) {
        return Counts{ex03::count_on_gpu(data.values, threshold)};
    });
}
#else
std::vector<unsigned> ex03::count_on_gpu(const std::vector<int>& data, int threshold) {
    return book::grade::call<Counts>("count_on_gpu", Ints{data}, threshold).values;
}
#endif
