// tools/grade's GPU probe: trusted code of the book, run by the grader (in the
// same sandbox as a GPU test, and outside it) to learn whether a CUDA GPU can be
// used there. A student's program is never asked: its exit status could lie.
// Exit status 0 and "gpus: <n>" when n >= 1 GPUs are usable; 1 and why not otherwise.
#include <cuda_runtime.h>

#include <cstdio>

int main() {
    int count = 0;
    cudaError_t status = cudaGetDeviceCount(&count);
    if (status == cudaSuccess && count > 0) status = cudaFree(nullptr);  // a context can be made
    if (status != cudaSuccess || count == 0) {
        std::printf("no usable CUDA GPU: %s\n", status != cudaSuccess
                                                    ? cudaGetErrorString(status)
                                                    : "cudaGetDeviceCount found 0 devices");
        return 1;
    }
    std::printf("gpus: %d\n", count);
    return 0;
}
