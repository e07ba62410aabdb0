/// @file device.hpp
/// @brief The GPU a program runs on: finding it, selecting the one CTest
/// allocated, asking it for its limits, and reporting it as provenance.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>

#include "book/errors.hpp"

namespace book {

/// There is no usable CUDA GPU. Thrown by book::require_gpu; book::gpu_main
/// turns it into exit status 77 ("skipped").
struct no_gpu : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Make sure a CUDA GPU is there.
/// @throws book::no_gpu when cudaGetDeviceCount fails or counts no device.
void require_gpu();

/// Select the GPU that CTest allocated to this test, if it allocated one.
///
/// Under CTest resource allocation (a machine with several GPUs runs one GPU
/// test per GPU), CTest names the test's GPU in the environment variable
/// `CTEST_RESOURCE_GROUP_0_GPUS` as `id:<n>,slots:1`. This calls
/// `cudaSetDevice(n)` for that GPU and returns `n`. Without the variable, or
/// with an id that is no GPU number (`none`, on a machine without GPUs), it
/// changes nothing and returns -1. book::gpu_main calls it; a test's own
/// `main` for GPU tests calls it too.
/// @throws book::cuda_error when the allocated GPU cannot be selected.
int use_allocated_gpu();

/// One integer attribute of the current device (cudaDeviceGetAttribute).
int device_attribute(cudaDeviceAttr attribute);

/// The current device's number of SMs.
int sm_count();

/// The current device's L2 cache size in bytes.
std::size_t l2_cache_bytes();

/// How many blocks of `threads` threads (and `dynamic_smem` bytes of dynamic
/// shared memory) of `kernel` one SM holds at once (the occupancy calculator's
/// answer). One "wave" of blocks is this times book::sm_count().
template <class Kernel>
int blocks_per_sm(Kernel kernel, int threads, std::size_t dynamic_smem = 0) {
    int blocks = 0;
    BOOK_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, dynamic_smem));
    return blocks;
}

/// Report the current device as run provenance (book::report_provenance):
/// `gpu_name`, `compute_capability` (like `9.0`), `sm_count`,
/// `driver_cuda_version` (the CUDA version the driver supports) and
/// `runtime_version` (like `13.0`), and `cuda_device_index` (the runner adds
/// the driver's own version, `driver_version`). Also prints one line about the
/// device to stdout, under 80 columns.
/// Launches no kernel, so it loads no module.
void report_device_provenance();

}  // namespace book
