
// The attack's premise: a hidden set's worker alive while a worker whose output a
// student sees runs beside it. Each worker writes when it started and ended
// (CLOCK_MONOTONIC, one clock for every sandbox); the case checks that every
// hidden set's worker started after every visible set's worker ended.
#include <time.h>

#include <cstdio>

namespace {

long long now_ns() {
    timespec t{};
    ::clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

struct Span {
    long long start = now_ns();
    ~Span() { std::fprintf(stderr, "@SPAN %lld %lld\n", start, now_ns()); }
};

Span span;

}  // namespace
