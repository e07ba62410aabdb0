// Exercise 3.4's bridge (tools/grader/judge/grade_bridge.hpp): the functions of
// float_sums.hpp, called in the worker, from the judge. An array travels as its
// n values (packed); the worker hands the student's function a pointer to its
// own copy.
#include "float_sums.hpp"
#include "grade_bridge.hpp"

#include <vector>

using Floats = book::grade::packed<float>;

#ifdef BOOK_GRADE_WORKER
BOOK_GRADE_EXPORTS(e) {
    e.add("pairwise_sum",
          [](Floats x) { return ch03ex4::pairwise_sum(x.values.data(), x.values.size()); });
    e.add("pairwise_depth", &ch03ex4::pairwise_depth);
    e.add("compensated_sum",
          [](Floats x) { return ch03ex4::compensated_sum(x.values.data(), x.values.size()); });
}
#else
using book::grade::call;
namespace {
Floats floats(const float* x, std::size_t n) {
    return Floats{n == 0 ? std::vector<float>{} : std::vector<float>(x, x + n)};
}
}  // namespace
float ch03ex4::pairwise_sum(const float* x, std::size_t n) {
    return call<float>("pairwise_sum", floats(x, n));
}
std::size_t ch03ex4::pairwise_depth(std::size_t n) {
    return call<std::size_t>("pairwise_depth", n);
}
float ch03ex4::compensated_sum(const float* x, std::size_t n) {
    return call<float>("compensated_sum", floats(x, n));
}
#endif
