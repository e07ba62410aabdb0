// Chapter 4, exercise 1: a solution.
#include "knee.hpp"

#include <algorithm>
#include <cmath>

namespace ch04ex1 {

double bytes_in_flight(int warps, int loads, int width) {
    return static_cast<double>(warps) * 32 * loads * width;
}

double knee_bytes_per_sm(double tbs, double latency_ns, int sms) {
    return tbs * 1e3 * latency_ns / sms;  // TB/s x 1e3 is bytes per nanosecond
}

double predicted_tbs(double bytes_per_sm, int sms, double latency_ns, double ceiling_tbs) {
    return std::min(ceiling_tbs, bytes_per_sm * sms / latency_ns / 1e3);
}

int loads_to_reach(double knee_bytes, int warps, int width) {
    const double per_load = bytes_in_flight(warps, 1, width);
    return std::max(1, static_cast<int>(std::ceil(knee_bytes / per_load)));
}

}  // namespace ch04ex1
