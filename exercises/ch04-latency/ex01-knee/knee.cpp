// Chapter 4, exercise 1: your code goes here. Read README.md first.
// Each function below compiles but gives a wrong answer: replace the TODOs.
#include "knee.hpp"

namespace ch04ex1 {

double bytes_in_flight(int warps, int loads, int width) {
    return static_cast<double>(warps) * loads * width;  // TODO: every lane of a warp loads
}

double knee_bytes_per_sm(double tbs, double latency_ns, int sms) {
    (void)sms;
    return tbs * latency_ns;  // TODO: in bytes, and shared among the SMs
}

double predicted_tbs(double bytes_per_sm, int sms, double latency_ns, double ceiling_tbs) {
    (void)bytes_per_sm, (void)sms, (void)latency_ns;
    return ceiling_tbs;  // TODO: below the knee, the bytes in flight set it
}

int loads_to_reach(double knee_bytes, int warps, int width) {
    (void)knee_bytes, (void)warps, (void)width;
    return 1;  // TODO: enough loads to reach the knee
}

}  // namespace ch04ex1
