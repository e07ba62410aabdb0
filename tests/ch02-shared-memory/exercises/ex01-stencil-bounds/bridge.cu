// Exercise 2.1's bridge (tools/grader/judge/grade_bridge.hpp): stencil_on_gpu, and
// the launch of stencil_clamped between guard zones that run_guarded makes
// (stencil_check.cuh), called in the worker (which owns the GPU) from the judge
// (which needs none). The judge counts the changed guard words itself, from the
// whole output allocation the worker sends back.
#include "book/device.hpp"
#include "grade_bridge.hpp"
#include "stencil_bounds.cuh"
#include "stencil_check.cuh"

#include <vector>

using Floats = book::grade::packed<float>;

#ifdef BOOK_GRADE_WORKER
// The launch itself, here in the worker (and in the programs that link the
// student's code with the tests directly, which link this side too).
std::vector<float> ex01_check::launch_between_guards(const std::vector<float>& host, int radius) {
    return launch_between_guards_here(host, radius);
}

BOOK_GRADE_EXPORTS(e) {
    book::use_allocated_gpu();  // the GPU CTest allocated, where it did
    e.add("stencil_on_gpu",
          [](Floats in, int radius) { return Floats{ex01::stencil_on_gpu(in.values, radius)}; });
    e.add("launch_between_guards", [](Floats host, int radius) {
        return Floats{ex01_check::launch_between_guards(host.values, radius)};
    });
}
#else
std::vector<float> ex01::stencil_on_gpu(const std::vector<float>& in, int radius) {
    return book::grade::call<Floats>("stencil_on_gpu", Floats{in}, radius).values;
}
std::vector<float> ex01_check::launch_between_guards(const std::vector<float>& host, int radius) {
    return book::grade::call<Floats>("launch_between_guards", Floats{host}, radius).values;
}
#endif
