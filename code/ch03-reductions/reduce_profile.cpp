// reduce_profile: one call of each of the chapter's reductions, for Nsight
// Compute and cuobjdump (the runs reduce-profile, reduce-profile-small and
// reduce-sass).
//
// On 2^24 floats (--profile-log2) it launches, in this order: the read-stream
// ceiling, every step of the progression, CUB's DeviceReduce::Sum and the
// one-launch variants named by --candidates (by default the first version of
// step 8 at two tunings and the best of the other layouts, reduce_common.cpp:
// take_candidates), synchronizing after each, so that a profiler sees every
// launch in the order its labels name them.
#include <cstdint>
#include <string>

#include "book/cuda.hpp"
#include "book/options.hpp"
#include "cub_sum.hpp"
#include "page_print.hpp"
#include "reduce_common.hpp"
#include "reduce_kernels.hpp"
#include "reduce_layouts.hpp"

namespace ch03 {
namespace {

int run_profile(const settings& s) {
    const std::size_t n = std::size_t{1} << s.profile_log2;
    const int sms = book::device_attribute(cudaDevAttrMultiProcessorCount);
    book::device_buffer<float> x(n), out(1), sink(1);
    fill_input(x.data(), n, static_cast<std::uint64_t>(s.seed), input_kind::unit);
    cub_sum cub(n);
    page_print("\nprofiled on 2^%d floats, one call each, in this order:\n", s.profile_log2);
    read_ceiling(x.data(), n, sink.data(), s.policy.at(n), sms);
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());
    page_print("  read-stream ceiling, %s (1 launch)\n", tuning_text(s.policy.at(n)).c_str());
    for (const step_info& st : steps) {
        reducer r(st.id, n, s.policy);
        r.run(x.data(), n, out.data());
        BOOK_CUDA_CHECK(cudaDeviceSynchronize());
        page_print("  %s (%zu)\n", std::string(st.title).c_str(), r.launches(n));
    }
    cub.run(x.data(), n, out.data());
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());
    page_print("  CUB DeviceReduce::Sum (2)\n");
    for (const candidate& c : s.candidates) {
        variant_reducer r(c, n);
        r.run(x.data(), n, out.data());
        BOOK_CUDA_CHECK(cudaDeviceSynchronize());
        page_print("  %s (1)\n", candidate_text(c).c_str());
    }
    return 0;
}

int run(int argc, char** argv) {
    settings s;
    take_candidates(argc, argv, s);
    book::options opts(
        std::string("One call of each reduction, for Nsight Compute.\n"
                    "Also: ") +
        policy_options::help +
        "\n--candidates C, one-launch variants like tiles.ldg:256x32x4,old:1024x2x2,\n"
        "launched after the steps and CUB.");
    policy_options policy(argc, argv, opts);
    opts.option("--profile-log2", s.profile_log2, "2^this floats", 4, 30);
    opts.option("--seed", s.seed, "seed of the random input", 0);
    if (const auto status = opts.parse(argc, argv)) return *status;
    s.policy = policy.policy();
    return run_profile(s);
}

}  // namespace
}  // namespace ch03

int main(int argc, char** argv) { return book::gpu_main(argc, argv, ch03::run); }
