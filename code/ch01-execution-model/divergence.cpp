// divergence: what a two-way branch costs a SIMT warp, on a CPU model.
//
// A C++ port of the chapter's Python program divergence.py. It simulates
// --threads threads in warps of --warp lanes at a branch with two paths, A and
// B. A warp runs every path that any of its lanes takes, with the other lanes
// masked off, so all its lanes are held for the sum of those paths' costs
// ("lane-cycles"), while each lane only needed its own path ("useful").
//
// With no arguments it prints exactly what `python3 divergence.py` prints.
// Each option stands for one edit of the Python script:
//
//   --cost-a N, --cost-b N    run()'s defaults `cost_a: int = 100, cost_b: int = 100`
//                             (the costs of the first four rows)
//   --slow-cost-a N,          the last row's `cost_a=10, cost_b=1000`
//   --slow-cost-b N
//   --slow-every N            the last row's predicate `i % 32 != 0` becomes
//                             `i % N != 0`, its label "1 lane in N takes slow path"
//   --sort-random             `rnd.sort()` after rnd is built (False before True)
//   --warp N                  `WARP = N`; the "split by warp" row keeps its
//                             literal `i // 32`, as the Python lambda does
//   --threads N               every run's `n: int = 4096` and the 4096 of rnd
//   --seed N                  `random.seed(N)`
//
// The results also go to the book's runner through book::report.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <functional>
#include <locale>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "book/options.hpp"
#include "book/report.hpp"
#include "py_random.hpp"
#include "warp_model.hpp"

namespace {

/// The program's settings; the defaults are the Python script's.
struct Options {
    long long cost_a = 100;        ///< Path A's cost in the first four rows.
    long long cost_b = 100;        ///< Path B's cost in the first four rows.
    long long slow_cost_a = 10;    ///< Path A's cost in the slow-lane row.
    long long slow_cost_b = 1000;  ///< Path B's (the slow path's) cost in the slow-lane row.
    long long slow_every = 32;     ///< One lane in this many takes the slow path.
    bool sort_random = false;      ///< Sort the random outcomes before the random row.
    int warp = 32;                 ///< Lanes per warp.
    long long threads = 4096;      ///< Threads simulated per row, and random outcomes drawn.
    std::int64_t seed = 7;         ///< Seed of Python's random module.
};

/// Digit grouping as Python's `{:,}` writes it: a comma every three digits.
struct CommaGrouping : std::numpunct<char> {
    char do_thousands_sep() const override { return ','; }
    std::string do_grouping() const override { return "\3"; }
};

/// Python's `{:6.1%}`: the value times 100 (in double), one decimal, a percent
/// sign, right-aligned in 6 characters.
std::string percent(double fraction) {
    return fmt::format("{:>6}", fmt::format("{:.1f}%", fraction * 100.0));
}

/// Simulates one row, prints it as the Python run() does, and reports it.
class RowPrinter {
public:
    RowPrinter(int warp, long long threads)
        : warp_(warp), threads_(threads), commas_(std::locale::classic(), new CommaGrouping) {}

    void run(std::string_view label, std::string_view key,
             const std::function<bool(long long)>& pred, long long cost_a, long long cost_b) const {
        const ch01::LaneCycles c = ch01::simulate(pred, threads_, warp_, cost_a, cost_b);
        if (c.total == 0) {  // where Python raises ZeroDivisionError
            throw std::runtime_error(
                fmt::format("row \"{}\" spends no lane-cycles, so its efficiency is undefined "
                            "(it needs --threads >= --warp and a non-zero cost)",
                            label));
        }
        const double efficiency = c.efficiency();
        // The Python row: the label in 34 columns, the counts as {:>8,}, the ratio as {:6.1%}.
        const std::string line =
            fmt::format(commas_, "{:<34} lane-cycles={:>8L} useful={:>8L} efficiency={}", label,
                        c.total, c.useful, percent(efficiency));
        fmt::print("{}\n", line);
        const std::string k(key);
        book::report("lane_cycles_" + k, static_cast<double>(c.total), "lane-cycles");
        book::report("useful_" + k, static_cast<double>(c.useful), "lane-cycles");
        book::report("efficiency_" + k, efficiency, "fraction");
    }

private:
    int warp_;
    long long threads_;
    std::locale commas_;
};

void run_program(const Options& opt) {
    // One coin flip per thread, drawn as Python's `random.random() < 0.5`.
    ch01::PyRandom rng(opt.seed);
    std::vector<bool> rnd(static_cast<std::size_t>(opt.threads));
    for (std::size_t i = 0; i < rnd.size(); ++i) rnd[i] = rng.random() < 0.5;
    if (opt.sort_random) {
        // Sorting booleans puts every false before every true.
        const auto n_true = std::count(rnd.begin(), rnd.end(), true);
        std::fill(rnd.begin(), rnd.end() - n_true, false);
        std::fill(rnd.end() - n_true, rnd.end(), true);
    }

    // The model's parameters, so that the text quotes them from the run.
    book::report("threads", static_cast<double>(opt.threads), "threads");
    book::report("warp", opt.warp, "lanes");
    book::report("slow_every", static_cast<double>(opt.slow_every), "lanes");
    book::report("slow_cost_a", static_cast<double>(opt.slow_cost_a), "units");
    book::report("slow_cost_b", static_cast<double>(opt.slow_cost_b), "units");

    const RowPrinter rows(opt.warp, opt.threads);
    const long long a = opt.cost_a;
    const long long b = opt.cost_b;
    const long long every = opt.slow_every;
    // Kept as written: the chapter shows these lines.
    // clang-format off
    // [listing:rows]
    rows.run("uniform (all take A)", "uniform",
             [](long long) { return true; }, a, b);
    rows.run("split by warp (i // 32 even)", "split_by_warp",
             [](long long i) { return (i / 32) % 2 == 0; }, a, b);
    rows.run("split by lane (i even)", "split_by_lane",
             [](long long i) { return i % 2 == 0; }, a, b);
    rows.run("random 50/50", "random",
             [&rnd](long long i) { return static_cast<bool>(rnd[static_cast<std::size_t>(i)]); },
             a, b);
    rows.run(fmt::format("1 lane in {} takes slow path", every), "slow_lane",
             [every](long long i) { return i % every != 0; }, opt.slow_cost_a, opt.slow_cost_b);
    // [/listing:rows]
    // clang-format on
}

}  // namespace

int main(int argc, char** argv) {
    Options opt;
    book::options opts(
        "divergence: the cost of a two-way branch to SIMT warps (a CPU model).\n"
        "With no options it prints what the chapter's divergence.py prints;\n"
        "each option is the Python edit named in its help.");
    opts.option("--cost-a", opt.cost_a,
                "Path A's cost in the first four rows (Python: run()'s default cost_a)", 0);
    opts.option("--cost-b", opt.cost_b,
                "Path B's cost in the first four rows (Python: run()'s default cost_b)", 0);
    opts.option("--slow-cost-a", opt.slow_cost_a,
                "Path A's cost in the last row (Python: the last run()'s cost_a=10)", 0);
    opts.option("--slow-cost-b", opt.slow_cost_b,
                "Path B's cost in the last row (Python: the last run()'s cost_b=1000)", 0);
    opts.option("--slow-every", opt.slow_every,
                "One lane in N takes the slow path in the last row (Python: its lambda "
                "becomes i % N != 0 and its label \"1 lane in N takes slow path\")",
                1);
    opts.flag("--sort-random", opt.sort_random,
              "Sort the random outcomes, false first (Python: rnd.sort() after rnd is built)");
    opts.option("--warp", opt.warp,
                "Lanes per warp (Python: WARP = N; the \"split by warp\" row keeps its "
                "literal i // 32)",
                1);
    opts.option("--threads", opt.threads,
                "Threads per row and random outcomes drawn (Python: run()'s default n, "
                "and range(4096) of rnd)",
                0);
    opts.option("--seed", opt.seed, "Seed of the random outcomes (Python: random.seed(N))");
    if (const auto status = opts.parse(argc, argv)) return *status;

    try {
        run_program(opt);
    } catch (const std::exception& e) {
        std::fflush(stdout);
        fmt::print(stderr, "divergence: error: {}\n", e.what());
        return 1;
    }
    return 0;
}
