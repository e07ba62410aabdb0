// Exercise 3.1's bridge (tools/grader/judge/grade_bridge.hpp): arg_max_on_gpu,
// called in the worker (which owns the GPU), from the judge (which needs none).
#include "book/device.hpp"
#include "grade_bridge.hpp"
#include "warp_argmax.cuh"

#include <vector>

using Floats = book::grade::packed<float>;
using Results = book::grade::packed<ch03ex1::value_index>;

#ifdef BOOK_GRADE_WORKER
BOOK_GRADE_EXPORTS(e) {
    book::use_allocated_gpu();  // the GPU CTest allocated, where it did
    e.add("arg_max_on_gpu", [](Floats x) { return Results{ch03ex1::arg_max_on_gpu(x.values)}; });
}
#else
std::vector<ch03ex1::value_index> ch03ex1::arg_max_on_gpu(const std::vector<float>& x) {
    return book::grade::call<Results>("arg_max_on_gpu", Floats{x}).values;
}
#endif
