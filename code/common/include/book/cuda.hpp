/// @file cuda.hpp
/// @brief The CUDA helpers every GPU program of the book uses: error checks,
/// the program wrapper, device provenance, timing with CUDA events, and
/// device memory that cleans up after itself.
///
/// A program's `main` is one line, `return book::gpu_main(argc, argv, run);`.
/// Without a GPU the program says so and exits 77 (the runner and CTest read
/// that as "skipped"); a failing CUDA call throws book::cuda_error, which names
/// the call, the file and the line, and the program exits 1.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace book {

// ---------------------------------------------------------------------------
// Errors

/// A CUDA call failed. Holds the call's source text, where it was made, and
/// the error code; `what()` says all of it in one line.
class cuda_error : public std::runtime_error {
public:
    /// @param code the error the call returned
    /// @param call the call as written in the source (for example `cudaMalloc(&p, n)`)
    /// @param file the source file of the call
    /// @param line the line of the call
    cuda_error(cudaError_t code, std::string call, std::string file, int line);

    /// The error the call returned.
    cudaError_t code() const noexcept { return code_; }
    /// The call as written in the source.
    const std::string& call() const noexcept { return call_; }
    /// The source file of the call.
    const std::string& file() const noexcept { return file_; }
    /// The line of the call.
    int line() const noexcept { return line_; }

private:
    cudaError_t code_;
    std::string call_;
    std::string file_;
    int line_;
};

/// Throw book::cuda_error when `status` is not `cudaSuccess`; do nothing otherwise.
/// Use it through BOOK_CUDA_CHECK, which fills in the call text, file and line.
void cuda_check(cudaError_t status, const char* call_text, const char* file, int line);

/// Check one CUDA runtime call: `BOOK_CUDA_CHECK(cudaMalloc(&p, bytes));`
#define BOOK_CUDA_CHECK(call) ::book::cuda_check((call), #call, __FILE__, __LINE__)

/// Check the kernel launch just made (a bad configuration shows up here, not
/// at the `<<<...>>>` itself). Errors inside the kernel appear at the next
/// synchronizing call, which BOOK_CUDA_CHECK catches.
#define BOOK_CHECK_LAUNCH() \
    ::book::cuda_check(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)

/// There is no usable CUDA GPU. Thrown by book::require_gpu; book::gpu_main
/// turns it into exit status 77 ("skipped").
struct no_gpu : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Make sure a CUDA GPU is there.
/// @throws book::no_gpu when cudaGetDeviceCount fails or counts no device.
void require_gpu();

// ---------------------------------------------------------------------------
// The program wrapper and provenance

/// Run a GPU program's body and turn what can go wrong into an exit status.
///
/// Calls book::require_gpu, selects the GPU that CTest allocated to the test
/// (`CTEST_RESOURCE_GROUP_0_GPUS`, when set), then book::report_device_provenance, then
/// `body(argc, argv)`, and returns what the body returns. Without a GPU it
/// prints `<program>: skipped: no CUDA GPU (<reason>)` to stderr and returns 77.
/// On book::cuda_error or any other std::exception it prints
/// `<program>: error: <what>` to stderr and returns 1.
int gpu_main(int argc, char** argv, int (*body)(int, char**));

/// Report the current device as run provenance (book::report_provenance):
/// `gpu_name`, `compute_capability` (like `9.0`), `sm_count`,
/// `driver_version` and `runtime_version` (like `13.0`), and
/// `cuda_device_index`. Also prints one line about the device to stdout.
/// Launches no kernel, so it loads no module.
void report_device_provenance();

/// One integer attribute of the current device (cudaDeviceGetAttribute).
int device_attribute(cudaDeviceAttr attribute);

/// The current device's L2 cache size in bytes.
std::size_t l2_cache_bytes();

// ---------------------------------------------------------------------------
// Device memory

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
        if (host.size() != n_) throw std::invalid_argument("device_buffer::from_host: size mismatch");
        if (n_ > 0) BOOK_CUDA_CHECK(cudaMemcpy(p_, host.data(), bytes(), cudaMemcpyHostToDevice));
    }

private:
    T* p_ = nullptr;
    std::size_t n_ = 0;
};

/// A 32-bit pseudo-random value, the same on host and device, from a seed and
/// an index (a counter-based hash). Never zero, so a kernel never times zeros.
__host__ __device__ inline std::uint32_t random_u32(std::uint64_t seed, std::uint64_t index) {
    std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + index + 0x632BE59BD9B4E019ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    const auto r = static_cast<std::uint32_t>(z >> 32);
    return r != 0u ? r : 0x9E3779B9u;
}

/// Fill `d[0..n)` with `random_u32(seed, i)` on the device (one kernel launch,
/// checked; returns without waiting for it).
void fill_random_u32(std::uint32_t* d, std::size_t n, std::uint64_t seed);

/// `k` device arrays of `n` elements each, handed out in turn, so that timed
/// runs read input that is not left in the L2 cache by the run before.
///
/// `k` is the smallest count with `k * n * sizeof(T) >= 2 * L2 size` (the L2
/// size is read from the device), at least 2, and at least `min_count`. Ask
/// for `min_count` = warm-up + timed repetitions and every launch gets its own
/// array. The arrays lie in one allocation, each starting on a 256-byte
/// boundary; fill them all at once through all() and total().
template <class T>
class RotatingBuffers {
public:
    /// @param n elements in each array
    /// @param min_count the fewest arrays to make
    explicit RotatingBuffers(std::size_t n, std::size_t min_count = 2) : n_(n) {
        if (n_ == 0) throw std::invalid_argument("RotatingBuffers: n must be positive");
        const std::size_t align = sizeof(T) < 256 && 256 % sizeof(T) == 0 ? 256 / sizeof(T) : 1;
        stride_ = (n_ + align - 1) / align * align;
        const std::size_t want = 2 * l2_cache_bytes();
        const std::size_t per = n_ * sizeof(T);
        count_ = std::max<std::size_t>({2, min_count, (want + per - 1) / per});
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

// ---------------------------------------------------------------------------
// Timing

/// Times of repeated runs of one thing, in milliseconds.
struct TimingStats {
    int reps;          ///< how many timed repetitions
    double median_ms;  ///< the median: the number the book quotes
    double min_ms;     ///< the fastest repetition
    double max_ms;     ///< the slowest repetition
    double p10_ms;     ///< 10th percentile (linear interpolation)
    double p90_ms;     ///< 90th percentile (linear interpolation)
};

/// Summarise repetition times (milliseconds) into book::TimingStats.
/// @throws std::invalid_argument if `ms` is empty.
TimingStats summarize_times(std::vector<double> ms);

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
TimingStats time_launches(F&& launch, int warmup, int reps) {
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

/// Bring the GPU to its working clocks before measuring: call `launch()`
/// again and again (waiting after each) until `ms` milliseconds have passed.
/// An idle GPU runs at low clocks and takes a moment to speed up; the first
/// configuration timed would otherwise look slower than the rest.
template <class F>
void warm_up_clocks(F&& launch, double ms) {
    const auto start = std::chrono::steady_clock::now();
    do {
        launch();
        BOOK_CHECK_LAUNCH();
        BOOK_CUDA_CHECK(cudaDeviceSynchronize());
    } while (std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                 .count() < ms);
}

/// Report timing stats as results: `<name>_ms` (the median), `<name>_p10_ms`,
/// `<name>_p90_ms`, `<name>_min_ms`, `<name>_max_ms` (unit `ms`) and
/// `<name>_reps` (unit `count`).
void report_timing(std::string_view name, const TimingStats& stats);

}  // namespace book
