// The SIMT warp model of chapter 1 (see warp_model.hpp). The functions between
// the [listing:...] markers appear in the book.
#include "warp_model.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ch01 {

// [listing:warp-cycles]
long long warp_cycles(const std::vector<bool>& takes_a, long long cost_a, long long cost_b) {
    const bool some_take_a = std::any_of(takes_a.begin(), takes_a.end(), [](bool t) { return t; });
    const bool some_take_b = std::any_of(takes_a.begin(), takes_a.end(), [](bool t) { return !t; });
    long long cycles = 0;
    if (some_take_a) cycles += cost_a;  // lanes that take B are masked off meanwhile
    if (some_take_b) cycles += cost_b;  // and the lanes that took A wait
    return cycles;
}
// [/listing:warp-cycles]

double LaneCycles::efficiency() const {
    if (total == 0) throw std::domain_error("efficiency of zero lane-cycles is undefined");
    return static_cast<double>(useful) / static_cast<double>(total);
}

// [listing:simulate]
LaneCycles simulate(const std::function<bool(long long)>& pred, long long n_threads, int warp_width,
                    long long cost_a, long long cost_b) {
    if (warp_width < 1) throw std::invalid_argument("warp width must be at least 1");
    if (n_threads < 0) throw std::invalid_argument("thread count must not be negative");
    LaneCycles result;
    std::vector<bool> lanes(static_cast<std::size_t>(warp_width));
    const long long n_warps = n_threads / warp_width;  // whole warps only
    for (long long w = 0; w < n_warps; ++w) {
        for (int lane = 0; lane < warp_width; ++lane) {
            const bool takes_a = pred(w * warp_width + lane);
            lanes[static_cast<std::size_t>(lane)] = takes_a;
            result.useful += takes_a ? cost_a : cost_b;  // what this lane needed
        }
        // Every lane is held for every path the warp runs.
        result.total += warp_cycles(lanes, cost_a, cost_b) * warp_width;
    }
    return result;
}
// [/listing:simulate]

namespace {

void require_width(int warp_width) {
    if (warp_width < 1) throw std::invalid_argument("warp width must be at least 1");
}

void require_non_negative(int value, const char* what) {
    if (value < 0) throw std::invalid_argument(std::string(what) + " must not be negative");
}

}  // namespace

int warp_of(int linear_tid, int warp_width) {
    require_width(warp_width);
    require_non_negative(linear_tid, "thread index");
    return linear_tid / warp_width;
}

int warps_per_block(int threads, int warp_width) {
    require_width(warp_width);
    require_non_negative(threads, "thread count");
    return threads / warp_width + (threads % warp_width != 0 ? 1 : 0);
}

int idle_lanes_in_last_warp(int threads, int warp_width) {
    require_width(warp_width);
    require_non_negative(threads, "thread count");
    const int used = threads % warp_width;
    return used == 0 ? 0 : warp_width - used;
}

int linear_thread_id(Dim3 tid, Dim3 block) {
    return tid.x + tid.y * block.x + tid.z * block.x * block.y;
}

std::vector<int> diverging_warps(int block_threads, const std::function<bool(int tid)>& cond,
                                 int warp_width) {
    const int n_warps = warps_per_block(block_threads, warp_width);
    std::vector<int> diverging;
    for (int w = 0; w < n_warps; ++w) {
        const int first = w * warp_width;
        const int end = std::min(first + warp_width, block_threads);  // active lanes only
        const bool first_value = cond(first);
        for (int tid = first + 1; tid < end; ++tid) {
            if (cond(tid) != first_value) {
                diverging.push_back(w);
                break;
            }
        }
    }
    return diverging;
}

double loop_lane_efficiency(const std::vector<long long>& trip_counts_per_lane) {
    if (trip_counts_per_lane.empty()) throw std::invalid_argument("a warp has at least one lane");
    long long sum = 0;
    long long max = 0;
    for (long long trips : trip_counts_per_lane) {
        if (trips < 0) throw std::invalid_argument("trip counts must not be negative");
        sum += trips;
        max = std::max(max, trips);
    }
    if (max == 0) return 1.0;  // no lane runs the loop, so none waits
    const double busy = static_cast<double>(max) * static_cast<double>(trip_counts_per_lane.size());
    return static_cast<double>(sum) / busy;
}

// [listing:little]
int warps_to_hide_latency(int latency_cycles, int independent_per_warp, int issue_per_cycle) {
    if (latency_cycles < 1 || independent_per_warp < 1 || issue_per_cycle < 1)
        throw std::invalid_argument("latency, parallelism and issue rate must be at least 1");
    const long long in_flight = static_cast<long long>(issue_per_cycle) * latency_cycles;
    return static_cast<int>((in_flight + independent_per_warp - 1) / independent_per_warp);
}
// [/listing:little]

}  // namespace ch01
