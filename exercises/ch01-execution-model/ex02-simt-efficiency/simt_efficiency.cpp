// Chapter 1, exercise 2: your code goes here. Read README.md first.
// Each function below compiles but returns a wrong answer: replace the TODOs.
#include "simt_efficiency.hpp"

#include <numeric>
#include <stdexcept>

namespace ex02 {

double lane_efficiency_of_loop(const std::vector<long long>& trip_counts) {
    (void)trip_counts;
    return 0.0;  // TODO: useful lane-iterations / issued lane-iterations, warp by warp
}

double branch_efficiency(std::uint32_t mask_of_lanes_taking_a, long long cost_a, long long cost_b) {
    (void)mask_of_lanes_taking_a, (void)cost_a, (void)cost_b;
    return 0.0;  // TODO: needed lane-cycles / held lane-cycles
}

std::vector<std::size_t> reorder_for_uniform_warps(const std::vector<int>& values,
                                                   const std::function<bool(int)>& predicate) {
    (void)predicate;
    std::vector<std::size_t> order(values.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    return order;  // TODO: the items for which predicate holds first, then the rest, both stable
}

}  // namespace ex02
