/// @file knee.hpp
/// @brief Chapter 4, exercise 1: Little's law for memory, from the bytes one SM
/// has in flight to the bandwidth they buy and back.
#pragma once

namespace ch04ex1 {

/// The bytes one SM has in flight when each of the 32 lanes of each of its
/// `warps` warps has issued `loads` independent loads of `width` bytes and
/// waits for them.
double bytes_in_flight(int warps, int loads, int width);

/// The knee: the bytes each of `sms` SMs must keep in flight for memory to
/// deliver `tbs` TB/s (10^12 bytes a second) at a latency of `latency_ns`
/// nanoseconds.
double knee_bytes_per_sm(double tbs, double latency_ns, int sms);

/// The bandwidth in TB/s that `bytes_per_sm` in flight on each of `sms` SMs
/// deliver at a latency of `latency_ns` nanoseconds, and never more than
/// `ceiling_tbs`.
double predicted_tbs(double bytes_per_sm, int sms, double latency_ns, double ceiling_tbs);

/// The fewest independent loads of `width` bytes each lane of `warps` warps
/// per SM must issue so that the SM's bytes in flight reach `knee_bytes`
/// (at least 1).
int loads_to_reach(double knee_bytes, int warps, int width);

}  // namespace ch04ex1
