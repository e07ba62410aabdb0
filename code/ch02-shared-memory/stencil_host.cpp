// The CPU side of the chapter's stencil (see stencil_host.hpp).
#include "stencil_host.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <thread>

namespace ch02 {
namespace {

void check_radius(int radius, const char* who) {
    if (radius < 0)
        throw std::invalid_argument(std::string(who) + ": radius must be >= 0, got " +
                                    std::to_string(radius));
}

void check_sizes(std::size_t got, std::size_t want, const char* who) {
    if (got != want)
        throw std::invalid_argument(std::string(who) + ": " + std::to_string(got) +
                                    " outputs against a reference of " + std::to_string(want));
}

double gamma(int k, double u) { return k * u / (1.0 - k * u); }

}  // namespace

std::vector<double> stencil_reference(const std::vector<float>& in, int radius) {
    check_radius(radius, "stencil_reference");
    const long long n = static_cast<long long>(in.size());
    std::vector<double> out(in.size());
    for (long long i = 0; i < n; ++i) {
        double sum = 0.0;
        for (long long j = i - radius; j <= i + radius; ++j)
            if (j >= 0 && j < n) sum += in[static_cast<std::size_t>(j)];  // outside [0, n): 0
        out[static_cast<std::size_t>(i)] = sum;
    }
    return out;
}

namespace {

// in[k] as a whole number; throws naming k when it is not one.
std::int64_t whole(const std::vector<float>& in, long long k, const char* who) {
    const float v = in[static_cast<std::size_t>(k)];
    if (!(std::fabs(v) < 9.0e15f) || v != std::trunc(v))
        throw std::invalid_argument(std::string(who) + ": in[" + std::to_string(k) +
                                    "] = " + std::to_string(v) + " is not a whole number");
    return static_cast<std::int64_t>(v);
}

}  // namespace

std::vector<double> stencil_reference_integers(const std::vector<float>& in, int radius) {
    check_radius(radius, "stencil_reference_integers");
    const long long n = static_cast<long long>(in.size());
    // prefix[k] = in[0] + ... + in[k-1], exact in 64-bit integers.
    std::vector<std::int64_t> prefix(in.size() + 1, 0);
    for (long long k = 0; k < n; ++k)
        prefix[static_cast<std::size_t>(k + 1)] =
            prefix[static_cast<std::size_t>(k)] + whole(in, k, "stencil_reference_integers");
    std::vector<double> out(in.size());
    for (long long i = 0; i < n; ++i) {
        const long long lo = std::max(0LL, i - radius);
        const long long hi = std::min(n, i + radius + 1);  // one past the window, clipped to n
        out[static_cast<std::size_t>(i)] = static_cast<double>(
            prefix[static_cast<std::size_t>(hi)] - prefix[static_cast<std::size_t>(lo)]);
    }
    return out;
}

std::vector<double> window_abs_sums(const std::vector<float>& in, int radius) {
    check_radius(radius, "window_abs_sums");
    std::vector<float> mags(in.size());
    for (std::size_t k = 0; k < in.size(); ++k) mags[k] = std::fabs(in[k]);
    return stencil_reference(mags, radius);
}

double sum_tolerance(int terms, double abs_sum) {
    if (terms < 1) throw std::invalid_argument("sum_tolerance: terms must be >= 1");
    if (!(abs_sum >= 0.0)) throw std::invalid_argument("sum_tolerance: abs_sum must be >= 0");
    const double u_float = std::ldexp(1.0, -24), u_double = std::ldexp(1.0, -53);
    return (gamma(terms - 1, u_float) + gamma(terms - 1, u_double)) * abs_sum;
}

comparison compare_exact(const std::vector<float>& got, const std::vector<double>& want) {
    check_sizes(got.size(), want.size(), "compare_exact");
    comparison c;
    c.checked = static_cast<long long>(got.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        const double g = got[i];
        const double err = std::fabs(g - want[i]);
        if (!(g == want[i])) {  // NaN compares unequal
            ++c.mismatches;
            if (c.first_mismatch < 0) c.first_mismatch = static_cast<long long>(i);
        }
        if (std::isnan(err) || err > c.max_abs_error)
            c.max_abs_error = std::isnan(err) ? INFINITY : err;
    }
    return c;
}

namespace {

// in[k] as a whole number (a pointer version of whole()). Below 9e15 the round
// trip through int64 gives v back exactly when v is whole and changes it
// otherwise; std::trunc would be a library call on plain x86-64.
std::int64_t whole_at(const float* in, long long k) {
    const float v = in[k];
    const bool in_range = std::fabs(v) < 9.0e15f;  // false for NaN and the infinities
    const std::int64_t w = in_range ? static_cast<std::int64_t>(v) : 0;
    if (!in_range || static_cast<float>(w) != v)
        throw std::invalid_argument("compare_integers: in[" + std::to_string(k) +
                                    "] = " + std::to_string(v) + " is not a whole number");
    return w;
}

// compare_integers on the outputs [first, last).
comparison compare_integers_part(const float* got, const float* in, long long n, int radius,
                                 long long first, long long last) {
    comparison c;
    c.checked = last - first;
    // sum = in[i-R] + ... + in[i+R] (zero outside [0, n)), slid one step per output.
    // Every input is checked once, as it enters the window; one leaving it was
    // checked when it entered, or in the first window.
    std::int64_t sum = 0;
    for (long long j = std::max(0LL, first - radius); j <= first + radius && j < n; ++j)
        sum += whole_at(in, j);
    for (long long i = first; i < last; ++i) {
        if (i > first) {
            const long long enter = i + radius, leave = i - radius - 1;
            if (enter < n) sum += whole_at(in, enter);
            if (leave >= 0) sum -= static_cast<std::int64_t>(in[leave]);
        }
        const double want = static_cast<double>(sum), g = got[i];
        if (!(g == want)) {
            ++c.mismatches;
            if (c.first_mismatch < 0) c.first_mismatch = i;
        }
        const double err = std::isnan(g) ? INFINITY : std::fabs(g - want);
        c.max_abs_error = std::max(c.max_abs_error, err);
    }
    return c;
}

}  // namespace

long long compare_parts(long long n, long long cores) {
    const long long min_part = 1LL << 20;
    return std::max(1LL, std::min(cores, n / min_part));
}

comparison compare_integers(const float* got, const float* in, long long n, int radius,
                            long long parts) {
    check_radius(radius, "compare_integers");
    if (n < 0) throw std::invalid_argument("compare_integers: n is negative");
    if (parts < 1)
        throw std::invalid_argument("compare_integers: parts must be >= 1, got " +
                                    std::to_string(parts));
    parts = std::min(parts, std::max(n, 1LL));
    if (parts == 1) return compare_integers_part(got, in, n, radius, 0, n);
    std::vector<comparison> results(static_cast<std::size_t>(parts));
    std::vector<std::exception_ptr> errors(static_cast<std::size_t>(parts));
    // Part p starts at output p * (n / parts) + min(p, n % parts): the first
    // n % parts parts hold one output more (no product that could overflow).
    const long long size = n / parts, extra = n % parts;
    auto first = [&](long long p) { return p * size + std::min(p, extra); };
    std::vector<std::thread> threads;
    threads.reserve(static_cast<std::size_t>(parts));
    try {
        for (long long p = 0; p < parts; ++p)
            threads.emplace_back([&, p] {
                try {
                    results[static_cast<std::size_t>(p)] =
                        compare_integers_part(got, in, n, radius, first(p), first(p + 1));
                } catch (...) {
                    errors[static_cast<std::size_t>(p)] = std::current_exception();
                }
            });
    } catch (...) {  // a thread could not start: wait for those that did, then say so
        for (std::thread& t : threads) t.join();
        throw;
    }
    for (std::thread& t : threads) t.join();
    for (const std::exception_ptr& e : errors)
        if (e) std::rethrow_exception(e);
    comparison all;
    for (const comparison& c : results) merge(all, c);  // in order: the first mismatch stays first
    return all;
}

comparison compare_integers(const float* got, const float* in, long long n, int radius) {
    const long long cores = std::max(1u, std::thread::hardware_concurrency());
    return compare_integers(got, in, n, radius, compare_parts(n, cores));
}

comparison compare_integers(const std::vector<float>& got, const std::vector<float>& in,
                            int radius) {
    check_radius(radius, "compare_integers");
    check_sizes(got.size(), in.size(), "compare_integers");
    return compare_integers(got.data(), in.data(), static_cast<long long>(in.size()), radius);
}

comparison compare_within_tolerance(const std::vector<float>& got, const std::vector<double>& want,
                                    const std::vector<double>& scale, int radius) {
    check_radius(radius, "compare_within_tolerance");
    check_sizes(got.size(), want.size(), "compare_within_tolerance");
    check_sizes(scale.size(), want.size(), "compare_within_tolerance (scale)");
    comparison c;
    c.checked = static_cast<long long>(got.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        const double g = got[i];
        double err = std::fabs(g - want[i]);
        if (!std::isfinite(g)) err = INFINITY;
        const double tol = sum_tolerance(2 * radius + 1, scale[i]);
        // A tolerance of 0 (a window of zeros, or of one term) demands equality.
        const double over = tol > 0.0 ? err / tol : (err == 0.0 ? 0.0 : INFINITY);
        if (err > tol) {
            ++c.mismatches;
            if (c.first_mismatch < 0) c.first_mismatch = static_cast<long long>(i);
        }
        c.max_abs_error = std::max(c.max_abs_error, err);
        c.max_error_over_tolerance = std::max(c.max_error_over_tolerance, over);
    }
    return c;
}

void merge(comparison& a, const comparison& b) {
    if (a.first_mismatch < 0 && b.first_mismatch >= 0) a.first_mismatch = b.first_mismatch;
    a.checked += b.checked;
    a.mismatches += b.mismatches;
    a.max_abs_error = std::max(a.max_abs_error, b.max_abs_error);
    a.max_error_over_tolerance = std::max(a.max_error_over_tolerance, b.max_error_over_tolerance);
}

std::string describe(const comparison& c) {
    char buf[200];
    if (c.mismatches == 0)
        std::snprintf(buf, sizeof buf, "checked %lld, mismatches 0, max error %.3g", c.checked,
                      c.max_abs_error);
    else
        std::snprintf(buf, sizeof buf,
                      "checked %lld, mismatches %lld (first at %lld), max error %.3g", c.checked,
                      c.mismatches, c.first_mismatch, c.max_abs_error);
    return buf;
}

}  // namespace ch02
