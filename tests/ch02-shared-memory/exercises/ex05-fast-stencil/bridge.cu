// Exercise 2.5's bridge (tools/grader/judge/grade_bridge.hpp): stencil_of, run in
// the worker (which owns the GPU), and the timed harness "stencil" of the speed
// points (tools/grader/speed.py). Host code: the harness moves memory with the
// runtime API only.
//
// The harness (tools/grader/judge/speed_inputs.hpp): each call's 2^24 whole numbers
// from -8 to 8 cut from a pool and patched from the secret seed, the L2 flushed
// before the call, stencil() called and the device waited for, and a digest of the
// outputs at places drawn from the seed copied back. Back: every digest.
#include "book/device.hpp"
#include "fast_stencil.cuh"
#include "grade_bridge.hpp"
#include "speed_inputs.hpp"
#include "stencil_check.cuh"

#include <cstdint>
#include <vector>

using Floats = book::grade::packed<float>;

#ifdef BOOK_GRADE_WORKER
std::vector<float> ch02ex5test::stencil_of(const std::vector<float>& in) {
    return stencil_of_here(in);
}

namespace {

namespace speed = book::grade::speed;

struct Harness {
    int calls = 0;
    speed::pooled_input<float> input;
    speed::l2_flush flush;
    speed::sampled_output sample;
    book::device_buffer<float> out;

    void prepare(const book::grade::json& p) {
        const auto params = speed::read_params(p, std::size_t{1} << 28, "stencil");
        calls = params.calls;
        input.prepare(params.size, params.round, speed::whole);
        out = book::device_buffer<float>(params.size);
        flush.allocate();
        // The warm-up (module loading, first launches), outside the clock.
        ch02ex5::stencil(input.x(), out.data(), input.size());
        BOOK_CUDA_CHECK(cudaDeviceSynchronize());
    }

    book::grade::json go(std::uint64_t seed, bool null) {
        return speed::timed_calls(
            calls, null, flush, [&](int k) { input.cut(seed, k, speed::whole); },
            [&](int) { ch02ex5::stencil(input.x(), out.data(), input.size()); },
            [&](int k) { return sample.digest(out.data(), input.size(), seed, k); });
    }
};

}  // namespace

BOOK_GRADE_EXPORTS(e) {
    book::use_allocated_gpu();  // the GPU CTest allocated, where it did
    e.add("stencil_of", [](Floats in) { return Floats{ch02ex5test::stencil_of(in.values)}; });
    static Harness& harness = *new Harness;  // never destroyed: no cudaFree after the runtime ends
    e.timed("stencil", {[](const book::grade::json& p) { harness.prepare(p); },
                        [](std::uint64_t seed, bool null) { return harness.go(seed, null); }});
}
#else
std::vector<float> ch02ex5test::stencil_of(const std::vector<float>& in) {
    return book::grade::call<Floats>("stencil_of", Floats{in}).values;
}
#endif
