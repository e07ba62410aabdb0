// little.cpp: Little's law for chapter 4 (little.hpp).
#include "little.hpp"

#include <algorithm>
#include <cmath>

namespace ch04 {

double bytes_in_flight(int warps, int loads, int width) {
    return static_cast<double>(warps) * kWarpLanes * loads * width;
}

// [listing:knee]
// Bytes in flight = bandwidth x latency, shared by the SMs.
// (TB/s x 1e3 is bytes per nanosecond.)
double knee_bytes_per_sm(double tbs, double latency_ns, int sms) {
    return tbs * 1e3 * latency_ns / sms;
}

// Below the knee, the bytes in flight set the bandwidth; above it, the ceiling.
double model_tbs(double bytes_per_sm, int sms, double latency_ns, double ceiling_tbs) {
    return std::min(ceiling_tbs, bytes_per_sm * sms / latency_ns / 1e3);
}
// [/listing:knee]

int warps_to_hide(double latency_cycles, double peak, int k) {
    // (less a hair, so that an L x peak / k that is whole in decimal stays whole)
    const int w = static_cast<int>(std::ceil(latency_cycles * peak / k - 1e-9));
    return std::max(1, w);
}

}  // namespace ch04
