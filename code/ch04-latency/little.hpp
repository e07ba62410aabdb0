// little.hpp: Little's law for chapter 4, the arithmetic the programs and the
// tests share (no CUDA): bytes in flight per SM, the knee where they meet the
// read ceiling, the bandwidth the law predicts below it, and section 1.3's
// ceil(L / k) rule for instructions.
#pragma once

namespace ch04 {

/// Lanes of a warp.
inline constexpr int kWarpLanes = 32;

/// The bytes one SM has in flight when each lane of each of its `warps` warps
/// has issued `loads` independent loads of `width` bytes and waits for them.
double bytes_in_flight(int warps, int loads, int width);

/// Little's law at the ceiling: the bytes each of `sms` SMs must keep in
/// flight for memory to deliver `tbs` TB/s at a latency of `latency_ns`.
double knee_bytes_per_sm(double tbs, double latency_ns, int sms);

/// The bandwidth (TB/s) that `bytes_per_sm` in flight on each of `sms` SMs
/// deliver at a latency of `latency_ns`, and never more than `ceiling_tbs`.
double model_tbs(double bytes_per_sm, int sms, double latency_ns, double ceiling_tbs);

/// Section 1.3's rule: the warps a scheduler needs to issue `peak` instructions
/// a cycle when a result takes `latency_cycles` and each warp has `k`
/// independent instructions, ceil(latency x peak / k), and at least 1.
int warps_to_hide(double latency_cycles, double peak, int k);

}  // namespace ch04
