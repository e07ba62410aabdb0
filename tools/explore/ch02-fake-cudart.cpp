// tools/explore/ch02-fake-cudart.cpp: a stand-in for the CUDA runtime, so that
// the HOST code of chapter 2's programs can run on a machine without a GPU,
// under AddressSanitizer and UndefinedBehaviorSanitizer (tools/explore/ch02-host.sh).
//
// Device memory is host memory (zeroed), kernels are counted but do nothing,
// every event pair times 1 ms, and the device looks like an H200. So the
// programs print nonsense numbers and "wrong outputs" (no kernel ran), but they
// walk their host code exactly as on the GPU: allocation, the checks against
// the CPU (compare_integers over FAKE_NPROCS threads), the tables, the results.
// Link the programs with `nvcc -cudart none` and this file.
#include <cuda_runtime_api.h>

#include <atomic>
#include <cstdlib>
#include <cstring>

#include <unistd.h>

namespace {

dim3 g_grid, g_block;
std::size_t g_smem = 0;
cudaError_t g_last = cudaSuccess;  // what cudaGetLastError returns (and clears)
std::atomic<long> g_launches{0};

cudaError_t launch(dim3 grid, dim3 block) {
    if (grid.x == 0 || block.x == 0 || block.x > 1024)
        return g_last = cudaErrorInvalidConfiguration;
    ++g_launches;
    return cudaSuccess;
}

constexpr int kSms = 132, kSmemPerSm = 233472, kSmemOptin = 232448, kL2 = 60 << 20;

}  // namespace

extern "C" {

// ---- what nvcc's host stubs call -------------------------------------------------------
void** __cudaRegisterFatBinary(void*) {
    static void* handle = nullptr;
    return &handle;
}
void __cudaRegisterFatBinaryEnd(void**) {}
void __cudaUnregisterFatBinary(void**) {}
void __cudaRegisterFunction(void**, const char*, char*, const char*, int, uint3*, uint3*, dim3*,
                            dim3*, int*) {}
void __cudaRegisterVar(void**, char*, char*, const char*, int, size_t, int, int) {}
void __cudaRegisterManagedVar(void**, void**, char*, const char*, int, size_t, int, int) {}
char __cudaInitModule(void**) { return 0; }
unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t smem, struct CUstream_st*) {
    g_grid = grid;
    g_block = block;
    g_smem = smem;
    return 0;
}
cudaError_t __cudaPopCallConfiguration(dim3* grid, dim3* block, size_t* smem, void*) {
    *grid = g_grid;
    *block = g_block;
    *smem = g_smem;
    return cudaSuccess;
}
cudaError_t __cudaGetKernel(cudaKernel_t* k, const void* f) {
    *k = reinterpret_cast<cudaKernel_t>(const_cast<void*>(f));
    return cudaSuccess;
}
cudaError_t __cudaLaunchKernel(cudaKernel_t, dim3 grid, dim3 block, void**, size_t, cudaStream_t) {
    return launch(grid, block);
}
cudaError_t cudaLaunchKernel(const void*, dim3 grid, dim3 block, void**, size_t, cudaStream_t) {
    return launch(grid, block);
}

// ---- devices, errors, synchronization ------------------------------------------------
cudaError_t cudaGetDeviceCount(int* n) {
    *n = 1;
    return cudaSuccess;
}
cudaError_t cudaSetDevice(int) { return cudaSuccess; }
cudaError_t cudaGetDevice(int* d) {
    *d = 0;
    return cudaSuccess;
}
cudaError_t cudaDriverGetVersion(int* v) {
    *v = 13000;
    return cudaSuccess;
}
cudaError_t cudaRuntimeGetVersion(int* v) {
    *v = 13000;
    return cudaSuccess;
}
const char* cudaGetErrorName(cudaError_t e) {
    return e == cudaSuccess ? "cudaSuccess" : "cudaErrorFake";
}
const char* cudaGetErrorString(cudaError_t) { return "an error of the fake CUDA runtime"; }
cudaError_t cudaGetLastError(void) {
    const cudaError_t e = g_last;
    g_last = cudaSuccess;
    return e;
}
cudaError_t cudaPeekAtLastError(void) { return g_last; }
cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }
cudaError_t cudaStreamQuery(cudaStream_t) { return cudaSuccess; }

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* p, int) {
    std::memset(p, 0, sizeof *p);
    std::strcpy(p->name, "fake H200");
    p->major = 9;
    p->minor = 0;
    p->multiProcessorCount = kSms;
    p->sharedMemPerMultiprocessor = kSmemPerSm;
    p->sharedMemPerBlock = 49152;
    p->sharedMemPerBlockOptin = kSmemOptin;
    p->reservedSharedMemPerBlock = 1024;
    p->maxThreadsPerMultiProcessor = 2048;
    p->l2CacheSize = kL2;
    return cudaSuccess;
}
cudaError_t cudaDeviceGetAttribute(int* v, cudaDeviceAttr a, int) {
    switch (a) {
        case cudaDevAttrComputeCapabilityMajor:
            *v = 9;
            break;
        case cudaDevAttrComputeCapabilityMinor:
            *v = 0;
            break;
        case cudaDevAttrMultiProcessorCount:
            *v = kSms;
            break;
        case cudaDevAttrL2CacheSize:
            *v = kL2;
            break;
        case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
            *v = kSmemPerSm;
            break;
        case cudaDevAttrMaxSharedMemoryPerBlockOptin:
            *v = kSmemOptin;
            break;
        default:
            *v = 0;
    }
    return cudaSuccess;
}

// ---- memory ------------------------------------------------------------------------------
cudaError_t cudaMalloc(void** p, size_t n) {
    *p = std::calloc(1, n);
    return *p != nullptr ? cudaSuccess : cudaErrorMemoryAllocation;
}
cudaError_t cudaFree(void* p) {
    std::free(p);
    return cudaSuccess;
}
cudaError_t cudaMallocHost(void** p, size_t n) { return cudaMalloc(p, n); }
cudaError_t cudaFreeHost(void* p) {
    std::free(p);
    return cudaSuccess;
}
cudaError_t cudaMemcpy(void* d, const void* s, size_t n, cudaMemcpyKind) {
    std::memcpy(d, s, n);
    return cudaSuccess;
}
cudaError_t cudaMemcpyAsync(void* d, const void* s, size_t n, cudaMemcpyKind k, cudaStream_t) {
    return cudaMemcpy(d, s, n, k);
}
cudaError_t cudaMemset(void* d, int v, size_t n) {
    std::memset(d, v, n);
    return cudaSuccess;
}

// ---- events --------------------------------------------------------------------------------
cudaError_t cudaEventCreate(cudaEvent_t* e) {
    *e = static_cast<cudaEvent_t>(std::malloc(16));
    return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t e) {
    std::free(e);
    return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t) { return cudaSuccess; }
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t, cudaEvent_t) {
    *ms = 1.0f;
    return cudaSuccess;
}

// ---- kernels' attributes and occupancy ----------------------------------------------------
cudaError_t cudaFuncSetAttribute(const void*, cudaFuncAttribute, int) { return cudaSuccess; }
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* a, const void*) {
    std::memset(a, 0, sizeof *a);
    return cudaSuccess;
}
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* n, const void*, int, size_t) {
    *n = 2;
    return cudaSuccess;
}
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* n, const void*, int, size_t,
                                                                   unsigned) {
    *n = 2;
    return cudaSuccess;
}
cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t* s, const void*, int k, int) {
    *s = k > 0 ? kSmemOptin / static_cast<size_t>(k) : 0;
    return cudaSuccess;
}

// libstdc++'s std::thread::hardware_concurrency() asks glibc's get_nprocs():
// FAKE_NPROCS makes the machine look like one with that many cores (the H200
// host has 16), so that compare_integers splits its work as it does there.
// (Without it, the machine's own count, which sysconf gets from glibc's internal
// __get_nprocs, not from this function.)
int get_nprocs(void) {
    const char* s = std::getenv("FAKE_NPROCS");
    if (s != nullptr && std::atoi(s) > 0) return std::atoi(s);
    return static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
}

}  // extern "C"
