/// @file errors.hpp
/// @brief Checking CUDA calls: book::cuda_error and the BOOK_CUDA_CHECK and
/// BOOK_CHECK_LAUNCH macros.
///
/// A failing CUDA call throws book::cuda_error, which names the call, the
/// file and the line; book::gpu_main turns it into one line on stderr and
/// exit status 1. No helper here ever calls `exit()`.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace book {

/// A CUDA call failed. Holds the call's source text, where it was made, and
/// the error code; `what()` says all of it in one line.
class cuda_error : public std::runtime_error {
public:
    /// @param code the error the call returned
    /// @param call the call as written in the source (for example `cudaMalloc(&p, n)`)
    /// @param file the source file of the call
    /// @param line the line of the call
    cuda_error(cudaError_t code, std::string call, std::string file, int line);

    /// The error the call returned.
    cudaError_t code() const noexcept { return code_; }
    /// The call as written in the source.
    const std::string& call() const noexcept { return call_; }
    /// The source file of the call.
    const std::string& file() const noexcept { return file_; }
    /// The line of the call.
    int line() const noexcept { return line_; }

private:
    cudaError_t code_;
    std::string call_;
    std::string file_;
    int line_;
};

/// Throw book::cuda_error when `status` is not `cudaSuccess`; do nothing otherwise.
/// Use it through BOOK_CUDA_CHECK, which fills in the call text, file and line.
void cuda_check(cudaError_t status, const char* call_text, const char* file, int line);

/// Check one CUDA runtime call: `BOOK_CUDA_CHECK(cudaMalloc(&p, bytes));`
#define BOOK_CUDA_CHECK(call) ::book::cuda_check((call), #call, __FILE__, __LINE__)

/// Check the kernel launch just made (a bad configuration shows up here, not
/// at the `<<<...>>>` itself). Errors inside the kernel appear at the next
/// synchronizing call, which BOOK_CUDA_CHECK catches.
#define BOOK_CHECK_LAUNCH() \
    ::book::cuda_check(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)

}  // namespace book
