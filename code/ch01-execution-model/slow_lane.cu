// slow_lane: one slow lane holds its whole warp back.
//
// Every thread repeats one unit of dependent arithmetic some number of times.
// Fast lanes do 10 units, slow lanes 1000. Three runs of one two-path kernel:
// every lane fast, every lane slow, and lane 0 of each warp slow with the other
// 31 fast. A fourth kernel gives each lane its own trip count in one loop. A
// last launch of the two-path kernel with no work in any lane times what the
// model leaves out: the memory traffic and the launch.
// The warp model predicts each run's time from the costs alone; the program
// prints the predictions beside the measurements.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "book/cuda.hpp"

namespace {

constexpr int kThreads = 256, kWarp = 32;
constexpr int kFast = 10, kSlow = 1000;  // units of work: the model's cost_a and cost_b
constexpr std::uint64_t kSeed = 7;

// One unit: xor-shift then multiply by an odd constant. Each unit needs the
// last one's result, and no two units fold into one, so n units cost n times one.
__host__ __device__ inline unsigned work_unit(unsigned x) { return (x ^ (x >> 7)) * 0x2545F491u; }

// [listing:two-path]
// Lanes below slow_lanes take the slow path, the rest the fast one:
// a two-way branch, as the warp model sees it.
__global__ void two_path(const unsigned* in, unsigned* out, int slow_lanes, int fast_units,
                         int slow_units) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x % kWarp;
    unsigned x = in[i];
    if (lane < slow_lanes) {
        for (int k = 0; k < slow_units; ++k) x = work_unit(x);
    } else {
        for (int k = 0; k < fast_units; ++k) x = work_unit(x);
    }
    out[i] = x;
}
// [/listing:two-path]

// [listing:loop-max]
// One loop; each lane's trip count comes from a table indexed by lane.
__global__ void per_lane_trips(const unsigned* in, unsigned* out, const int* units_by_lane) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int units = units_by_lane[threadIdx.x % kWarp];
    unsigned x = in[i];
    for (int k = 0; k < units; ++k) x = work_unit(x);
    out[i] = x;
}
// [/listing:loop-max]

// The warp model, in units. A branch: the warp runs every path that any of its
// lanes takes, one after the other. A loop: the warp runs until its last lane is done.
double model_branch(int slow_lanes) {
    return (slow_lanes > 0 ? kSlow : 0) + (slow_lanes < kWarp ? kFast : 0);
}
double model_loop(const std::vector<int>& units_by_lane) {
    int most = 0;
    for (int u : units_by_lane) most = u > most ? u : most;
    return most;
}

struct Config {
    const char* name;
    int slow_lanes;  // for two_path; -1 means per_lane_trips
};

int run(int argc, char** argv) {
    book::options opts("One slow lane per warp against all fast and all slow");
    bool quick = false;
    int waves = 16;
    opts.flag("--quick", quick, "small sizes, for compute-sanitizer");
    opts.option("--waves", waves, "grid size in waves (one wave fills every SM once)", 1, 256);
    if (const auto status = opts.parse(argc, argv)) return *status;
    const book::repeat_counts repeats = book::repeats_for(quick);

    const int blocks =
        quick ? 4 : waves * book::blocks_per_sm(two_path, kThreads) * book::sm_count();
    const std::size_t n = static_cast<std::size_t>(blocks) * kThreads;

    std::vector<int> lane_units(kWarp, kFast);
    lane_units[0] = kSlow;
    book::device_buffer<int> units(kWarp);
    units.from_host(lane_units);
    book::rotating_buffers<unsigned> input(n,
                                           static_cast<std::size_t>(repeats.warmup + repeats.reps));
    book::fill_random_u32(input.all(), input.total(), kSeed);
    book::device_buffer<unsigned> out(n);

    auto launch = [&](const Config& c, const unsigned* in) {
        if (c.slow_lanes >= 0)
            two_path<<<blocks, kThreads>>>(in, out.data(), c.slow_lanes, kFast, kSlow);
        else
            per_lane_trips<<<blocks, kThreads>>>(in, out.data(), units.data());
    };
    const Config configs[] = {
        {"all_fast", 0}, {"all_slow", kWarp}, {"one_slow", 1}, {"loop_max", -1}};

    // Correctness first: each configuration once on the first input array,
    // a sample of outputs (every 97th, first, last) against the CPU.
    const std::vector<std::size_t> sample = book::sampled_indices(n);
    long bad = 0;
    for (const Config& c : configs) {
        launch(c, input.slot(0));
        BOOK_CHECK_LAUNCH();
        bad += book::count_mismatches(out.to_host(), sample, [&](std::size_t i) {
            const int lane = static_cast<int>(i % kThreads) % kWarp;
            const int u =
                c.slow_lanes >= 0 ? (lane < c.slow_lanes ? kSlow : kFast) : lane_units[lane];
            unsigned x = book::random_u32(kSeed, i);  // slot 0 starts at element 0 of all()
            for (int k = 0; k < u; ++k) x = work_unit(x);
            return x;
        });
    }

    book::warm_up_clocks([&] { launch(configs[1], input.slot(0)); }, repeats.clock_warmup_ms);
    book::timing_stats t[4];
    for (int k = 0; k < 4; ++k) {
        input.rewind();
        t[k] = book::time_launches([&] { launch(configs[k], input.next()); }, repeats);
        book::report_timing(configs[k].name, t[k]);
    }
    // The same launch with no work in any lane: what reading the input, writing
    // the output and launching the grid cost, which the model does not count.
    input.rewind();
    const book::timing_stats none = book::time_launches(
        [&] { two_path<<<blocks, kThreads>>>(input.next(), out.data(), 0, 0, 0); }, repeats);
    book::report_timing("no_work", none);
    const double fast = t[0].median_ms, slow = t[1].median_ms, one = t[2].median_ms,
                 loop = t[3].median_ms;
    const double m_fast = model_branch(0), m_slow = model_branch(kWarp), m_one = model_branch(1),
                 m_loop = model_loop(lane_units);
    const double useful = (31.0 * kFast + kSlow) / (kWarp * m_one);

    book::report("mismatches", static_cast<double>(bad), "count");
    book::report("blocks", blocks, "blocks");
    book::report("cost_fast_units", kFast, "units");
    book::report("cost_slow_units", kSlow, "units");
    book::report("measured_one_slow_over_all_slow", one / slow, "ratio");
    book::report("measured_one_slow_over_all_fast", one / fast, "ratio");
    book::report("measured_loop_max_over_all_slow", loop / slow, "ratio");
    book::report("predicted_one_slow_over_all_slow", m_one / m_slow, "ratio");
    book::report("predicted_one_slow_over_all_fast", m_one / m_fast, "ratio");
    book::report("predicted_loop_max_over_all_slow", m_loop / m_slow, "ratio");
    book::report("useful_fraction_model", useful, "fraction");
    book::report("no_work_over_all_fast", none.median_ms / fast, "ratio");

    std::printf("\n%d blocks x %d threads; fast lanes %d units, slow lanes %d units\n", blocks,
                kThreads, kFast, kSlow);
    std::printf("%-10s %12s %22s %14s\n", "run", "median ms", "p10-p90 ms", "model units");
    const double model[4] = {m_fast, m_slow, m_one, m_loop};
    for (int k = 0; k < 4; ++k)
        std::printf("%-10s %12.4f %10.4f-%-11.4f %14.0f\n", configs[k].name, t[k].median_ms,
                    t[k].p10_ms, t[k].p90_ms, model[k]);
    std::printf("%-10s %12.4f %10.4f-%-11.4f %14d\n", "no_work", none.median_ms, none.p10_ms,
                none.p90_ms, 0);
    std::printf("\none_slow / all_slow: measured %.3f, model %.3f\n", one / slow, m_one / m_slow);
    std::printf("one_slow / all_fast: measured %.1f, model %.1f\n", one / fast, m_one / m_fast);
    std::printf("loop_max / all_slow: measured %.3f, model %.3f\n", loop / slow, m_loop / m_slow);
    std::printf("useful lane-work in a one-slow warp (model): %.3f\n", useful);
    std::printf("CPU reference, sampled outputs of all four runs: %ld mismatches\n", bad);
    return 0;
}

}  // namespace

int main(int argc, char** argv) { return book::gpu_main(argc, argv, run); }
