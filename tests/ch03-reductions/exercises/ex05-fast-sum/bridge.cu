// Exercise 3.5's bridge (tools/grader/judge/grade_bridge.hpp): sum_of, run in the
// worker (which owns the GPU), and the timed harness "sum" of the speed points
// (tools/grader/speed.py). Host code: the harness moves memory with the runtime
// API only.
//
// The harness's inputs: at "#prepare", a pool of 2^24 + 2^20 whole numbers from -8
// to 8 drawn from the round's seed (the same for the reference's worker and the
// student's; not secret). At "#go", with the clock running, for each of the calls:
// the input is the pool from an offset drawn from the secret seed, with a patch of
// 4096 fresh values at a place drawn from it (so no answer can be looked up from
// the pool: every value must be read), the L2 flushed (a buffer of twice its size
// written), sum() called, and the device waited for. Back: every sum.
#include "book/device.hpp"
#include "fast_sum.cuh"
#include "grade_bridge.hpp"
#include "sum_check.cuh"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

using Floats = book::grade::packed<float>;

#ifdef BOOK_GRADE_WORKER
float ch03ex5test::sum_of(const std::vector<float>& x, std::size_t offset) {
    return sum_of_here(x, offset);
}

namespace {

std::uint64_t splitmix(std::uint64_t& s) {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

float whole(std::uint64_t& s) { return static_cast<float>(static_cast<int>(splitmix(s) % 17) - 8); }

struct Harness {
    static constexpr std::size_t kSlack = std::size_t{1} << 20;
    static constexpr std::size_t kPatch = 4096;
    std::size_t n = 0;
    int calls = 0;
    book::device_buffer<float> pool, x, out, scratch;
    book::device_buffer<unsigned char> flush;
    std::vector<float> patch = std::vector<float>(kPatch);

    void prepare(const book::grade::json& p) {
        n = p.at("size").get<std::size_t>();
        calls = p.at("calls").get<int>();
        const auto round = p.value("round", std::uint64_t{0});
        if (n < 2 * kPatch || n > (std::size_t{1} << 28) || calls < 1 || calls > 1000)
            throw std::invalid_argument("sum harness: size 8192 to 2^28, calls 1 to 1000");
        std::vector<float> host(n + kSlack);
        std::uint64_t s = round;
        for (float& v : host) v = whole(s);
        pool = book::device_buffer<float>(host.size());
        pool.from_host(host);
        x = book::device_buffer<float>(n);
        out = book::device_buffer<float>(static_cast<std::size_t>(calls));
        scratch = book::device_buffer<float>(ch03ex5::kScratchFloats);
        int device = 0, l2 = 0;
        BOOK_CUDA_CHECK(cudaGetDevice(&device));
        BOOK_CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
        flush =
            book::device_buffer<unsigned char>(2 * static_cast<std::size_t>(std::max(l2, 1 << 20)));
        // The warm-up (module loading, first launches), outside the clock.
        BOOK_CUDA_CHECK(cudaMemcpy(x.data(), pool.data(), x.bytes(), cudaMemcpyDeviceToDevice));
        ch03ex5::sum(x.data(), n, out.data(), scratch.data());
        BOOK_CUDA_CHECK(cudaDeviceSynchronize());
    }

    book::grade::json go(std::uint64_t seed, bool null) {
        std::uint64_t s = seed;
        for (int k = 0; k < calls; ++k) {
            const std::size_t from = splitmix(s) % kSlack;
            const std::size_t at = splitmix(s) % (n - kPatch);
            for (float& v : patch) v = whole(s);
            BOOK_CUDA_CHECK(cudaMemcpyAsync(x.data(), pool.data() + from, x.bytes(),
                                            cudaMemcpyDeviceToDevice, nullptr));
            BOOK_CUDA_CHECK(cudaMemcpy(x.data() + at, patch.data(), kPatch * sizeof(float),
                                       cudaMemcpyHostToDevice));
            BOOK_CUDA_CHECK(cudaMemsetAsync(flush.data(), k & 0xff, flush.bytes(), nullptr));
            if (!null) ch03ex5::sum(x.data(), n, out.data() + k, scratch.data());
            BOOK_CUDA_CHECK(cudaDeviceSynchronize());
        }
        const auto sums = out.to_host();
        auto answer = book::grade::json::array();
        for (int k = 0; k < calls; ++k)
            answer.push_back(null ? 0.0f : sums[static_cast<std::size_t>(k)]);
        return answer;
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
