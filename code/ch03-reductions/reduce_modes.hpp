// reduce_modes.hpp: what the reduce program can do, one function per mode.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "reduce_plan.hpp"

namespace ch03 {

/// The command line of the reduce program.
struct settings {
    tuning tune;            ///< launch parameters of steps 7 and 8
    bool quick = false;     ///< small sizes only (for compute-sanitizer)
    int max_log2 = 28;      ///< the largest size is 2^max_log2 floats
    int reps = 20;          ///< timed calls per measurement
    int rounds = 5;         ///< rounds of CUB against step 8, alternating
    bool graphs = true;     ///< also time CUDA-graph replays of CUB and step 8
    int profile_log2 = 24;  ///< --profile: one call of each kernel on 2^this floats
    long long seed = 20240611;
};

int run_bench(const settings& s);     // the step table beside CUB and the read ceiling
int run_sweep(const settings& s);     // step 8 over its launch parameters
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

}  // namespace ch03
