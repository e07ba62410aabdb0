// reduce_modes.hpp: what the reduce program can do, one function per mode,
// and the pieces the modes share.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "book/cuda.hpp"
#include "reduce_plan.hpp"

namespace ch03 {

class reducer;

/// The command line of the reduce program.
struct settings {
    launch_policy policy = default_policy();  ///< the launch of steps 7 and 8 by size
    std::vector<candidate> candidates;        ///< --sweep rows, or --profile extras
    bool candidates_given = false;            ///< --candidates was on the command line
    bool full = false;                        ///< --sweep: the whole grid
    bool quick = false;                       ///< small sizes only (for compute-sanitizer)
    int max_log2 = 28;                        ///< the largest size is 2^max_log2 floats
    int reps = 20;                            ///< calls per timed batch
    int rounds = 10;                          ///< rounds against CUB, alternating, a batch each
    int batches = 5;                          ///< timed batches of every other row
    bool graphs = true;                       ///< also time CUDA-graph replays
    int profile_log2 = 24;                    ///< --profile: one call of each on 2^this floats
    long long seed = 20240611;
};

int run_bench(const settings& s);     // the step table beside CUB and the read ceiling
int run_sweep(const settings& s);     // one-launch variants and tunings against CUB
int run_profile(const settings& s);   // one call of each, for Nsight Compute
int run_check(const settings& s);     // correctness over many sizes and alignments
int run_accuracy(const settings& s);  // float error: sequential, tree, CUB, step 8

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

/// The times of two things measured in alternating rounds.
struct pair_times {
    book::timing_stats a, b;
};

/// Time a() and b() in `rounds` alternating rounds of one batch of `reps`
/// calls each, a batch between one pair of events: medians of the time per
/// call (reduce.cpp: time_alternating).
pair_times time_pair(const std::function<void()>& a, const std::function<void()>& b, int warmup,
                     int rounds, int reps);

}  // namespace ch03
