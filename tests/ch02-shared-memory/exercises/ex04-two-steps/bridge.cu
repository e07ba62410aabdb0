// Exercise 2.4's bridge (tools/grader/judge/grade_bridge.hpp): two_steps_on_gpu, and
// the launch of two_steps between guard zones that run_guarded makes
// (two_steps_check.cuh), called in the worker (which owns the GPU) from the judge
// (which needs none). The judge counts the changed guard words itself, from the
// whole output allocation the worker sends back.
#include "book/device.hpp"
#include "grade_bridge.hpp"
#include "two_steps.cuh"
#include "two_steps_check.cuh"

#include <vector>

using Floats = book::grade::packed<float>;

#ifdef BOOK_GRADE_WORKER
// The launch itself, here in the worker (and in the programs that link the
// student's code with the tests directly, which link this side too).
std::vector<float> ex04_check::launch_between_guards(const std::vector<float>& host) {
    return launch_between_guards_here(host);
}

BOOK_GRADE_EXPORTS(e) {
    book::use_allocated_gpu();  // the GPU CTest allocated, where it did
    e.add("two_steps_on_gpu", [](Floats in) { return Floats{ex04::two_steps_on_gpu(in.values)}; });
    e.add("launch_between_guards",
          [](Floats host) { return Floats{ex04_check::launch_between_guards(host.values)}; });
}
#else
std::vector<float> ex04::two_steps_on_gpu(const std::vector<float>& in) {
    return book::grade::call<Floats>("two_steps_on_gpu", Floats{in}).values;
}
std::vector<float> ex04_check::launch_between_guards(const std::vector<float>& host) {
    return book::grade::call<Floats>("launch_between_guards", Floats{host}).values;
}
#endif
