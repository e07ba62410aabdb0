// Exercise 4.3's bridge (tools/grader/judge/grade_bridge.hpp): the tests' driver
// of the student's kernel (read_check.cuh), run in the worker, which owns the
// GPU, and called from the judge, which needs none; and the timed harness
// "quarter" of the speed points (tools/grader/speed.py). Host code: the kernel is
// launched through the runtime API.
//
// The harness (tools/grader/judge/speed_inputs.hpp): each launch's 2^24 vectors
// (random words) cut from a pool and patched from the secret seed, the L2 flushed,
// read_sum launched with 4 blocks of kThreads per SM (a quarter of an SM's warps)
// and the device waited for. Back: every launch's sum.
#include "book/device.hpp"
#include "grade_bridge.hpp"
#include "read_check.cuh"
#include "read_sum.cuh"
#include "speed_inputs.hpp"

#include <cstdint>
#include <vector>

#ifdef BOOK_GRADE_WORKER
// The launch of the student's kernel by the tests' driver, here in the worker
// (and in the programs that link the student's code with the tests directly).
std::vector<double> ch04ex3test::launch_read(std::size_t vectors, int blocks_per_sm, int timed,
                                             unsigned offset) {
    return launch_read_here(vectors, blocks_per_sm, timed, offset);
}

namespace {

namespace speed = book::grade::speed;

// A random word of the pool or of a patch.
unsigned word(std::uint64_t seed, std::uint64_t i) { return book::random_u32(seed, i); }

struct Harness {
    static constexpr int kBlocksPerSm = 4;  // 16 warps per SM: a quarter of 64
    int calls = 0;
    std::size_t vectors = 0;
    speed::pooled_input<unsigned> input;
    speed::l2_flush flush;
    book::device_buffer<unsigned> totals;
    cudaLaunchConfig_t launch{};

    void run(int k) {
        // read_sum<<<...>>>(x, vectors, totals + k), in the runtime API's words.
        (void)cudaLaunchKernelEx(&launch, ch04ex3::read_sum,
                                 reinterpret_cast<const uint4*>(input.x()), vectors,
                                 totals.data() + k);
        BOOK_CHECK_LAUNCH();
    }

    void prepare(const book::grade::json& p) {
        const auto params = speed::read_params(p, std::size_t{1} << 25, "quarter");
        calls = params.calls;
        vectors = params.size;
        input.prepare(4 * vectors, params.round, word);
        totals = book::device_buffer<unsigned>(static_cast<std::size_t>(calls));
        flush.allocate();
        launch.gridDim = dim3(static_cast<unsigned>(kBlocksPerSm * book::sm_count()));
        launch.blockDim = dim3(static_cast<unsigned>(ch04ex3::kThreads));
        // The warm-up (module loading, first launches), outside the clock.
        run(0);
        BOOK_CUDA_CHECK(cudaDeviceSynchronize());
    }

    book::grade::json go(std::uint64_t seed, bool null) {
        return speed::timed_calls(
            calls, null, flush,
            [&](int k) {
                input.cut(seed, k, word);
                BOOK_CUDA_CHECK(cudaMemsetAsync(totals.data() + k, 0, sizeof(unsigned), nullptr));
            },
            [&](int k) { run(k); },
            [&](int k) {
                unsigned v = 0;
                BOOK_CUDA_CHECK(
                    cudaMemcpy(&v, totals.data() + k, sizeof v, cudaMemcpyDeviceToHost));
                return static_cast<double>(v);
            });
    }
};

}  // namespace

BOOK_GRADE_EXPORTS(e) {
    book::use_allocated_gpu();  // the GPU CTest allocated, where it did
    e.add("launch_read", [](std::size_t vectors, int blocks_per_sm, int timed, unsigned offset) {
        return ch04ex3test::launch_read(vectors, blocks_per_sm, timed, offset);
    });
    static Harness& harness = *new Harness;  // never destroyed: no cudaFree after the runtime ends
    e.timed("quarter", {[](const book::grade::json& p) { harness.prepare(p); },
                        [](std::uint64_t seed, bool null) { return harness.go(seed, null); }});
}
#else
std::vector<double> ch04ex3test::launch_read(std::size_t vectors, int blocks_per_sm, int timed,
                                             unsigned offset) {
    return book::grade::call<std::vector<double>>("launch_read", vectors, blocks_per_sm, timed,
                                                  offset);
}
#endif
