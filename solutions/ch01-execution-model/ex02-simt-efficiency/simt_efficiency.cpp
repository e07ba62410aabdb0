// Chapter 1, exercise 2: a solution.
#include "simt_efficiency.hpp"

#include <algorithm>
#include <bit>
#include <numeric>
#include <stdexcept>

namespace ex02 {

double lane_efficiency_of_loop(const std::vector<long long>& trip_counts) {
    if (trip_counts.empty()) throw std::invalid_argument("no threads, no warps");
    long long useful = 0;
    long long issued = 0;
    for (std::size_t first = 0; first < trip_counts.size(); first += kWarpWidth) {
        const std::size_t end = std::min(first + kWarpWidth, trip_counts.size());
        long long slowest = 0;
        for (std::size_t t = first; t < end; ++t) {
            if (trip_counts[t] < 0) throw std::invalid_argument("trip counts must not be negative");
            useful += trip_counts[t];
            slowest = std::max(slowest, trip_counts[t]);
        }
        issued += kWarpWidth * slowest;  // every lane is held until the slowest is done
    }
    if (issued == 0) return 1.0;  // nothing ran, so nothing waited
    return static_cast<double>(useful) / static_cast<double>(issued);
}

double branch_efficiency(std::uint32_t mask_of_lanes_taking_a, long long cost_a, long long cost_b) {
    if (cost_a < 0 || cost_b < 0) throw std::invalid_argument("costs must not be negative");
    const int lanes_a = std::popcount(mask_of_lanes_taking_a);
    const int lanes_b = kWarpWidth - lanes_a;
    long long cycles = 0;
    if (lanes_a > 0) cycles += cost_a;  // the lanes taking B are masked off meanwhile
    if (lanes_b > 0) cycles += cost_b;  // and then the lanes that took A wait
    const long long held = kWarpWidth * cycles;
    if (held == 0) return 1.0;
    const long long needed = lanes_a * cost_a + lanes_b * cost_b;
    return static_cast<double>(needed) / static_cast<double>(held);
}

std::vector<std::size_t> reorder_for_uniform_warps(const std::vector<int>& values,
                                                   const std::function<bool(int)>& predicate) {
    std::vector<std::size_t> order(values.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_partition(order.begin(), order.end(),
                          [&](std::size_t i) { return predicate(values[i]); });
    return order;
}

}  // namespace ex02
