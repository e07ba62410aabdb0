/// @file timing.hpp
/// @brief Timing kernels well: CUDA events, warm-up, repetitions and medians
/// (book::time_launches), bringing the clocks up first (book::warm_up_clocks),
/// and reporting the spread (book::report_timing).
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

#include "book/errors.hpp"

namespace book {

/// Times of repeated runs of one thing, in milliseconds.
struct timing_stats {
    int reps;          ///< how many timed repetitions
    double median_ms;  ///< the median: the number the book quotes
    double min_ms;     ///< the fastest repetition
    double max_ms;     ///< the slowest repetition
    double p10_ms;     ///< 10th percentile (linear interpolation)
    double p90_ms;     ///< 90th percentile (linear interpolation)
};

/// Summarise repetition times (milliseconds) into book::timing_stats.
/// @throws std::invalid_argument if `ms` is empty.
timing_stats summarize_times(std::vector<double> ms);

/// How often a program repeats what it times: the book's one setting.
struct repeat_counts {
    int warmup;              ///< untimed launches before the timed ones
    int reps;                ///< timed launches (the median is quoted)
    double clock_warmup_ms;  ///< milliseconds of book::warm_up_clocks before the first timing
};

/// The repetitions of a full run (3 warm-up, 15 timed, 200 ms to bring the
/// clocks up), or of a quick one (`--quick`, for compute-sanitizer: 1, 2, 1 ms).
constexpr repeat_counts repeats_for(bool quick) noexcept {
    return quick ? repeat_counts{1, 2, 1.0} : repeat_counts{3, 15, 200.0};
}

/// A CUDA event that destroys itself. Used by book::time_launches.
class cuda_event {
public:
    cuda_event();
    ~cuda_event();
    cuda_event(const cuda_event&) = delete;
    cuda_event& operator=(const cuda_event&) = delete;
    /// Take over another event, leaving it empty.
    cuda_event(cuda_event&& other) noexcept : e_(std::exchange(other.e_, nullptr)) {}
    cuda_event& operator=(cuda_event&&) = delete;
    /// The underlying event.
    cudaEvent_t get() const noexcept { return e_; }

private:
    cudaEvent_t e_ = nullptr;
};

/// Milliseconds between two recorded, completed events.
double elapsed_ms(const cuda_event& start, const cuda_event& stop);

/// Time a launch on the default stream with CUDA events.
///
/// Calls `launch()` `warmup` times untimed and waits for them (so module
/// loading, clock ramp-up and first-touch costs stay out), then `reps` times,
/// each between its own pair of events recorded on the default stream.
/// `launch` must enqueue its work on the default stream and return at once.
/// @returns the median and spread of the `reps` times.
template <class F>
timing_stats time_launches(F&& launch, int warmup, int reps) {
    if (reps < 1) throw std::invalid_argument("time_launches: reps must be at least 1");
    for (int i = 0; i < warmup; ++i) {
        launch();
        BOOK_CHECK_LAUNCH();
    }
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<cuda_event> start(reps), stop(reps);
    for (int i = 0; i < reps; ++i) {
        BOOK_CUDA_CHECK(cudaEventRecord(start[i].get(), 0));
        launch();
        BOOK_CHECK_LAUNCH();
        BOOK_CUDA_CHECK(cudaEventRecord(stop[i].get(), 0));
    }
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<double> ms(reps);
    for (int i = 0; i < reps; ++i) ms[i] = elapsed_ms(start[i], stop[i]);
    return summarize_times(std::move(ms));
}

/// Time a launch as book::time_launches does, with the warm-up and timed
/// counts of `counts`.
template <class F>
timing_stats time_launches(F&& launch, const repeat_counts& counts) {
    return time_launches(std::forward<F>(launch), counts.warmup, counts.reps);
}

/// Milliseconds on the host's steady clock (std::chrono::steady_clock), from an
/// arbitrary start: for intervals only. (Compiled in timing.cpp, so that this
/// header does not include the chrono header, which every CUDA file would pay for.)
double steady_ms();

/// Bring the GPU to its working clocks before measuring: call `launch()`
/// again and again (waiting after each) until `ms` milliseconds have passed.
/// An idle GPU runs at low clocks and takes a moment to speed up; the first
/// configuration timed would otherwise look slower than the rest.
template <class F>
void warm_up_clocks(F&& launch, double ms) {
    const double start = steady_ms();
    do {
        launch();
        BOOK_CHECK_LAUNCH();
        BOOK_CUDA_CHECK(cudaDeviceSynchronize());
    } while (steady_ms() - start < ms);
}

/// Report timing stats as results: `<name>_ms` (the median), `<name>_p10_ms`,
/// `<name>_p90_ms`, `<name>_min_ms`, `<name>_max_ms` (unit `ms`) and
/// `<name>_reps` (unit `count`).
void report_timing(std::string_view name, const timing_stats& stats);

}  // namespace book
