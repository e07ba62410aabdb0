/// @file simt_efficiency.hpp
/// @brief Chapter 1, exercise 2: how much of a warp's time does useful work,
/// for a loop whose trip count varies per thread and for a two-way branch; and
/// how to order work so that warps stop diverging.
///
/// "Lane efficiency" is useful lane-work divided by issued lane-work: a warp
/// issues each instruction for all 32 lanes, whether a lane needs it or not.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace ex02 {

/// Lanes per warp.
inline constexpr int kWarpWidth = 32;

/// Lane efficiency of a loop in a 1-D launch where thread `t` runs
/// `trip_counts[t]` iterations.
///
/// Threads 0..31 form warp 0, 32..63 warp 1, and so on; the last warp may be
/// partial, and its missing lanes still occupy it. A warp runs the loop as long
/// as its slowest lane: it issues `32 * max(its trip counts)` lane-iterations.
/// @return the sum of all trip counts divided by the sum over warps of the
///         issued lane-iterations; 1.0 when every count is 0 (nothing runs,
///         nothing waits).
/// @throws std::invalid_argument for an empty vector or a negative count.
double lane_efficiency_of_loop(const std::vector<long long>& trip_counts);

/// Lane efficiency of one full warp at a two-way branch.
///
/// Bit `i` of `mask_of_lanes_taking_a` is set when lane `i` takes path A; the
/// other lanes take path B. The warp pays `cost_a` cycles if any lane takes A
/// and `cost_b` if any lane takes B, with all 32 lanes held for both; each
/// lane needed only the cost of its own path.
/// @return needed lane-cycles divided by held lane-cycles; 1.0 when no cycle
///         is held (both costs 0).
/// @throws std::invalid_argument when a cost is negative.
double branch_efficiency(std::uint32_t mask_of_lanes_taking_a, long long cost_a, long long cost_b);

/// An order of the work items that makes warps uniform for `predicate`.
///
/// Returns a permutation `p` of 0..values.size()-1: thread `t` will work on
/// `values[p[t]]`. Every item for which `predicate` holds comes first, in
/// their original order, then the others, in their original order (a stable
/// partition). Then at most one warp holds items of both kinds.
std::vector<std::size_t> reorder_for_uniform_warps(const std::vector<int>& values,
                                                   const std::function<bool(int)>& predicate);

}  // namespace ex02
