// reduce_timing.hpp: how the reduce programs time a call: in batches of calls
// issued back to back, each batch between one pair of CUDA events, and two
// things against each other in alternating rounds (reduce_bench: step 8
// against CUB; reduce_sweep: each variant against CUB).
#pragma once

#include <utility>
#include <vector>

#include "book/cuda.hpp"

namespace ch03 {

/// The times of two things measured in alternating rounds.
struct pair_times {
    book::timing_stats a, b;
};

// [listing:alternating]
// The time per call of f(), from one batch: one call to fill the pipeline,
// then `reps` calls issued back to back between one pair of events. Whichever
// is slower sets the pace: the host issuing the launches or the GPU running
// them.
template <class F>
double batch_ms(F&& f, int reps, const book::cuda_event& start, const book::cuda_event& stop) {
    f();
    BOOK_CUDA_CHECK(cudaEventRecord(start.get(), 0));
    for (int i = 0; i < reps; ++i) f();
    BOOK_CUDA_CHECK(cudaEventRecord(stop.get(), 0));
    BOOK_CUDA_CHECK(cudaEventSynchronize(stop.get()));
    return book::elapsed_ms(start, stop) / reps;
}

// Time a() and b() in `rounds` rounds of one batch each, a first in even
// rounds and b first in odd ones; medians over the rounds. Drift in clocks or
// temperature then falls on both.
template <class A, class B>
pair_times time_alternating(A&& a, B&& b, int warmup, int rounds, int reps) {
    for (int i = 0; i < warmup; ++i) {
        a();
        b();
    }
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());
    const book::cuda_event start, stop;
    std::vector<double> ta, tb;
    for (int r = 0; r < rounds; ++r) {
        if (r % 2 == 0) {
            ta.push_back(batch_ms(a, reps, start, stop));
            tb.push_back(batch_ms(b, reps, start, stop));
        } else {
            tb.push_back(batch_ms(b, reps, start, stop));
            ta.push_back(batch_ms(a, reps, start, stop));
        }
    }
    return {book::summarize_times(std::move(ta)), book::summarize_times(std::move(tb))};
}
// [/listing:alternating]

// The median time per call of f() over `batches` batches (batch_ms).
template <class F>
book::timing_stats time_batches(F&& f, int warmup, int batches, int reps) {
    for (int i = 0; i < warmup; ++i) f();
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());
    const book::cuda_event start, stop;
    std::vector<double> ms;
    for (int k = 0; k < batches; ++k) ms.push_back(batch_ms(f, reps, start, stop));
    return book::summarize_times(std::move(ms));
}

}  // namespace ch03
