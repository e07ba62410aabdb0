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
//   --sweep    the R sweep: plain, vec_x1, vec_x4, tiled_vec_x4, tiled_async_x4 at
//              R = 1 .. 128, each kernel's output checked in full.
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
#include <iterator>
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
    std::vector<long long> s = {0, 1, r + 1, 3 * 4096 + 5};
    if (!quick) {
        const long long more[] = {
            2,   3,   4,    5,    7,    r - 1, r,    2 * r, 2 * r + 1, 2 * r + 2, 31,           33,
            255, 257, 1000, 1023, 1025, 4095,  4097, 8193,  16385,     100003,    (1 << 20) + 3};
        s.insert(s.end(), std::begin(more), std::end(more));
    }
    s.erase(std::remove_if(s.begin(), s.end(), [](long long n) { return n < 0; }), s.end());
    std::sort(s.begin(), s.end());
    s.erase(std::unique(s.begin(), s.end()), s.end());
    return s;
}

// One line: "N outputs, M wrong (first at i), max error E".
std::string summary(const ch02::comparison& c) {
    char buf[160];
    if (c.mismatches == 0)
        std::snprintf(buf, sizeof buf, "%lld outputs, 0 wrong, max error %.3g", c.checked,
                      c.max_abs_error);
    else
        std::snprintf(buf, sizeof buf, "%lld outputs, %lld wrong (first at %lld), max error %.3g",
                      c.checked, c.mismatches, c.first_mismatch, c.max_abs_error);
    return buf;
}

int check_mode(bool quick) {
    const std::vector<int> radii = quick ? std::vector<int>{3, 33} : ch02::compiled_radius_list();
    const std::vector<int> block_sizes =
        quick ? std::vector<int>{256} : std::vector<int>{96, 256, 1024};
    const std::vector<bool> kinds =
        quick ? std::vector<bool>{false} : std::vector<bool>{false, true};
    ch02::comparison integers, reals;
    long long cases = 0, failed_cases = 0;
    // failed[kernel][radius index]: failed cases; -1 where the kernel is not compiled at that
    // radius.
    std::vector<std::string> names;
    std::vector<std::vector<long long>> failed;
    for (std::size_t ri = 0; ri < radii.size(); ++ri) {
        const int radius = radii[ri];
        const std::vector<kernel_info> kernels = ch02::stencil_kernels(radius);
        std::vector<std::size_t> row(kernels.size());
        for (std::size_t k = 0; k < kernels.size(); ++k) {
            const auto at = std::find(names.begin(), names.end(), kernels[k].name);
            row[k] = static_cast<std::size_t>(at - names.begin());
            if (at == names.end()) {
                names.push_back(kernels[k].name);
                failed.emplace_back(radii.size(), -1);
            }
            failed[row[k]][ri] = 0;
        }
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
                            ++failed[row[k]][ri];
                            std::printf(
                                "MISMATCH %s, R = %d, n = %lld, %d threads, %s input:\n  %s\n",
                                kernels[k].name.c_str(), radius, n, threads,
                                real ? "real" : "integer", summary(c).c_str());
                        }
                        ch02::merge(real ? reals : integers, c);
                    }
            }
        }
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
    // The table: failed cases by kernel (rows) and radius (columns); "-": not compiled.
    std::printf("\nfailed cases by kernel and radius R (a case: one size, block size, input)\n");
    std::printf("%-14s", "kernel");
    for (int r : radii) std::printf(" %4d", r);
    std::printf("\n");
    for (std::size_t k = 0; k < names.size(); ++k) {
        std::printf("%-14s", names[k].c_str());
        for (long long f : failed[k]) f < 0 ? std::printf(" %4s", "-") : std::printf(" %4lld", f);
        std::printf("\n");
    }
    std::printf("\n%lld cases (kernel x R x size x block size x input), %lld failed\n", cases,
                failed_cases);
    std::printf("integer input, compared exactly:\n  %s\n", summary(integers).c_str());
    if (!quick)
        std::printf(
            "real input, compared within the rounding bound:\n  %s\n"
            "  largest error / bound %.3f\n",
            summary(reals).c_str(), reals.max_error_over_tolerance);
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
    // A copy of the table's row, not a reference into it: the table is a temporary.
    const kernel_info plain = ch02::find_kernel(ch02::stencil_kernels(3), "plain");
    book::warm_up_clocks([&] { plain.launch(b.input.slot(0), b.out.data(), b.n, 256); }, 200.0);
}

// "2^28" for a power of two, the number otherwise.
std::string size_text(long long n) {
    for (int e = 0; e < 62; ++e)
        if (n == (1LL << e)) return "2^" + std::to_string(e);
    return std::to_string(n);
}

int steps_mode(long long n, int radius, int threads, int warmup, int reps) {
    std::vector<kernel_info> kernels = ch02::copy_kernels();
    for (const kernel_info& k : ch02::stencil_kernels(radius))
        if (!k.variant) kernels.push_back(k);  // the variants are --tune's
    std::printf("\nR = %d, n = %s floats (%.0f MiB in, as much out), %d threads per block\n",
                radius, size_text(n).c_str(), 4.0 * n / (1 << 20), threads);
    std::printf("\n%-14s  %-38s  %5s  %6s\n", "kernel", "what it changes", "B/thr", "ld/out");
    for (const kernel_info& k : kernels)
        std::printf("%-14s  %-38s  %5d  %6.2f\n", k.name.c_str(), k.idea.c_str(),
                    k.bytes_in_flight_per_thread, k.global_loads_per_output);
    std::printf(
        "B/thr: input bytes a thread requests before it uses any\n"
        "ld/out: global load instructions per output (interior blocks)\n");

    bench b(n, threads, warmup, reps);
    warm_up(b);
    const book::timing_stats copy = b.time_copy();
    b.copy_ms = copy.median_ms;
    book::report_timing("copy", copy);
    book::report("copy_gbps", b.gbps(copy.median_ms), "GB/s");
    book::report("n", static_cast<double>(n), "count");
    book::report("radius", radius, "count");
    book::report("threads", threads, "threads");

    std::printf(
        "\nmedian of %d launches (p10-p90: the middle 80%%); GB/s: bytes read + written\n"
        "per second; x copy: cudaMemcpy time / kernel time; wrong: outputs that\n"
        "differ from the CPU (all n checked); cudaMemcpy is timed first and last\n",
        reps);
    std::printf("\n%-14s  %8s  %15s  %6s  %6s  %9s\n", "kernel", "ms", "p10-p90 ms", "GB/s",
                "x copy", "wrong");
    std::printf("%-14s  %8.4f  %7.4f-%-7.4f  %6.0f  %6.3f  %9s\n", "cudaMemcpy", copy.median_ms,
                copy.p10_ms, copy.p90_ms, b.gbps(copy.median_ms), 1.0, "-");
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
        std::printf("%-14s  %8.4f  %7.4f-%-7.4f  %6.0f  %6.3f  %9lld\n", k.name.c_str(),
                    t.median_ms, t.p10_ms, t.p90_ms, b.gbps(t.median_ms), ratio, bad);
    }
    const book::timing_stats copy_end = b.time_copy();  // the ceiling again, after all kernels
    book::report_timing("copy_end", copy_end);
    book::report("mismatches", static_cast<double>(bad_total), "count");
    book::report("best_over_copy", best, "ratio");
    book::report_text("best_kernel", best_name);
    std::printf("%-14s  %8.4f  %7.4f-%-7.4f  %6.0f  %6.3f  %9s\n", "cudaMemcpy", copy_end.median_ms,
                copy_end.p10_ms, copy_end.p90_ms, b.gbps(copy_end.median_ms),
                copy.median_ms / copy_end.median_ms, "-");
    std::printf("\nbest stencil: %s, at %.3f of the cudaMemcpy bandwidth\n", best_name.c_str(),
                best);
    std::printf("wrong outputs, all kernels: %lld\n", bad_total);
    return 0;
}

int sweep_mode(long long n, int threads, int warmup, int reps) {
    const std::vector<std::string> names = {"plain", "vec_x1", "vec_x4", "tiled_vec_x4",
                                            "tiled_async_x4"};
    const std::string tracked = "tiled_vec_x4";  // its time and adds per second, too
    std::printf(
        "\nn = %s floats, %d threads per block, median of %d launches\n"
        "x copy: cudaMemcpy time / kernel time\n"
        "Gadd/s: additions per second, n (2R + 1) / time, of %s\n",
        size_text(n).c_str(), threads, reps, tracked.c_str());
    bench b(n, threads, warmup, reps);
    warm_up(b);
    const book::timing_stats copy = b.time_copy();
    book::report_timing("copy", copy);
    book::report("copy_gbps", b.gbps(copy.median_ms), "GB/s");
    std::printf("\n%4s %35s %21s\n", "", "x copy", tracked.c_str());
    std::printf("%4s %6s %6s %6s %6s %7s %11s %9s\n", "R", "plain", "vec_x1", "vec_x4", "tiled",
                "async", "ms", "Gadd/s");
    long long bad_total = 0;
    for (int radius : ch02::kSweepRadii) {
        const std::vector<kernel_info> kernels = ch02::stencil_kernels(radius);
        std::printf("%4d", radius);
        double tracked_ms = 0.0;
        for (const std::string& s : names) {
            const kernel_info k = ch02::find_kernel(kernels, s);
            bad_total += b.check(k, radius);
            const book::timing_stats t = b.time(k);
            const std::string tag = "sweep_" + s + "_r" + std::to_string(radius);
            const double adds = static_cast<double>(n) * (2.0 * radius + 1.0) / (t.median_ms * 1e6);
            book::report(tag + "_ms", t.median_ms, "ms");
            book::report(tag + "_over_copy", copy.median_ms / t.median_ms, "ratio");
            book::report(tag + "_gadds", adds, "Gadd/s");
            std::printf(s == "tiled_async_x4" ? " %7.3f" : " %6.3f", copy.median_ms / t.median_ms);
            if (s == tracked) tracked_ms = t.median_ms;
        }
        std::printf(" %11.4f %9.0f\n", tracked_ms,
                    static_cast<double>(n) * (2.0 * radius + 1.0) / (tracked_ms * 1e6));
    }
    book::report("mismatches", static_cast<double>(bad_total), "count");
    std::printf("\ntiled: tiled_vec_x4, async: tiled_async_x4; cudaMemcpy: %.4f ms\n",
                copy.median_ms);
    std::printf("wrong outputs, all kernels and radii (all n checked): %lld\n", bad_total);
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
    std::printf("\nR = 3, n = %s floats; x copy = cudaMemcpy time (%.4f ms) / kernel time\n",
                size_text(n).c_str(), copy.median_ms);
    const std::vector<int> block_sizes = {128, 256, 512, 1024};
    std::printf("\n%-14s %27s\n%-14s", "", "x copy at threads per block", "kernel");
    for (int t : block_sizes) std::printf(" %7d", t);
    std::printf("\n");
    for (const std::string& s : names) {
        const kernel_info k = ch02::find_kernel(all, s);
        std::printf("%-14s", s.c_str());
        for (int t : block_sizes) {
            b.threads = t;
            const double ratio = copy.median_ms / b.time(k).median_ms;
            book::report("tune_" + s + "_t" + std::to_string(t) + "_over_copy", ratio, "ratio");
            std::printf(" %7.3f", ratio);
        }
        std::printf("\n");
    }
    return 0;
}

// The launches of --profile, in order: the steps at R = 3, then the two copies.
// (The runs' NCU_LABELS name them in this order.)
int profile_mode(long long n, int threads) {
    book::device_buffer<float> in(static_cast<std::size_t>(n)), out(static_cast<std::size_t>(n));
    fill(in.data(), n, kSeed, false);
    std::vector<kernel_info> kernels;
    for (const kernel_info& k : ch02::stencil_kernels(3))
        if (!k.variant) kernels.push_back(k);
    for (const kernel_info& k : ch02::copy_kernels()) kernels.push_back(k);
    std::printf("\nprofiled: R = 3, n = %s floats, %d threads per block, one launch each:\n",
                size_text(n).c_str(), threads);
    for (const kernel_info& k : kernels) {
        k.launch(in.data(), out.data(), n, threads);
        std::printf("  %s\n", k.name.c_str());
    }
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());
    return 0;
}

int run(int argc, char** argv) {
    book::options opts(
        "The chapter's stencil kernels: checked against the CPU, timed against cudaMemcpy");
    bool check = false, sweep = false, tune = false, profile = false, quick = false;
    int log2n = 28, radius = 3, threads = 256, warmup = 3, reps = 20;
    opts.flag("--check", check, "check every kernel at every compiled radius against the CPU");
    opts.flag("--sweep", sweep,
              "time plain, vec_x1, vec_x4, tiled_vec_x4, tiled_async_x4 at R = 1 .. 128");
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
