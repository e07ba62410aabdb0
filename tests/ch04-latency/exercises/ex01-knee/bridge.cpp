// Exercise 4.1's bridge (tools/grader/judge/grade_bridge.hpp): the functions of
// knee.hpp, called in the worker, from the judge.
#include "grade_bridge.hpp"
#include "knee.hpp"

#ifdef BOOK_GRADE_WORKER
BOOK_GRADE_EXPORTS(e) {
    e.add("bytes_in_flight", &ch04ex1::bytes_in_flight);
    e.add("knee_bytes_per_sm", &ch04ex1::knee_bytes_per_sm);
    e.add("predicted_tbs", &ch04ex1::predicted_tbs);
    e.add("loads_to_reach", &ch04ex1::loads_to_reach);
}
#else
using book::grade::call;
double ch04ex1::bytes_in_flight(int warps, int loads, int width) {
    return call<double>("bytes_in_flight", warps, loads, width);
}
double ch04ex1::knee_bytes_per_sm(double tbs, double latency_ns, int sms) {
    return call<double>("knee_bytes_per_sm", tbs, latency_ns, sms);
}
double ch04ex1::predicted_tbs(double bytes_per_sm, int sms, double latency_ns, double ceiling_tbs) {
    return call<double>("predicted_tbs", bytes_per_sm, sms, latency_ns, ceiling_tbs);
}
int ch04ex1::loads_to_reach(double knee_bytes, int warps, int width) {
    return call<int>("loads_to_reach", knee_bytes, warps, width);
}
#endif
