// Chapter 3, exercise 5: your code goes here. Read README.md first.
#include "fast_sum.cuh"

namespace ch03ex5 {

namespace {

// TODO: a sum that reads the array once, at the speed of the memory. This
// one is wrong as well as slow: one block of one thread, and only the first
// 256 values.
__global__ void first_values(const float* x, std::size_t n, float* out) {
    float s = 0.0f;
    for (std::size_t i = 0; i < n && i < 256; ++i) s += x[i];
    *out = s;
}

}  // namespace

void sum(const float* x, std::size_t n, float* out, float* scratch) {
    (void)scratch;
    first_values<<<1, 1>>>(x, n, out);
    BOOK_CHECK_LAUNCH();
}

}  // namespace ch03ex5
