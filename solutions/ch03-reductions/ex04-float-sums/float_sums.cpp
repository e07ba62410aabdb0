// Chapter 3, exercise 4: a solution.
#include "float_sums.hpp"

#include <cmath>

namespace ch03ex4 {

float pairwise_sum(const float* x, std::size_t n) {
    if (n <= kPairwiseBase) {
        float s = 0.0f;
        for (std::size_t i = 0; i < n; ++i) s += x[i];
        return s;
    }
    const std::size_t half = n / 2;
    return pairwise_sum(x, half) + pairwise_sum(x + half, n - half);
}

std::size_t pairwise_depth(std::size_t n) {
    if (n <= 1) return 0;
    if (n <= kPairwiseBase) return n - 1;
    // Each half adds one more addition on top, and the deeper half decides: not
    // always the larger one (8 values are 7 deep in a loop, 9 only 5 as a tree).
    const std::size_t a = pairwise_depth(n / 2), b = pairwise_depth(n - n / 2);
    return 1 + (a > b ? a : b);
}

float compensated_sum(const float* x, std::size_t n) {
    float s = 0.0f, c = 0.0f;
    for (std::size_t i = 0; i < n; ++i) {
        const float v = x[i];
        const float t = s + v;
        if (std::fabs(s) >= std::fabs(v))
            c += (s - t) + v;  // v's low-order part was lost
        else
            c += (v - t) + s;  // s's low-order part was lost
        s = t;
    }
    return s + c;
}

}  // namespace ch03ex4
