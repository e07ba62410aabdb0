// stencil: the chapter's stencil kernels, checked against the CPU and timed
// against cudaMemcpy.
//
//   out[i] = in[i-R] + ... + in[i+R], values outside [0, n) counting as 0.
//
// Modes:
//   (default)  the steps at one radius (R = 3) on 2^28 floats: each kernel's
//              median time beside cudaMemcpy device-to-device in the same run,
//              each kernel's output checked in full; best_over_copy, the best
//              of the steps (the tuning variants are --tune's).
//   --sweep    the R sweep: plain, vec_x4, tiled_vec_x4, tiled_async_x4 at R = 1 .. 128.
//   --tune     R = 3, the vector kernels at 1, 2, 4, 8 float4s per thread and
//              128 .. 1024 threads per block (for exploring; not checked).
//   --check    every kernel at every compiled radius, at sizes around the block
//              sizes, n = 0, n = 1, n < R, against the CPU reference: exactly for
//              small-integer input, within the rounding bound for real input.
//   --profile  each kernel launched once (for Nsight Compute).
// Timing: CUDA events after warm-up, the median of --reps launches; each launch
// reads one of two input arrays in turn, each far larger than the L2 cache,
// filled with random integers 1..16 (non-zero, and exact in any summation order).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "book/cuda.hpp"
#include "book/options.hpp"
#include "book/report.hpp"
#include "stencil_host.hpp"
#include "stencil_suite.cuh"

namespace {

using ch02::kernel_info;

constexpr std::uint64_t kSeed = 20250101;

// Integers 1..16 (reals == 0), or reals of either sign with 0.5 <= |x| < 1.5.
__global__ void fill_inputs(float* d, long long n, std::uint64_t seed, int reals) {
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
         i += stride) {
        const std::uint32_t r = book::random_u32(seed, static_cast<std::uint64_t>(i));
        if (reals == 0) {
            d[i] = 1.0f + static_cast<float>(r >> 28);
        } else {
            const float m = 0.5f + static_cast<float>(r >> 8) * (1.0f / 16777216.0f);
            d[i] = (r & 1u) != 0u ? -m : m;
        }
    }
}

void fill(float* d, long long n, std::uint64_t seed, bool reals) {
    if (n == 0) return;
    const long long blocks = std::min<long long>((n + 255) / 256, 4096);
    fill_inputs<<<static_cast<unsigned>(blocks), 256>>>(d, n, seed, reals ? 1 : 0);
    BOOK_CHECK_LAUNCH();
}

std::vector<float> to_host(const float* d, long long n) {
    std::vector<float> h(static_cast<std::size_t>(n));
    if (n > 0) BOOK_CUDA_CHECK(cudaMemcpy(h.data(), d, sizeof(float) * n, cudaMemcpyDeviceToHost));
    return h;
}

// Poison the output (all bits set: a NaN), run the kernel once, read it back.
std::vector<float> run_once(const kernel_info& k, const float* in, float* out, long long n,
                            int threads) {
    if (n > 0) BOOK_CUDA_CHECK(cudaMemset(out, 0xFF, sizeof(float) * n));
    k.launch(in, out, n, threads);
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());
    return to_host(out, n);
}

// ---------------------------------------------------------------------------
// --check

std::vector<long long> check_sizes(int radius, bool quick) {
    const long long r = radius;
    std::vector<long long> s = quick ? std::vector<long long>{0, 1, r + 1, 3 * 4096 + 5}
                                     : std::vector<long long>{0,
                                                              1,
                                                              2,
                                                              3,
                                                              4,
                                                              5,
                                                              7,
                                                              r - 1,
                                                              r,
                                                              r + 1,
                                                              2 * r,
                                                              2 * r + 1,
                                                              2 * r + 2,
                                                              31,
                                                              33,
                                                              255,
                                                              257,
                                                              1000,
                                                              1023,
                                                              1025,
                                                              4095,
                                                              4097,
                                                              8193,
                                                              16385,
                                                              3 * 4096 + 5,
                                                              100003,
                                                              (1 << 20) + 3};
    s.erase(std::remove_if(s.begin(), s.end(), [](long long n) { return n < 0; }), s.end());
    std::sort(s.begin(), s.end());
    s.erase(std::unique(s.begin(), s.end()), s.end());
    return s;
}

int check_mode(bool quick) {
    const std::vector<int> radii = quick ? std::vector<int>{3, 33} : ch02::compiled_radius_list();
    const std::vector<int> block_sizes =
        quick ? std::vector<int>{256} : std::vector<int>{96, 256, 1024};
    const std::vector<bool> kinds =
        quick ? std::vector<bool>{false} : std::vector<bool>{false, true};
    ch02::comparison integers, reals;
    long long cases = 0, failed_cases = 0;
    std::printf("\n%-14s %6s %s\n", "kernel", "R", "result over all sizes, block sizes and inputs");
    for (int radius : radii) {
        const std::vector<kernel_info> kernels = ch02::stencil_kernels(radius);
        std::vector<ch02::comparison> per_kernel(kernels.size());
        for (long long n : check_sizes(radius, quick)) {
            book::device_buffer<float> in(static_cast<std::size_t>(n)),
                out(static_cast<std::size_t>(n));
            for (bool real : kinds) {
                fill(in.data(), n, kSeed + static_cast<std::uint64_t>(n) + (real ? 7 : 0), real);
                const std::vector<float> host_in = to_host(in.data(), n);
                const std::vector<double> want =
                    real ? ch02::stencil_reference(host_in, radius)
                         : ch02::stencil_reference_integers(host_in, radius);
                const std::vector<double> scale =
                    real ? ch02::window_abs_sums(host_in, radius) : std::vector<double>{};
                for (std::size_t k = 0; k < kernels.size(); ++k)
                    for (int threads : block_sizes) {
                        const std::vector<float> got =
                            run_once(kernels[k], in.data(), out.data(), n, threads);
                        const ch02::comparison c =
                            real ? ch02::compare_within_tolerance(got, want, scale, radius)
                                 : ch02::compare_exact(got, want);
                        ++cases;
                        if (c.mismatches > 0) {
                            ++failed_cases;
                            std::printf("MISMATCH %s R=%d n=%lld threads=%d %s input: %s\n",
                                        kernels[k].name.c_str(), radius, n, threads,
                                        real ? "real" : "integer", ch02::describe(c).c_str());
                        }
                        ch02::merge(real ? reals : integers, c);
                        ch02::merge(per_kernel[k], c);
                    }
            }
        }
        for (std::size_t k = 0; k < kernels.size(); ++k)
            std::printf("%-14s %6d %s\n", kernels[k].name.c_str(), radius,
                        ch02::describe(per_kernel[k]).c_str());
    }
    book::report("check_cases", static_cast<double>(cases), "count");
    book::report("check_failed_cases", static_cast<double>(failed_cases), "count");
    book::report("mismatches", static_cast<double>(integers.mismatches + reals.mismatches),
                 "count");
    book::report("mismatches_integer_input", static_cast<double>(integers.mismatches), "count");
    book::report("mismatches_real_input", static_cast<double>(reals.mismatches), "count");
    book::report("max_abs_error_integer_input", integers.max_abs_error, "abs");
    if (!quick) {
        book::report("max_abs_error_real_input", reals.max_abs_error, "abs");
        book::report("max_error_over_tolerance", reals.max_error_over_tolerance, "ratio");
    }
    std::printf("\n%lld cases (kernel x radius x size x block size x input), %lld failed\n", cases,
                failed_cases);
    std::printf("integer input (exact compare): %s\n", ch02::describe(integers).c_str());
    if (!quick)
        std::printf("real input (within the rounding bound): %s, largest error / bound %.3f\n",
                    ch02::describe(reals).c_str(), reals.max_error_over_tolerance);
    return 0;
}

// ---------------------------------------------------------------------------
// Timing

// Page-locked host memory (fast copies from the device), freed by its destructor.
class pinned_floats {
public:
    explicit pinned_floats(long long n) {
        if (n > 0)
            BOOK_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&p_), sizeof(float) * n));
    }
    ~pinned_floats() {
        if (p_ != nullptr) cudaFreeHost(p_);
    }
    pinned_floats(const pinned_floats&) = delete;
    pinned_floats& operator=(const pinned_floats&) = delete;
    float* data() const { return p_; }

private:
    float* p_ = nullptr;
};

struct bench {
    long long n;
    int threads, warmup, reps;
    book::rotating_buffers<float> input;  // two arrays (each > 2x L2), read in turn
    book::device_buffer<float> out;
    pinned_floats slot0, got;  // the first array and an output, on the host
    double copy_ms = 0.0;

    bench(long long n_, int threads_, int warmup_, int reps_)
        : n(n_),
          threads(threads_),
          warmup(warmup_),
          reps(reps_),
          input(static_cast<std::size_t>(n_), 2),
          out(static_cast<std::size_t>(n_)),
          slot0(n_),
          got(n_) {
        for (std::size_t s = 0; s < input.count(); ++s)
            fill(input.slot(s), n, kSeed + 1000 + s, false);
        BOOK_CUDA_CHECK(
            cudaMemcpy(slot0.data(), input.slot(0), sizeof(float) * n, cudaMemcpyDeviceToHost));
    }

    book::timing_stats time(const kernel_info& k) {
        input.rewind();
        return book::time_launches([&] { k.launch(input.next(), out.data(), n, threads); }, warmup,
                                   reps);
    }

    book::timing_stats time_copy() {
        input.rewind();
        const std::size_t bytes = sizeof(float) * static_cast<std::size_t>(n);
        return book::time_launches(
            [&] {
                BOOK_CUDA_CHECK(
                    cudaMemcpyAsync(out.data(), input.next(), bytes, cudaMemcpyDeviceToDevice, 0));
            },
            warmup, reps);
    }

    // Mismatches of one launch on the first array against the CPU (all n outputs).
    long long check(const kernel_info& k, int radius) {
        BOOK_CUDA_CHECK(cudaMemset(out.data(), 0xFF, sizeof(float) * n));  // poison: a NaN
        k.launch(input.slot(0), out.data(), n, threads);
        BOOK_CUDA_CHECK(
            cudaMemcpy(got.data(), out.data(), sizeof(float) * n, cudaMemcpyDeviceToHost));
        if (k.copy) {
            long long bad = 0;
            for (long long i = 0; i < n; ++i) bad += got.data()[i] == slot0.data()[i] ? 0 : 1;
            return bad;
        }
        return ch02::compare_integers(got.data(), slot0.data(), n, radius).mismatches;
    }

    // Bytes a copy of n floats moves (read + written) per second, in GB/s.
    double gbps(double ms) const {
        return 2.0 * sizeof(float) * static_cast<double>(n) / (ms * 1e6);
    }
};

void warm_up(bench& b) {
    const kernel_info& plain = ch02::find_kernel(ch02::stencil_kernels(3), "plain");
    book::warm_up_clocks([&] { plain.launch(b.input.slot(0), b.out.data(), b.n, 256); }, 200.0);
}

int steps_mode(long long n, int radius, int threads, int warmup, int reps) {
    bench b(n, threads, warmup, reps);
    warm_up(b);
    const book::timing_stats copy = b.time_copy();
    b.copy_ms = copy.median_ms;
    book::report_timing("copy", copy);
    book::report("copy_gbps", b.gbps(copy.median_ms), "GB/s");
    book::report("n", static_cast<double>(n), "count");
    book::report("radius", radius, "count");
    book::report("threads", threads, "threads");

    std::vector<kernel_info> kernels = ch02::copy_kernels();
    for (const kernel_info& k : ch02::stencil_kernels(radius))
        if (!k.variant) kernels.push_back(k);  // the variants are --tune's
    std::printf(
        "\nR = %d, n = %lld floats (%.0f MiB in, as much out), %d threads per block, "
        "median of %d launches\n",
        radius, n, 4.0 * n / (1 << 20), threads, reps);
    std::printf("%-14s %-44s %7s %7s %8s %9s %8s %7s %6s\n", "kernel", "idea", "B/thr", "ld/out",
                "ms", "p10-p90", "GB/s", "x copy", "bad");
    std::printf("%-14s %-44s %7s %7s %8.4f %4.3f-%4.3f %8.0f %7.3f %6s\n", "cudaMemcpy",
                "device to device", "-", "-", copy.median_ms, copy.p10_ms, copy.p90_ms,
                b.gbps(copy.median_ms), 1.0, "-");
    long long bad_total = 0;
    double best = 0.0;
    std::string best_name = "none";
    for (const kernel_info& k : kernels) {
        const long long bad = b.check(k, radius);
        const book::timing_stats t = b.time(k);
        const double ratio = copy.median_ms / t.median_ms;
        book::report_timing(k.name, t);
        book::report(k.name + "_gbps", b.gbps(t.median_ms), "GB/s");
        book::report(k.name + "_over_copy", ratio, "ratio");
        book::report(k.name + "_mismatches", static_cast<double>(bad), "count");
        bad_total += bad;
        if (!k.copy && bad == 0 && ratio > best) {
            best = ratio;
            best_name = k.name;
        }
        std::printf("%-14s %-44s %7d %7.2f %8.4f %4.3f-%4.3f %8.0f %7.3f %6lld\n", k.name.c_str(),
                    k.idea.c_str(), k.bytes_in_flight_per_thread, k.global_loads_per_output,
                    t.median_ms, t.p10_ms, t.p90_ms, b.gbps(t.median_ms), ratio, bad);
    }
    const book::timing_stats copy_end = b.time_copy();  // the ceiling again, after all kernels
    book::report_timing("copy_end", copy_end);
    book::report("mismatches", static_cast<double>(bad_total), "count");
    book::report("best_over_copy", best, "ratio");
    book::report_text("best_kernel", best_name);
    std::printf("\ncudaMemcpy again at the end: %.4f ms (%.0f GB/s)\n", copy_end.median_ms,
                b.gbps(copy_end.median_ms));
    std::printf(
        "B/thr: input bytes a thread requests before it uses any; ld/out: global load "
        "instructions per output\n");
    std::printf(
        "best stencil: %s at %.3f of the cudaMemcpy bandwidth; mismatches against the "
        "CPU, all kernels, all outputs: %lld\n",
        best_name.c_str(), best, bad_total);
    return 0;
}

int sweep_mode(long long n, int threads, int warmup, int reps) {
    bench b(n, threads, warmup, reps);
    warm_up(b);
    const book::timing_stats copy = b.time_copy();
    book::report_timing("copy", copy);
    book::report("copy_gbps", b.gbps(copy.median_ms), "GB/s");
    const std::vector<std::string> names = {"plain", "vec_x4", "tiled_vec_x4", "tiled_async_x4"};
    std::printf(
        "\nn = %lld floats, %d threads per block; x copy = cudaMemcpy time / kernel time; "
        "Gadd/s = n (2R+1) / time\n",
        n, threads);
    std::printf("%5s", "R");
    for (const std::string& s : names)
        std::printf(" %14s %8s %8s", (s + " ms").c_str(), "x copy", "Gadd/s");
    std::printf("\n");
    long long bad_total = 0;
    for (int radius : ch02::kSweepRadii) {
        const std::vector<kernel_info> kernels = ch02::stencil_kernels(radius);
        std::printf("%5d", radius);
        for (const std::string& s : names) {
            const kernel_info& k = ch02::find_kernel(kernels, s);
            bad_total += b.check(k, radius);
            const book::timing_stats t = b.time(k);
            const std::string tag = "sweep_" + s + "_r" + std::to_string(radius);
            const double adds = static_cast<double>(n) * (2.0 * radius + 1.0) / (t.median_ms * 1e6);
            book::report(tag + "_ms", t.median_ms, "ms");
            book::report(tag + "_over_copy", copy.median_ms / t.median_ms, "ratio");
            book::report(tag + "_gadds", adds, "Gadd/s");
            std::printf(" %14.4f %8.3f %8.0f", t.median_ms, copy.median_ms / t.median_ms, adds);
        }
        std::printf("\n");
        std::fflush(stdout);
    }
    book::report("mismatches", static_cast<double>(bad_total), "count");
    std::printf("cudaMemcpy: %.4f ms; mismatches against the CPU, all kernels and radii: %lld\n",
                copy.median_ms, bad_total);
    return 0;
}

int tune_mode(long long n, int warmup, int reps) {
    const std::vector<std::string> names = {
        "plain",          "tiled",        "vec_x1",       "vec_x2",       "vec_x4",
        "vec_x8",         "tiled_vec_x1", "tiled_vec_x2", "tiled_vec_x4", "tiled_vec_x8",
        "tiled_async_x4", "copy_vec_x1",  "copy_vec_x4"};
    std::vector<kernel_info> all = ch02::stencil_kernels(3);
    for (const kernel_info& k : ch02::copy_kernels()) all.push_back(k);
    bench b(n, 256, warmup, reps);
    warm_up(b);
    const book::timing_stats copy = b.time_copy();
    book::report_timing("copy", copy);
    std::printf("\nR = 3, n = %lld: kernel time / cudaMemcpy time as x copy (%.4f ms)\n%-14s", n,
                copy.median_ms, "kernel");
    const std::vector<int> block_sizes = {128, 256, 512, 1024};
    for (int t : block_sizes) std::printf(" %10d", t);
    std::printf("   (threads per block)\n");
    for (const std::string& s : names) {
        const kernel_info& k = ch02::find_kernel(all, s);
        std::printf("%-14s", s.c_str());
        for (int t : block_sizes) {
            b.threads = t;
            const double ratio = copy.median_ms / b.time(k).median_ms;
            book::report("tune_" + s + "_t" + std::to_string(t) + "_over_copy", ratio, "ratio");
            std::printf(" %10.3f", ratio);
        }
        std::printf("\n");
        std::fflush(stdout);
    }
    return 0;
}

int profile_mode(long long n, int threads) {
    book::device_buffer<float> in(static_cast<std::size_t>(n)), out(static_cast<std::size_t>(n));
    fill(in.data(), n, kSeed, false);
    std::vector<kernel_info> kernels = ch02::stencil_kernels(3);
    kernels.erase(std::remove_if(kernels.begin(), kernels.end(),
                                 [](const kernel_info& k) { return k.variant; }),
                  kernels.end());
    kernels.push_back(ch02::find_kernel(ch02::copy_kernels(), "copy_vec_x4"));
    std::string order;
    for (const kernel_info& k : kernels) {
        k.launch(in.data(), out.data(), n, threads);
        order += (order.empty() ? "" : ", ") + k.name;
    }
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());
    std::printf("profiled R = 3, n = %lld, %d threads, one launch each, in this order: %s\n", n,
                threads, order.c_str());
    return 0;
}

int run(int argc, char** argv) {
    book::options opts(
        "The chapter's stencil kernels: checked against the CPU, timed against cudaMemcpy");
    bool check = false, sweep = false, tune = false, profile = false, quick = false;
    int log2n = 28, radius = 3, threads = 256, warmup = 3, reps = 20;
    opts.flag("--check", check, "check every kernel at every compiled radius against the CPU");
    opts.flag("--sweep", sweep, "time plain, vec_x4, tiled_vec_x4, tiled_async_x4 at R = 1 .. 128");
    opts.flag("--tune", tune, "R = 3: the vector kernels at several widths and block sizes");
    opts.flag("--profile", profile, "launch each kernel once at R = 3 (for Nsight Compute)");
    opts.flag("--quick", quick, "small sizes, for compute-sanitizer (with --check)");
    opts.option("--log2n", log2n, "n = 2^log2n floats for the timed modes", 10, 30);
    opts.option("--radius", radius, "the radius of the default mode (a compiled one)", 1, 128);
    opts.option("--threads", threads, "threads per block (default mode, --sweep, --profile)", 64,
                1024);
    opts.option("--warmup", warmup, "untimed launches before the timed ones", 0, 100);
    opts.option("--reps", reps, "timed launches (the median is reported)", 1, 1000);
    if (const auto status = opts.parse(argc, argv)) return *status;
    const long long n = 1LL << log2n;
    if (check) return check_mode(quick);
    if (sweep) return sweep_mode(n, threads, warmup, reps);
    if (tune) return tune_mode(n, warmup, reps);
    if (profile) return profile_mode(n, threads);
    return steps_mode(n, radius, threads, warmup, reps);
}

}  // namespace

int main(int argc, char** argv) { return book::gpu_main(argc, argv, run); }
