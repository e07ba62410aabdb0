// Exercise 3.2's bridge (tools/grader/judge/grade_bridge.hpp): sums_on_gpu and
// two_sums_on_gpu, called in the worker (which owns the GPU), from the judge
// (which needs none).
#include "block_sum_all.cuh"
#include "book/device.hpp"
#include "grade_bridge.hpp"
#include "sums_launch.cuh"

#include <vector>

using Floats = book::grade::packed<float>;

#ifdef BOOK_GRADE_WORKER
// The launch of the student's kernels by the tests' driver (sums_launch.cuh),
// here in the worker (and in the programs that link the student's code with the
// tests directly, which link this side too).
std::vector<float> ch03ex2test::launch_sums(const std::vector<float>& x, int threads, int blocks,
                                            int two) {
    return launch_sums_here(x, threads, blocks, two);
}

BOOK_GRADE_EXPORTS(e) {
    book::use_allocated_gpu();  // the GPU CTest allocated, where it did
    e.add("sums_on_gpu",
          [](Floats x, int threads) { return Floats{ch03ex2::sums_on_gpu(x.values, threads)}; });
    e.add("two_sums_on_gpu", [](Floats x, int threads) {
        std::vector<Floats> out;
        for (auto& v : ch03ex2::two_sums_on_gpu(x.values, threads)) out.push_back(Floats{v});
        return out;
    });
    e.add("launch_sums", [](Floats x, int threads, int blocks, int two) {
        return Floats{ch03ex2test::launch_sums(x.values, threads, blocks, two)};
    });
}
#else
std::vector<float> ch03ex2test::launch_sums(const std::vector<float>& x, int threads, int blocks,
                                            int two) {
    return book::grade::call<Floats>("launch_sums", Floats{x}, threads, blocks, two).values;
}
std::vector<float> ch03ex2::sums_on_gpu(const std::vector<float>& x, int threads) {
    return book::grade::call<Floats>("sums_on_gpu", Floats{x}, threads).values;
}
std::vector<std::vector<float>> ch03ex2::two_sums_on_gpu(const std::vector<float>& x, int threads) {
    std::vector<std::vector<float>> out;
    for (auto& v : book::grade::call<std::vector<Floats>>("two_sums_on_gpu", Floats{x}, threads))
        out.push_back(std::move(v.values));
    return out;
}
#endif
