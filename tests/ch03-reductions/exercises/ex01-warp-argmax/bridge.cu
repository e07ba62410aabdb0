// Exercise 3.1's bridge (tools/grader/judge/grade_bridge.hpp): arg_max_on_gpu,
// called in the worker (which owns the GPU), from the judge (which needs none).
#include "argmax_check.cuh"
#include "book/device.hpp"
#include "grade_bridge.hpp"
#include "warp_argmax.cuh"

#include <vector>

using Floats = book::grade::packed<float>;
using Results = book::grade::packed<ch03ex1::value_index>;

#ifdef BOOK_GRADE_WORKER
// The launch of the student's kernel by the tests' driver (argmax_check.cuh), here
// in the worker (and in the programs that link the student's code with the tests
// directly, which link this side too).
std::vector<ch03ex1::value_index> ch03ex1test::launch_arg_max(const std::vector<float>& x,
                                                              int threads, int blocks) {
    return launch_arg_max_here(x, threads, blocks);
}

BOOK_GRADE_EXPORTS(e) {
    book::use_allocated_gpu();  // the GPU CTest allocated, where it did
    e.add("arg_max_on_gpu", [](Floats x) { return Results{ch03ex1::arg_max_on_gpu(x.values)}; });
    e.add("launch_arg_max", [](Floats x, int threads, int blocks) {
        return Results{ch03ex1test::launch_arg_max(x.values, threads, blocks)};
    });
}
#else
std::vector<ch03ex1::value_index> ch03ex1::arg_max_on_gpu(const std::vector<float>& x) {
    return book::grade::call<Results>("arg_max_on_gpu", Floats{x}).values;
}
std::vector<ch03ex1::value_index> ch03ex1test::launch_arg_max(const std::vector<float>& x,
                                                              int threads, int blocks) {
    return book::grade::call<Results>("launch_arg_max", Floats{x}, threads, blocks).values;
}
#endif
