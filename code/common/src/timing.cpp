// Timing with CUDA events (see book/timing.hpp).
#include "book/timing.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

#include "book/report.hpp"

namespace book {

timing_stats summarize_times(std::vector<double> ms) {
    if (ms.empty()) throw std::invalid_argument("summarize_times: no times");
    std::sort(ms.begin(), ms.end());
    auto quantile = [&](double q) {
        const double pos = q * static_cast<double>(ms.size() - 1);
        const auto lo = static_cast<std::size_t>(std::floor(pos));
        const std::size_t hi = std::min(lo + 1, ms.size() - 1);
        return ms[lo] + (pos - static_cast<double>(lo)) * (ms[hi] - ms[lo]);
    };
    return timing_stats{static_cast<int>(ms.size()),
                        quantile(0.5),
                        ms.front(),
                        ms.back(),
                        quantile(0.1),
                        quantile(0.9)};
}

double steady_ms() {
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

cuda_event::cuda_event() { BOOK_CUDA_CHECK(cudaEventCreate(&e_)); }

cuda_event::~cuda_event() {
    if (e_ != nullptr) cudaEventDestroy(e_);  // a destructor must not throw
}

double elapsed_ms(const cuda_event& start, const cuda_event& stop) {
    float ms = 0.0f;
    BOOK_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
    return static_cast<double>(ms);
}

void report_timing(std::string_view name, const timing_stats& s) {
    const std::string n(name);
    report(n + "_ms", s.median_ms, "ms");
    report(n + "_p10_ms", s.p10_ms, "ms");
    report(n + "_p90_ms", s.p90_ms, "ms");
    report(n + "_min_ms", s.min_ms, "ms");
    report(n + "_max_ms", s.max_ms, "ms");
    report(n + "_reps", s.reps, "count");
}

}  // namespace book
