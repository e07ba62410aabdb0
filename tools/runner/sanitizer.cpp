// What compute-sanitizer reports: its counts, the report as a record keeps it,
// and whether a run's expectation of it holds (--sanitizer, --sanitizer-expect).
#include <filesystem>
#include <iostream>
#include <optional>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "commands.hpp"
#include "runner.hpp"

namespace fs = std::filesystem;

namespace bookrun {

sanitizer_counts sanitizer_summary(const std::string& report) {
    // Line by line: with more errors than it prints, the tool also writes
    // "ERROR SUMMARY: 316 errors were not printed. ..." before the real summary.
    static const std::regex errors_only(R"(ERROR SUMMARY: ([0-9]+) errors?\s*)");
    static const std::regex racecheck(
        R"(.*RACECHECK SUMMARY: [0-9]+ hazards? displayed \(([0-9]+) errors?, ([0-9]+) warnings?\)\s*)");
    std::optional<sanitizer_counts> found;
    std::istringstream lines(report);
    std::string line;
    std::smatch m;
    while (std::getline(lines, line)) {
        if (std::regex_match(line, m, racecheck)) {
            found = sanitizer_counts{std::stoi(m[1].str()), std::stoi(m[2].str())};
        } else {
            const auto at = line.find("ERROR SUMMARY: ");
            const std::string tail = at == std::string::npos ? "" : line.substr(at);
            if (std::regex_match(tail, m, errors_only))
                found = sanitizer_counts{std::stoi(m[1].str()), 0};
        }
    }
    if (found) return *found;
    throw Error(
        "the compute-sanitizer report has neither an \"ERROR SUMMARY: <n> errors\" nor a "
        "\"RACECHECK SUMMARY: ... (<n> errors, <m> warnings)\" line, so its counts are "
        "unknown; it ends:\n" +
        report.substr(report.size() > 2000 ? report.size() - 2000 : 0));
}

int sanitizer_errors(const std::string& report) { return sanitizer_summary(report).errors; }

std::string mask_sanitizer_report(const std::string& report, const std::string& source_root) {
    std::string out = report;
    if (!source_root.empty()) {
        std::string root = fs::absolute(source_root).lexically_normal().string();
        if (!root.empty() && root.back() != '/') root += '/';
        for (auto p = out.find(root); p != std::string::npos; p = out.find(root, p))
            out.erase(p, root.size());
    }
    // Addresses of memory (device or host pointers) change from run to run.
    static const std::regex address("0x[0-9a-fA-F]{9,}");
    return std::regex_replace(out, address, "0x…");
}

void check_sanitizer_expectation(const std::string& name, const SanitizerSpec& san,
                                 const sanitizer_counts& counts, const std::string& report) {
    const std::string& tool = san.tool;
    if (san.expect == "errors" && counts.errors == 0)
        throw Error(fmt::format(
            "program {} under compute-sanitizer {} reported no errors{}, but the "
            "run expects at least one (--sanitizer-expect errors); the report "
            "ends:\n{}",
            name, tool, counts.warnings ? fmt::format(" (and {} warnings)", counts.warnings) : "",
            tail_lines(report, 15)));
    if (san.expect == "warnings" && counts.errors + counts.warnings == 0)
        throw Error(
            fmt::format("program {} under compute-sanitizer {} reported no errors and no "
                        "warnings, but the run expects at least one (--sanitizer-expect "
                        "warnings); the report ends:\n{}",
                        name, tool, tail_lines(report, 15)));
    if (san.expect == "clean" && counts.errors + counts.warnings != 0)
        throw Error(
            fmt::format("program {} under compute-sanitizer {} reported {} error{} and {} "
                        "warning{}, but the run expects neither (--sanitizer-expect clean); the "
                        "report ends:\n{}",
                        name, tool, counts.errors, counts.errors == 1 ? "" : "s", counts.warnings,
                        counts.warnings == 1 ? "" : "s", tail_lines(report, 40)));
}

int cmd_sanitize(const SanitizeSpec& s) {
    std::vector<std::string> argv = {s.sanitizer, "--tool", s.tool, "--error-exitcode", "99"};
    if (s.tool == "racecheck") argv.insert(argv.end(), {"--racecheck-report", "all"});
    argv.insert(argv.end(), s.command.begin(), s.command.end());
    auto r = run_process(argv, s.env, s.timeout);
    std::cout << r.out;
    std::cerr << r.err;
    if (r.exit_status == kSkip && !r.timed_out) return kSkip;
    if (r.timed_out || r.signal != 0 || r.exit_status != 0)
        throw Error(fmt::format(
            "compute-sanitizer {} on {} {}", s.tool, s.command.at(0),
            r.exit_status == 99 ? std::string("found errors") : describe_failure(r, s.timeout)));
    std::cout << fmt::format("compute-sanitizer {}: clean\n", s.tool);
    return 0;
}

}  // namespace bookrun
