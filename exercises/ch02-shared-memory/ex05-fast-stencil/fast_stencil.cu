// Chapter 2, exercise 5: your code goes here. Read README.md first.
#include "fast_stencil.cuh"

namespace ch02ex5 {

namespace {

// TODO: the stencil, at the speed of the copy. This one is the copy: as fast as
// a stencil can hope to be, and wrong (each output is its own input only).
__global__ void copy(const float* in, float* out, std::size_t n) {
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}

}  // namespace

void stencil(const float* in, float* out, std::size_t n) {
    if (n == 0) return;
    copy<<<static_cast<unsigned>((n + 255) / 256), 256>>>(in, out, n);
    BOOK_CHECK_LAUNCH();
}

}  // namespace ch02ex5
