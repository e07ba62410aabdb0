// Exercise 3.2's bridge (tools/grader/judge/grade_bridge.hpp): sums_on_gpu and
// two_sums_on_gpu, called in the worker (which owns the GPU), from the judge
// (which needs none).
#include "block_sum_all.cuh"
#include "book/device.hpp"
#include "grade_bridge.hpp"

#include <vector>

using Floats = book::grade::packed<float>;

#ifdef BOOK_GRADE_WORKER
BOOK_GRADE_EXPORTS(e) {
    book::use_allocated_gpu();  // the GPU CTest allocated, where it did
    e.add("sums_on_gpu",
          [](Floats x, int threads) { return Floats{ch03ex2::sums_on_gpu(x.values, threads)}; });
    e.add("two_sums_on_gpu", [](Floats x, int threads) {
        std::vector<Floats> out;
        for (auto& v : ch03ex2::two_sums_on_gpu(x.values, threads)) out.push_back(Floats{v});
        return out;
    });
}
#else
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
