// reduce_common.hpp: what the chapter's reduce programs share (reduce_bench,
// reduce_sweep, reduce_check, reduce_accuracy, reduce_profile): their
// settings and the options that set them, the sizes they run, copies from the
// device, the warm-up, and the table of the launch policy.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "book/cuda.hpp"
#include "book/options.hpp"
#include "reduce_options.hpp"
#include "reduce_plan.hpp"

namespace ch03 {

class reducer;

/// The command line of a reduce program (each takes the options it uses).
struct settings {
    launch_policy policy = default_policy();  ///< the launch of steps 7 and 8 by size
    std::vector<candidate> candidates;        ///< reduce_sweep's rows, or reduce_profile's extras
    bool candidates_given = false;            ///< --candidates was on the command line
    bool full = false;                        ///< reduce_sweep --full: the whole grid
    bool quick = false;                       ///< small sizes only (for compute-sanitizer)
    int max_log2 = 28;                        ///< the largest size is 2^max_log2 floats
    int reps = 20;                            ///< calls per timed batch
    int rounds = 10;                          ///< rounds against CUB, alternating, a batch each
    int batches = 5;                          ///< timed batches of every other row
    bool graphs = true;                       ///< also time CUDA-graph replays
    int profile_log2 = 24;                    ///< reduce_profile: one call of each on 2^this floats
    long long seed = 20240611;
};

/// The options of the launch policy of steps 7 and 8, which every reduce
/// program takes: --policy P, or one tuning for every size from --threads,
/// --blocks-per-sm and --unroll (the defaults fill in those not given).
class policy_options {
public:
    /// What --help says of --policy (the options parser shows numbers only).
    static constexpr const char* help =
        "--policy P sets the launch of steps 7 and 8 by size, like\n"
        "2e22:256x4x4,2e24:256x8x2,1024x2x4 (threads x blocks per SM x float4s in flight).";

    /// Take --policy out of argv (take_text_option) and add the numeric
    /// options to `opts`; `opts` must outlive this.
    policy_options(int& argc, char** argv, book::options& opts);

    /// The policy the command line gives (default_policy() if none).
    /// @throws std::invalid_argument for --policy together with --threads,
    /// --blocks-per-sm or --unroll, or a policy that does not parse.
    launch_policy policy() const;

private:
    std::optional<std::string> text_;
    int threads_ = 0, blocks_per_sm_ = 0, unroll_ = 0;
};

/// Take --candidates C (one-launch variants like tiles.ldg:256x32x4,old:1024x2x2)
/// out of argv into s.candidates (s.candidates_given), or else set the
/// default ones: those reduce_profile launches after the steps.
void take_candidates(int& argc, char** argv, settings& s);

/// Add --quick, --max-log2 and --seed, the options of every program that
/// runs several sizes, to `opts`.
void add_size_options(book::options& opts, settings& s);

/// Add --reps and --rounds, the options of a program that times against CUB
/// in alternating rounds, to `opts`.
void add_timing_options(book::options& opts, settings& s);

/// "2e20" for 2^20; the decimal number for other n.
std::string size_label(std::size_t n);

/// The power-of-two sizes a benchmark mode runs: 2^16, 2^20, 2^24, 2^28 (the
/// quick mode: 2^12, 2^16), none above 2^max_log2.
std::vector<int> bench_log2s(const settings& s);

/// Copy n floats from the device.
std::vector<float> to_host(const float* d, std::size_t n);

/// One float from the device.
float read_one(const float* d);

/// Terabytes per second for n floats read in `ms` milliseconds.
double tbs(std::size_t n, double ms);

/// Bring the clocks up: r on 2^24 floats (or fewer) for 200 ms.
void warm_up(const settings& s, reducer& r, float* out);

/// Print the launch policy of steps 7 and 8, with the blocks that fit on an SM.
void print_policy(const launch_policy& p);

}  // namespace ch03
