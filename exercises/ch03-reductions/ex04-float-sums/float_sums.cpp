// Chapter 3, exercise 4: your code goes here. Read README.md first.
// Each function below compiles but gives a wrong answer: replace the TODOs.
#include "float_sums.hpp"

namespace ch03ex4 {

float pairwise_sum(const float* x, std::size_t n) {
    // TODO: in order up to kPairwiseBase values; above, the first n / 2 and the
    // rest, each summed pairwise.
    float s = 0.0f;
    for (std::size_t i = 0; i < n; ++i) s += x[i];  // the loop the chapter warns about
    return s;
}

std::size_t pairwise_depth(std::size_t n) {
    return n > 0 ? n - 1 : 0;  // TODO: the depth of the tree, not of the loop
}

float compensated_sum(const float* x, std::size_t n) {
    // TODO: carry the rounding error of each addition in a compensation term.
    float s = 0.0f;
    for (std::size_t i = 0; i < n; ++i) s += x[i];
    return s;
}

}  // namespace ch03ex4
