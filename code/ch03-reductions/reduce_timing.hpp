// reduce_timing.hpp: how the chapter's programs time a call: in batches of
// calls issued back to back, each batch between one pair of CUDA events; two
// things against each other in alternating rounds (reduce_bench: step 8
// against CUB; reduce_sweep: each variant against CUB); and in GPU time, as
// replays of a CUDA graph (graph_us_per_call: reduce_bench for step 8 and CUB,
// cluster_sum for step 9 and CUB). One routine for the replays, so that CUB's
// time per replay is measured the same way in both programs.
#pragma once

#include <algorithm>
#include <cstddef>
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

/// The timed replays of every graph the chapter times.
inline constexpr int graph_replays = 10;

/// Calls captured in one graph when the input rotates through `buffers`
/// arrays: one call per array, so that no call of a replay finds its input in
/// L2, but no more than 512.
inline int graph_calls(std::size_t buffers) {
    return static_cast<int>(std::min<std::size_t>(buffers, 512));
}

// [listing:graph]
// Median microseconds per call when `calls` calls are captured in one CUDA
// graph and the graph is replayed: the host's launch cost is paid once per
// replay, not once per kernel. enqueue(i, stream) enqueues call i. Each
// measurement gets a stream of its own, two untimed replays and a
// synchronisation before `replays` timed ones, each between its own pair of
// events.
template <class F>
double graph_us_per_call(F&& enqueue, int calls, int replays = graph_replays) {
    struct graph_run {  // a stream, a graph and its executable form, released in reverse
        cudaStream_t stream = nullptr;
        cudaGraph_t graph = nullptr;
        cudaGraphExec_t exec = nullptr;
        graph_run() { BOOK_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking)); }
        ~graph_run() {
            if (exec) cudaGraphExecDestroy(exec);
            if (graph) cudaGraphDestroy(graph);
            if (stream) cudaStreamDestroy(stream);
        }
        graph_run(const graph_run&) = delete;
        graph_run& operator=(const graph_run&) = delete;
    } g;
    BOOK_CUDA_CHECK(cudaStreamBeginCapture(g.stream, cudaStreamCaptureModeThreadLocal));
    try {
        for (int i = 0; i < calls; ++i) enqueue(i, g.stream);
    } catch (...) {
        cudaGraph_t broken = nullptr;
        cudaStreamEndCapture(g.stream, &broken);  // end the capture before the error leaves
        if (broken) cudaGraphDestroy(broken);
        throw;
    }
    BOOK_CUDA_CHECK(cudaStreamEndCapture(g.stream, &g.graph));
    BOOK_CUDA_CHECK(cudaGraphInstantiate(&g.exec, g.graph, 0));
    for (int i = 0; i < 2; ++i) BOOK_CUDA_CHECK(cudaGraphLaunch(g.exec, g.stream));
    BOOK_CUDA_CHECK(cudaStreamSynchronize(g.stream));
    std::vector<book::cuda_event> start(replays), stop(replays);
    for (int i = 0; i < replays; ++i) {
        BOOK_CUDA_CHECK(cudaEventRecord(start[i].get(), g.stream));
        BOOK_CUDA_CHECK(cudaGraphLaunch(g.exec, g.stream));
        BOOK_CUDA_CHECK(cudaEventRecord(stop[i].get(), g.stream));
    }
    BOOK_CUDA_CHECK(cudaStreamSynchronize(g.stream));
    std::vector<double> ms(replays);
    for (int i = 0; i < replays; ++i) ms[i] = book::elapsed_ms(start[i], stop[i]);
    return book::summarize_times(std::move(ms)).median_ms * 1000.0 / calls;
}
// [/listing:graph]

}  // namespace ch03
