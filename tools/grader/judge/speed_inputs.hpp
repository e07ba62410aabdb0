/// @file speed_inputs.hpp
/// @brief What every GPU exercise's timed harness (grade_worker.hpp, Timed) does the
/// same way, in one place: the inputs of each timed call, drawn from the secret seed,
/// the L2 flush before each call, and the loop of calls itself. Host code (the
/// CUDA runtime API only), compiled into the worker with an exercise's bridge.
///
/// The inputs: at "#prepare", a pool of n + kSlack values drawn from the round's
/// seed (the same for the reference's worker and the student's; not secret). At
/// "#go", for each call k, the call's input is the pool from an offset drawn from
/// the secret seed, with a patch of kPatch fresh values at a place drawn from it:
/// no answer can be looked up from the pool, since every value must be read to find
/// the patch. Every draw is book::random_u32(seed, index), the book's counter-based
/// hash (book/random.hpp), at an index of its own.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "book/cuda.hpp"
#include "book/memory.hpp"
#include "book/random.hpp"
#include "grade_worker.hpp"

namespace book::grade::speed {

/// A 64-bit draw: two of random_u32's, at indices 2i and 2i + 1.
inline std::uint64_t draw64(std::uint64_t seed, std::uint64_t i) {
    return (std::uint64_t{book::random_u32(seed, 2 * i)} << 32) | book::random_u32(seed, 2 * i + 1);
}

/// A whole number from -8 to 8 (exact in float, and every sum of 2^20 of them
/// too, in any order).
inline float whole(std::uint64_t seed, std::uint64_t i) {
    return static_cast<float>(static_cast<int>(book::random_u32(seed, i) % 17u) - 8);
}

/// The L2 flushed before each timed call: a buffer of twice the L2's size written.
class l2_flush {
public:
    /// Allocate the buffer, for the current device's L2 (in prepare).
    void allocate() {
        int device = 0, l2 = 0;
        BOOK_CUDA_CHECK(cudaGetDevice(&device));
        BOOK_CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
        buf_ =
            book::device_buffer<unsigned char>(2 * static_cast<std::size_t>(std::max(l2, 1 << 20)));
    }
    /// Write the whole buffer (with a value of call k's), on the default stream.
    void operator()(int k) const {
        BOOK_CUDA_CHECK(cudaMemsetAsync(buf_.data(), k & 0xff, buf_.bytes(), nullptr));
    }

private:
    book::device_buffer<unsigned char> buf_;
};

/// Each call's input, n values of T cut from a pool and patched (see the file's
/// doc), copied into an array of its own (x(): as aligned as cudaMalloc's).
template <class T>
class pooled_input {
public:
    static constexpr std::size_t kSlack = std::size_t{1} << 20;
    static constexpr std::size_t kPatch = 4096;

    /// The pool, from the round's seed: value(round, i) for i < n + kSlack.
    template <class Value>
    void prepare(std::size_t n, std::uint64_t round, Value value) {
        if (n < 2 * kPatch) throw std::invalid_argument("speed inputs: at least 8192 values");
        n_ = n;
        std::vector<T> host(n + kSlack);
        for (std::size_t i = 0; i < host.size(); ++i) host[i] = value(round, i);
        pool_ = book::device_buffer<T>(host.size());
        pool_.from_host(host);
        x_ = book::device_buffer<T>(n);
        BOOK_CUDA_CHECK(cudaMemcpy(x_.data(), pool_.data(), x_.bytes(), cudaMemcpyDeviceToDevice));
        patch_.assign(kPatch, T{});
    }

    /// Call k's input, from the secret seed: the pool from its offset, then the
    /// patch (value(seed, ...) at indices of call k's own), in x().
    template <class Value>
    void cut(std::uint64_t seed, int k, Value value) {
        const auto base = static_cast<std::uint64_t>(k) * (kPatch + 4);
        const std::size_t from = draw64(seed, base) % kSlack;
        const std::size_t at = draw64(seed, base + 1) % (n_ - kPatch);
        for (std::size_t j = 0; j < kPatch; ++j) patch_[j] = value(seed, 2 * (base + 2) + j);
        BOOK_CUDA_CHECK(cudaMemcpyAsync(x_.data(), pool_.data() + from, x_.bytes(),
                                        cudaMemcpyDeviceToDevice, nullptr));
        BOOK_CUDA_CHECK(
            cudaMemcpy(x_.data() + at, patch_.data(), kPatch * sizeof(T), cudaMemcpyHostToDevice));
    }

    T* x() const { return x_.data(); }
    std::size_t size() const { return n_; }

private:
    std::size_t n_ = 0;
    book::device_buffer<T> pool_, x_;
    std::vector<T> patch_;
};

/// A digest of call k's output (n floats of device memory), copied back within the
/// clock: about 4096 runs of 4 consecutive outputs a stride apart over the whole
/// output, the stride and the phase drawn from the secret seed (one
/// cudaMemcpy2D), and the first 4 and the last 4
/// outputs; every output where n is small. For an output too large to send back
/// whole: a worker that skips a stretch of outputs longer than the stride (n / 4096
/// or so), or leaves a former call's there, is caught at places it cannot know. The
/// digest is 53 bits of FNV-1a over their bits: a whole number exact in a double,
/// equal to the reference's exactly when every sampled output is.
class sampled_output {
public:
    static constexpr std::size_t kRuns = 4096, kRun = 4;

    double digest(const float* out, std::size_t n, std::uint64_t seed, int k) {
        if (n <= 2 * kRuns * kRun) {
            host_.resize(n);
            BOOK_CUDA_CHECK(
                cudaMemcpy(host_.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost));
        } else {
            // Indices far above those of pooled_input's draws.
            const auto at = (std::uint64_t{1} << 60) + 2 * static_cast<std::uint64_t>(k);
            // Runs a stride apart over the whole output, from a phase below the stride:
            // the stride from 15/16 of the widest that fits kRuns runs, to it.
            const std::size_t most = (n - kRun) / (kRuns - 1);
            const std::size_t stride = most - draw64(seed, at) % (most / 16 + 1);
            const std::size_t phase = draw64(seed, at + 1) % (stride - kRun + 1);
            const std::size_t runs = (n - kRun - phase) / stride + 1;
            host_.resize(runs * kRun + 2 * kRun);
            BOOK_CUDA_CHECK(cudaMemcpy2D(host_.data(), kRun * sizeof(float), out + phase,
                                         stride * sizeof(float), kRun * sizeof(float), runs,
                                         cudaMemcpyDeviceToHost));
            BOOK_CUDA_CHECK(cudaMemcpy(host_.data() + runs * kRun, out, kRun * sizeof(float),
                                       cudaMemcpyDeviceToHost));
            BOOK_CUDA_CHECK(cudaMemcpy(host_.data() + runs * kRun + kRun, out + n - kRun,
                                       kRun * sizeof(float), cudaMemcpyDeviceToHost));
        }
        std::uint64_t h = 0xcbf29ce484222325ull;
        for (const float v : host_) {
            std::uint32_t bits = 0;
            std::memcpy(&bits, &v, sizeof bits);
            for (int b = 0; b < 4; ++b) h = (h ^ ((bits >> (8 * b)) & 0xffu)) * 0x100000001b3ull;
        }
        return static_cast<double>(h & ((std::uint64_t{1} << 53) - 1));
    }

private:
    std::vector<float> host_;
};

/// The harness's parameters every exercise shares: "size" (values per input, from
/// 8192 to `max_size`) and "calls" (per timed span, 1 to 1000); "round", the
/// round's seed (0 where absent).
struct params {
    std::size_t size = 0;
    int calls = 0;
    std::uint64_t round = 0;
};

inline params read_params(const json& p, std::size_t max_size, const char* harness) {
    params r;
    r.size = p.at("size").get<std::size_t>();
    r.calls = p.at("calls").get<int>();
    r.round = p.value("round", std::uint64_t{0});
    if (r.size < 2 * pooled_input<float>::kPatch || r.size > max_size || r.calls < 1 ||
        r.calls > 1000)
        throw std::invalid_argument(std::string(harness) + " harness: size 8192 to " +
                                    std::to_string(max_size) + ", calls 1 to 1000");
    return r;
}

/// The timed calls of one "#go": for each call k, make(k) makes its input,
/// flush(k) flushes the L2, call(k) runs the student's code (not with null: the
/// harness alone), the device is waited for, and answer(k) is its output (a
/// number; 0 with null). Back: every output, in order.
template <class Make, class Call, class Answer>
json timed_calls(int calls, bool null, const l2_flush& flush, Make make, Call call, Answer answer) {
    auto out = json::array();
    for (int k = 0; k < calls; ++k) {
        make(k);
        flush(k);
        if (!null) call(k);
        BOOK_CUDA_CHECK(cudaDeviceSynchronize());
        out.push_back(answer(k));
    }
    if (null)
        for (auto& v : out) v = 0;
    return out;
}

}  // namespace book::grade::speed
