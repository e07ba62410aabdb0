/// @file cuda.hpp
/// @brief The one header a GPU program of the book includes.
///
/// It brings in the whole shared library, one header per concern:
/// - book/errors.hpp: book::cuda_error, BOOK_CUDA_CHECK, BOOK_CHECK_LAUNCH;
/// - book/device.hpp: the GPU (book::require_gpu, book::use_allocated_gpu,
///   device attributes, book::report_device_provenance);
/// - book/program.hpp: book::gpu_main, the wrapper of every GPU program;
/// - book/memory.hpp: book::device_buffer, book::rotating_buffers;
/// - book/random.hpp: book::random_u32, book::fill_random_u32;
/// - book/timing.hpp: book::time_launches, book::warm_up_clocks,
///   book::timing_stats, book::repeats_for;
/// - book/reference.hpp: book::sampled_indices, book::count_mismatches;
/// - book/report.hpp: book::report and friends (results for the runner);
/// - book/options.hpp: book::Options (the command line).
#pragma once

#include "book/device.hpp"
#include "book/errors.hpp"
#include "book/memory.hpp"
#include "book/options.hpp"
#include "book/program.hpp"
#include "book/random.hpp"
#include "book/reference.hpp"
#include "book/report.hpp"
#include "book/timing.hpp"
