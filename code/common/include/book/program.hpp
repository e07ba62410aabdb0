/// @file program.hpp
/// @brief The wrapper every GPU program's `main` is: book::gpu_main.
///
/// A program's `main` is one line, `return book::gpu_main(argc, argv, run);`.
/// Without a GPU the program says so and exits 77 (the runner and CTest read
/// that as "skipped"); a failing CUDA call throws book::cuda_error, which names
/// the call, the file and the line, and the program exits 1.
#pragma once

namespace book {

/// Run a GPU program's body and turn what can go wrong into an exit status.
///
/// Calls book::require_gpu, then book::use_allocated_gpu (the GPU CTest
/// allocated, when it allocated one), then book::report_device_provenance,
/// then `body(argc, argv)`, and returns what the body returns. Without a GPU
/// it prints `<program>: skipped: no CUDA GPU (<reason>)` to stderr and
/// returns 77. On book::cuda_error or any other std::exception it prints
/// `<program>: error: <what>` to stderr and returns 1.
int gpu_main(int argc, char** argv, int (*body)(int, char**));

}  // namespace book
