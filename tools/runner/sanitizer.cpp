// What compute-sanitizer reports: its counts, the report as a record keeps it,
// and whether a run's expectation of it holds (--sanitizer, --sanitizer-expect).
#include <filesystem>
#include <optional>
#include <regex>
#include <sstream>

#include <fmt/format.h>

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

}  // namespace bookrun
