// Exercise 2.2's bridge (tools/grader/judge/grade_bridge.hpp): stencil5_on_gpu, the
// launch of stencil5_tiled between guard zones that run_guarded makes, and the
// kernel's shared memory as the CUDA runtime reports it (stencil_check.cuh),
// called in the worker (which owns the GPU) from the judge (which needs none).
// The judge counts the changed guard words itself, from the whole output
// allocation the worker sends back.
#include "book/device.hpp"
#include "grade_bridge.hpp"
#include "stencil_2d.cuh"
#include "stencil_check.cuh"

#include <cstddef>
#include <vector>

using Floats = book::grade::packed<float>;

#ifdef BOOK_GRADE_WORKER
// The two, here in the worker (and in the programs that link the student's
// code with the tests directly, which link this side too).
std::vector<float> ex02_check::launch_between_guards(const std::vector<float>& host, int width,
                                                     int height) {
    return launch_between_guards_here(host, width, height);
}
std::size_t ex02_check::kernel_shared_bytes() { return kernel_shared_bytes_here(); }

BOOK_GRADE_EXPORTS(e) {
    book::use_allocated_gpu();  // the GPU CTest allocated, where it did
    e.add("stencil5_on_gpu", [](Floats in, int width, int height) {
        return Floats{ex02::stencil5_on_gpu(in.values, width, height)};
    });
    e.add("launch_between_guards", [](Floats host, int width, int height) {
        return Floats{ex02_check::launch_between_guards(host.values, width, height)};
    });
    e.add("kernel_shared_bytes", [] { return ex02_check::kernel_shared_bytes(); });
}
#else
std::vector<float> ex02::stencil5_on_gpu(const std::vector<float>& in, int width, int height) {
    return book::grade::call<Floats>("stencil5_on_gpu", Floats{in}, width, height).values;
}
std::vector<float> ex02_check::launch_between_guards(const std::vector<float>& host, int width,
                                                     int height) {
    return book::grade::call<Floats>("launch_between_guards", Floats{host}, width, height).values;
}
std::size_t ex02_check::kernel_shared_bytes() {
    return book::grade::call<std::size_t>("kernel_shared_bytes");
}
#endif
