// reduce_l2: what L2 holds when a timed call of a one-launch variant begins
// (the run reduce-sweep-l2). No timing. Each row named by --candidates
// alternates with CUB over the rotating input on 2^--profile-log2 floats, as
// in a timed round of reduce_sweep (time_alternating), for a fixed number of
// calls, so that Nsight Compute, its caches not flushed between launches, can
// say how much of each call's reads the L2 served, and how much of CUB's next
// call, on the next buffer, it still served.
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "book/cuda.hpp"
#include "book/options.hpp"
#include "book/report.hpp"
#include "cub_sum.hpp"
#include "page_print.hpp"
#include "reduce_common.hpp"
#include "reduce_kernels.hpp"
#include "reduce_layouts.hpp"

namespace ch03 {
namespace {

// Calls of each row; the first meets what the rows before it left in L2, the
// later ones what the rounds leave there.
constexpr int calls_per_row = 4;

int run_l2(const settings& s) {
    if (!s.candidates_given)
        throw std::invalid_argument("reduce_l2 profiles the rows named by --candidates");
    const std::size_t n = std::size_t{1} << s.profile_log2;
    book::rotating_buffers<float> in(n, 3);
    fill_input(in.all(), in.total(), static_cast<std::uint64_t>(s.seed) + s.profile_log2,
               input_kind::unit);
    const std::vector<float> host = to_host(in.slot(0), n);
    const double ref = pairwise_sum(host.data(), n), mag = abs_sum(host.data(), n);
    cub_sum cub(n);
    book::device_buffer<float> out(1);
    long failures = 0;
    page_print(
        "2^%d floats (%zu bytes) in %zu rotating buffers (%zu bytes in all);\n"
        "each row %d calls, CUB's call on the next buffer after each:\n",
        s.profile_log2, n * sizeof(float), in.count(), in.count() * n * sizeof(float),
        calls_per_row);
    for (const candidate& c : s.candidates) {
        variant_reducer r(c, n);
        in.rewind();
        for (int k = 0; k < calls_per_row; ++k) {
            r.run(in.next(), n, out.data());
            if (k == 0) {  // slot 0: the input that ref describes
                const verdict v =
                    check_sum(read_one(out.data()), ref, tolerance(r.depth(n), mag, n));
                if (!v.ok) ++failures;
            }
            cub.run(in.next(), n, out.data());
        }
        BOOK_CUDA_CHECK(cudaDeviceSynchronize());
        page_print("  %s\n", candidate_text(c).c_str());
    }
    book::report("l2_profile_input_bytes", static_cast<double>(n * sizeof(float)), "bytes");
    book::report("l2_profile_buffers", static_cast<double>(in.count()), "count");
    book::report("l2_profile_failures", static_cast<double>(failures), "count");
    page_print("%ld of %zu rows failed their check\n", failures, s.candidates.size());
    return failures == 0 ? 0 : 1;
}

int run(int argc, char** argv) {
    settings s;
    take_candidates(argc, argv, s);
    book::options opts(
        "Each one-launch variant named by --candidates, then CUB, in turn over the\n"
        "rotating input, untimed (for Nsight Compute). --candidates C: variants like\n"
        "stride.ldcs:1024x2x4,stride.plain:1024x2x4.");
    opts.option("--profile-log2", s.profile_log2, "2^this floats", 4, 30);
    opts.option("--seed", s.seed, "seed of the random input", 0);
    if (const auto status = opts.parse(argc, argv)) return *status;
    return run_l2(s);
}

}  // namespace
}  // namespace ch03

int main(int argc, char** argv) { return book::gpu_main(argc, argv, ch03::run); }
