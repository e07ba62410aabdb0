/// @file warp_model.hpp
/// @brief A small CPU model of SIMT warps: thread-to-warp mapping and the cost
/// of divergent branches.
///
/// The model is the one of the chapter's `divergence` program. A warp is
/// `warp_width` lanes that share one instruction stream. At a two-way branch
/// the warp runs every path that at least one of its lanes takes, one after
/// the other, with the lanes that did not take it masked off. So a warp pays
/// `cost_a` if any lane takes path A, plus `cost_b` if any lane takes path B,
/// and every lane is occupied for that whole time ("lane-cycles"), while each
/// lane only needed the cost of its own path ("useful" lane-cycles).
/// The model ignores scheduling between warps and predication; see the chapter.
#pragma once

#include <functional>
#include <vector>

namespace ch01 {

/// Cycles one warp spends at a two-way branch.
/// @param takes_a  one entry per lane: true where the lane takes path A.
/// @param cost_a   cycles of path A; paid once if any lane takes A.
/// @param cost_b   cycles of path B; paid once if any lane does not take A.
/// @return `cost_a` and/or `cost_b`, summed: both when the lanes disagree.
///         An empty warp pays nothing.
long long warp_cycles(const std::vector<bool>& takes_a, long long cost_a, long long cost_b);

/// Lane-cycles of a simulated launch: what the lanes were held for, and what
/// they needed.
struct LaneCycles {
    long long total = 0;   ///< Lane-cycles spent: each warp's cycles times its width.
    long long useful = 0;  ///< Lane-cycles needed: each lane's own path cost.

    /// `useful / total`: the fraction of lane-cycles that did work
    /// (1.0 when no lane ever waits on another path).
    /// @throws std::domain_error when `total` is 0 (no warps, or zero costs),
    ///         where the ratio is undefined (Python raises ZeroDivisionError).
    double efficiency() const;
};

/// Run a two-way branch over `n_threads` threads in warps of `warp_width`.
/// Thread `t` takes path A when `pred(t)` is true. Only whole warps run:
/// there are `n_threads / warp_width` warps (integer division, the leftover
/// threads are dropped), as in the Python original's `n // WARP`.
/// @throws std::invalid_argument when `warp_width` < 1 or `n_threads` < 0.
LaneCycles simulate(const std::function<bool(long long)>& pred, long long n_threads, int warp_width,
                    long long cost_a, long long cost_b);

/// A CUDA-style 3-component index or extent (`threadIdx`, `blockDim`).
struct Dim3 {
    int x = 0;  ///< Fastest-varying component.
    int y = 0;  ///< Middle component.
    int z = 0;  ///< Slowest-varying component.
};

/// The warp a thread belongs to: threads 0..31 of a block form warp 0,
/// threads 32..63 warp 1, and so on.
/// @param linear_tid  the thread's linear index in its block (>= 0).
/// @param warp_width  lanes per warp (32 on NVIDIA GPUs).
int warp_of(int linear_tid, int warp_width = 32);

/// Warps a block of `threads` threads occupies: `ceil(threads / warp_width)`.
/// A partial last warp still occupies a whole warp.
int warps_per_block(int threads, int warp_width = 32);

/// Lanes of a block's last warp that have no thread (0 when `threads` is a
/// multiple of `warp_width`, and for an empty block).
int idle_lanes_in_last_warp(int threads, int warp_width = 32);

/// A thread's linear index in its block, the order warps are formed in:
/// `x + y * block.x + z * block.x * block.y`.
/// @param tid    the thread index (`threadIdx`).
/// @param block  the block extent (`blockDim`).
int linear_thread_id(Dim3 tid, Dim3 block);

/// The warps of a block that diverge on a condition: those whose active lanes
/// do not all agree on `cond(tid)`. Only threads `tid < block_threads` exist;
/// a partial last warp is judged on its active lanes only.
/// @return warp indices in increasing order (empty when every warp is uniform).
std::vector<int> diverging_warps(int block_threads, const std::function<bool(int tid)>& cond,
                                 int warp_width = 32);

/// Lane efficiency of a loop whose trip count differs per lane. A warp keeps
/// running the loop until its slowest lane is done, so it is busy for
/// `lanes * max(trips)` lane-iterations and does `sum(trips)` of them.
/// @param trip_counts_per_lane  one trip count per lane (each >= 0).
/// @return `sum / (lanes * max)`; 1.0 when every count is 0 (nothing waits).
/// @throws std::invalid_argument for an empty vector or a negative count.
double loop_lane_efficiency(const std::vector<long long>& trip_counts_per_lane);

/// Little's law for one warp scheduler: how many warps must be resident to keep
/// it issuing every cycle. The scheduler issues `issue_per_cycle` instructions
/// per cycle; each result is ready `latency_cycles` after issue; each warp can
/// offer `independent_per_warp` instructions (its instruction-level
/// parallelism) before it must wait for a result. In flight at once must be
/// `issue_per_cycle * latency_cycles` instructions, so the scheduler needs
/// `ceil(issue_per_cycle * latency_cycles / independent_per_warp)` warps.
/// @throws std::invalid_argument unless every argument is at least 1.
int warps_to_hide_latency(int latency_cycles, int independent_per_warp, int issue_per_cycle = 1);

}  // namespace ch01
