// The Catch2 main of the exercises' GPU tests (see cmake/BookExercises.cmake).
// Listing the tests (--list-tests, --list-test-names-only, ...) needs no GPU.
// Running them without a usable CUDA GPU says so and exits 77, which CTest
// (SKIP_RETURN_CODE 77) reports as skipped, never as passed. tools/grade never
// trusts that exit status: it asks a probe of its own whether a GPU is there.
// Built once into a library, so that Catch2's implementation is compiled once
// per build rather than once per GPU test.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cuda_runtime.h>

#include <cstdio>
#include <exception>

#include "book/device.hpp"

int main(int argc, char** argv) {
    Catch::Session session;
    if (const int status = session.applyCommandLine(argc, argv); status != 0) return status;
    const Catch::ConfigData& config = session.configData();
    const bool listing = config.listTests || config.listTestNamesOnly || config.listTags ||
                         config.listReporters || config.showHelp;
    if (listing) return session.run();  // Catch2's own status: the number listed
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess || count == 0) {
        std::printf("skipped: no CUDA GPU (%s)\n", status != cudaSuccess
                                                       ? cudaGetErrorString(status)
                                                       : "cudaGetDeviceCount found 0 devices");
        return 77;
    }
    // The GPU CTest allocated to this test (RESOURCE_GROUPS), so that a machine
    // with several GPUs runs one exercise test per GPU.
    try {
        book::use_allocated_gpu();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
    const int failed = session.run();
    // Catch2 exits with the number of failed assertions; 77 failures must not
    // read as "skipped".
    return failed == 0 ? 0 : 1;
}
