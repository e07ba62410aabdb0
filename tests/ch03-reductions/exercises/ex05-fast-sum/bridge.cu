// Exercise 3.5's bridge (tools/grader/judge/grade_bridge.hpp): sum_of, run in the
// worker (which owns the GPU), and the timed harness "sum" of the speed points
// (tools/grader/speed.py). Host code: the harness moves memory with the runtime
// API only.
//
// The harness's inputs (tools/grader/judge/speed_inputs.hpp): each call's 2^24
// whole numbers from -8 to 8 cut from a pool and patched from the secret seed, the
// L2 flushed before the call, sum() called and the device waited for. Back: every
// sum.
#include "book/device.hpp"
#include "fast_sum.cuh"
#include "grade_bridge.hpp"
#include "speed_inputs.hpp"
#include "sum_check.cuh"

#include <cstdint>
#include <vector>

using Floats = book::grade::packed<float>;

#ifdef BOOK_GRADE_WORKER
float ch03ex5test::sum_of(const std::vector<float>& x, std::size_t offset) {
    return sum_of_here(x, offset);
}

namespace {

namespace speed = book::grade::speed;

struct Harness {
    int calls = 0;
    speed::pooled_input<float> input;
    speed::l2_flush flush;
    book::device_buffer<float> out, scratch;

    void prepare(const book::grade::json& p) {
        const auto params = speed::read_params(p, std::size_t{1} << 28, "sum");
        calls = params.calls;
        input.prepare(params.size, params.round, speed::whole);
        out = book::device_buffer<float>(static_cast<std::size_t>(calls));
        scratch = book::device_buffer<float>(ch03ex5::kScratchFloats);
        flush.allocate();
        // The warm-up (module loading, first launches), outside the clock.
        ch03ex5::sum(input.x(), input.size(), out.data(), scratch.data());
        BOOK_CUDA_CHECK(cudaDeviceSynchronize());
    }

    book::grade::json go(std::uint64_t seed, bool null) {
        return speed::timed_calls(
            calls, null, flush, [&](int k) { input.cut(seed, k, speed::whole); },
            [&](int k) { ch03ex5::sum(input.x(), input.size(), out.data() + k, scratch.data()); },
            [&](int k) {
                float v = 0.0f;
                BOOK_CUDA_CHECK(cudaMemcpy(&v, out.data() + k, sizeof v, cudaMemcpyDeviceToHost));
                return v;
            });
    }
};

}  // namespace

BOOK_GRADE_EXPORTS(e) {
    book::use_allocated_gpu();  // the GPU CTest allocated, where it did
    e.add("sum_of",
          [](Floats x, std::size_t offset) { return ch03ex5test::sum_of(x.values, offset); });
    static Harness& harness = *new Harness;  // never destroyed: no cudaFree after the runtime ends
    e.timed("sum", {[](const book::grade::json& p) { harness.prepare(p); },
                    [](std::uint64_t seed, bool null) { return harness.go(seed, null); }});
}
#else
float ch03ex5test::sum_of(const std::vector<float>& x, std::size_t offset) {
    return book::grade::call<float>("sum_of", Floats{x}, offset);
}
#endif
