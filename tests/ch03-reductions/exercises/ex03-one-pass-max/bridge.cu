// Exercise 3.3's bridge (tools/grader/judge/grade_bridge.hpp): the class
// one_pass_max, whose objects live in the worker (which owns the GPU) and are
// used from the judge (which needs none). The judge's one_pass_max holds no GPU
// memory (its buffers stay empty): constructing one asks the worker to construct
// its own and answers which it is; max() asks that one for the maximum.
#include "book/device.hpp"
#include "grade_bridge.hpp"
#include "max_check.cuh"
#include "one_pass_max.cuh"

#include <map>
#include <memory>
#include <stdexcept>
#include <vector>

using Floats = book::grade::packed<float>;

#ifdef BOOK_GRADE_WORKER
// The launch of the student's kernel by the tests' driver (max_check.cuh), here in
// the worker (and in the programs that link the student's code with the tests
// directly, which link this side too).
std::vector<float> ch03ex3test::launch_max(const std::vector<float>& x, std::size_t split,
                                           int blocks) {
    return launch_max_here(x, split, blocks);
}

BOOK_GRADE_EXPORTS(e) {
    book::use_allocated_gpu();  // the GPU CTest allocated, where it did
    // The worker's finders, in the order they were made; each lives until the
    // worker ends (a test set makes a few dozen).
    static std::vector<std::unique_ptr<ch03ex3::one_pass_max>> finders;
    e.add("one_pass_max", [](int blocks) {
        finders.push_back(std::make_unique<ch03ex3::one_pass_max>(blocks));
        return finders.size() - 1;
    });
    e.add("max", [](std::size_t finder, Floats x) {
        if (finder >= finders.size()) throw std::out_of_range("one_pass_max: no such finder");
        return finders[finder]->max(x.values);
    });
    e.add("launch_max", [](Floats x, std::size_t split, int blocks) {
        return Floats{ch03ex3test::launch_max(x.values, split, blocks)};
    });
}
#else
std::vector<float> ch03ex3test::launch_max(const std::vector<float>& x, std::size_t split,
                                           int blocks) {
    return book::grade::call<Floats>("launch_max", Floats{x}, split, blocks).values;
}

namespace {
// Which of the worker's finders each of the judge's stands for, by address.
std::map<const ch03ex3::one_pass_max*, std::size_t>& finders() {
    static std::map<const ch03ex3::one_pass_max*, std::size_t> f;
    return f;
}
}  // namespace

ch03ex3::one_pass_max::one_pass_max(int blocks) : blocks_(blocks) {
    finders()[this] = book::grade::call<std::size_t>("one_pass_max", blocks);
}

float ch03ex3::one_pass_max::max(const std::vector<float>& x) {
    const auto it = finders().find(this);
    if (it == finders().end())
        throw std::logic_error("one_pass_max: an object the worker does not know (moved?)");
    return book::grade::call<float>("max", it->second, Floats{x});
}
#endif
