/// @file memory.hpp
/// @brief Device memory that cleans up after itself: book::device_buffer, and
/// book::rotating_buffers for timed runs that must not find their input in L2.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <utility>
#include <vector>

#include "book/device.hpp"
#include "book/errors.hpp"

namespace book {

/// An array of `T` in device memory with one owner: allocated by the
/// constructor, freed by the destructor, movable, not copyable.
template <class T>
class device_buffer {
public:
    /// An empty buffer (no allocation).
    device_buffer() = default;
    /// Allocate `n` elements (uninitialised).
    explicit device_buffer(std::size_t n) : n_(n) {
        if (n_ > 0) BOOK_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&p_), bytes()));
    }
    ~device_buffer() {
        if (p_ != nullptr) cudaFree(p_);  // a destructor must not throw
    }
    device_buffer(const device_buffer&) = delete;
    device_buffer& operator=(const device_buffer&) = delete;
    /// Take over another buffer's allocation, leaving it empty.
    device_buffer(device_buffer&& other) noexcept
        : p_(std::exchange(other.p_, nullptr)), n_(std::exchange(other.n_, 0)) {}
    /// Free this buffer's allocation and take over another's, leaving it empty.
    device_buffer& operator=(device_buffer&& other) noexcept {
        if (this != &other) {
            if (p_ != nullptr) cudaFree(p_);
            p_ = std::exchange(other.p_, nullptr);
            n_ = std::exchange(other.n_, 0);
        }
        return *this;
    }

    /// The device pointer (do not dereference it on the host).
    T* data() const noexcept { return p_; }
    /// The number of elements.
    std::size_t size() const noexcept { return n_; }
    /// The size in bytes.
    std::size_t bytes() const noexcept { return n_ * sizeof(T); }

    /// Copy all elements to the host.
    std::vector<T> to_host() const {
        std::vector<T> host(n_);
        if (n_ > 0) BOOK_CUDA_CHECK(cudaMemcpy(host.data(), p_, bytes(), cudaMemcpyDeviceToHost));
        return host;
    }
    /// Copy `host` (exactly size() elements) to the device.
    void from_host(const std::vector<T>& host) {
        if (host.size() != n_)
            throw std::invalid_argument("device_buffer::from_host: size mismatch");
        if (n_ > 0) BOOK_CUDA_CHECK(cudaMemcpy(p_, host.data(), bytes(), cudaMemcpyHostToDevice));
    }

private:
    T* p_ = nullptr;
    std::size_t n_ = 0;
};

/// `k` device arrays of `n` elements each, handed out in turn, so that timed
/// runs read input that is not left in the L2 cache by the run before.
///
/// `k` is the smallest count with `k * n * sizeof(T) >= 2 * L2 size` (the L2
/// size is read from the device), at least 2, and at least `min_count`. Ask
/// for `min_count` = warm-up + timed repetitions and every launch gets its own
/// array. The arrays lie in one allocation, each starting on a 256-byte
/// boundary; fill them all at once through all() and total().
template <class T>
class rotating_buffers {
public:
    /// @param n elements in each array
    /// @param min_count the fewest arrays to make
    explicit rotating_buffers(std::size_t n, std::size_t min_count = 2) : n_(n) {
        if (n_ == 0) throw std::invalid_argument("rotating_buffers: n must be positive");
        const std::size_t align = sizeof(T) < 256 && 256 % sizeof(T) == 0 ? 256 / sizeof(T) : 1;
        stride_ = (n_ + align - 1) / align * align;
        const std::size_t want = 2 * l2_cache_bytes();
        const std::size_t per = n_ * sizeof(T);
        count_ = (want + per - 1) / per;  // the largest of this, 2 and min_count
        if (count_ < 2) count_ = 2;
        if (count_ < min_count) count_ = min_count;
        storage_ = device_buffer<T>(count_ * stride_);
    }

    /// The next array in turn (after the last comes the first again).
    T* next() noexcept {
        T* p = storage_.data() + next_ * stride_;
        next_ = (next_ + 1) % count_;
        return p;
    }
    /// Start the turn again at the first array.
    void rewind() noexcept { next_ = 0; }
    /// Array number `i` (0 <= i < count()).
    T* slot(std::size_t i) const noexcept { return storage_.data() + (i % count_) * stride_; }
    /// How many arrays there are.
    std::size_t count() const noexcept { return count_; }
    /// Elements in each array.
    std::size_t size() const noexcept { return n_; }
    /// The whole allocation (all arrays, with padding between them).
    T* all() const noexcept { return storage_.data(); }
    /// Elements in the whole allocation.
    std::size_t total() const noexcept { return count_ * stride_; }
    /// Bytes in the whole allocation.
    std::size_t bytes() const noexcept { return storage_.bytes(); }

private:
    std::size_t n_ = 0, stride_ = 0, count_ = 0, next_ = 0;
    device_buffer<T> storage_;
};

}  // namespace book
