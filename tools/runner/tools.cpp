// Reading what cuobjdump and Nsight Compute print.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "runner.hpp"

namespace fs = std::filesystem;

namespace bookrun {

namespace {

/// Whether a kernel's (mangled) name is the one asked for: the same name, or
/// an Itanium-mangled name one of whose name components is it (_Z7divergePjii
/// for diverge; _ZN4ch0315reduce_one_passILi4EE... for reduce_one_pass, after
/// the namespace ch03). The components are read in turn, each a length and
/// that many characters, so that a namespace ending in a digit cannot shift them.
bool names_function(const std::string& mangled, const std::string& function) {
    if (mangled == function) return true;
    if (mangled.rfind("_Z", 0) != 0) return false;
    std::size_t p = 2;
    if (p < mangled.size() && mangled[p] == 'N') ++p;  // a nested name
    while (p < mangled.size() && std::isdigit(static_cast<unsigned char>(mangled[p]))) {
        std::size_t len = 0;
        while (p < mangled.size() && std::isdigit(static_cast<unsigned char>(mangled[p])))
            len = len * 10 + static_cast<std::size_t>(mangled[p++] - '0');
        if (len == 0 || p + len > mangled.size()) return false;
        if (len == function.size() && mangled.compare(p, len, function) == 0) return true;
        p += len;
    }
    return false;
}

}  // namespace

std::string extract_sass(const std::string& dump, const std::string& function) {
    // Sections start with "Function : <mangled name>". Find the one kernel the
    // name fits, then keep its first section (another arch repeats it), each
    // line stripped down to its instruction.
    auto section_name = [](const std::string& line) -> std::optional<std::string> {
        auto f = line.find("Function : ");
        if (f == std::string::npos) return std::nullopt;
        std::string name = line.substr(f + 11);
        while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back())))
            name.pop_back();
        return name;
    };
    std::vector<std::string> matches;
    {
        std::istringstream in(dump);
        std::string line;
        while (std::getline(in, line))
            if (auto name = section_name(line);
                name && names_function(*name, function) &&
                std::find(matches.begin(), matches.end(), *name) == matches.end())
                matches.push_back(*name);
    }
    if (matches.empty())
        throw Error(fmt::format("cuobjdump shows no function named '{}'", function));
    if (matches.size() > 1)
        throw Error(
            fmt::format("'{}' names {} kernels ({}); give --sass-function the mangled name "
                        "of the one to show",
                        function, matches.size(), fmt::join(matches, ", ")));
    static const std::regex instr(R"(^\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;?\s*(/\*.*\*/)?\s*$)");
    std::istringstream in(dump);
    std::string line, out;
    bool inside = false, seen = false;
    while (std::getline(in, line)) {
        if (auto name = section_name(line)) {
            if (seen) break;
            inside = seen = *name == matches[0];
            continue;
        }
        if (!inside) continue;
        if (line.find(".L_x_") != std::string::npos && line.find(':') != std::string::npos &&
            line.find("/*") == std::string::npos) {
            out += line.substr(line.find_first_not_of(" \t")) + "\n";  // a label
            continue;
        }
        std::smatch m;
        if (std::regex_match(line, m, instr)) {
            // Keep the address: branch targets (BRA 0x3f0, BSSY B0, 0xb60) refer to it.
            std::string text = m[2].str();
            if (!text.empty() && text.back() == ';') text.pop_back();
            out += "/*" + m[1].str() + "*/  " + text + "\n";
        }
    }
    return out;
}

std::string ncu_kernel_filter(const std::vector<std::string>& regexes) {
    if (regexes.size() == 1) return "regex:" + regexes[0];
    std::string out = "regex:";
    for (std::size_t i = 0; i < regexes.size(); ++i)
        out += (i == 0 ? "(" : "|(") + regexes[i] + ")";
    return out;
}

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

std::string parse_driver_version(const std::string& text) {
    static const std::regex version(R"(^\s*([0-9]+(\.[0-9]+)+)\s*$)");
    static const std::regex module(R"(Kernel Module\s+([0-9]+(\.[0-9]+)+))");
    std::istringstream in(text);
    std::string first;
    std::getline(in, first);
    std::smatch m;
    if (std::regex_match(first, m, version)) return m[1].str();
    if (std::regex_search(text, m, module)) return m[1].str();
    return "";
}

json parse_ncu_csv(const std::string& csv, const std::vector<std::string>& labels) {
    auto split = [](const std::string& line) {
        std::vector<std::string> cells;
        std::string cell;
        bool quoted = false;
        for (size_t i = 0; i < line.size(); ++i) {
            char c = line[i];
            if (c == '"') {
                if (quoted && i + 1 < line.size() && line[i + 1] == '"') {
                    cell += '"';
                    ++i;
                } else {
                    quoted = !quoted;
                }
            } else if (c == ',' && !quoted) {
                cells.push_back(cell);
                cell.clear();
            } else if (c != '\r') {
                cell += c;
            }
        }
        cells.push_back(cell);
        return cells;
    };
    std::istringstream in(csv);
    std::string line;
    std::vector<std::string> header;
    int id_col = -1, name_col = -1, unit_col = -1, value_col = -1, kernel_col = -1;
    json out = json::object();
    std::vector<std::string> ids, kernels;  // launch ids (and kernels) in order of appearance
    while (std::getline(in, line)) {
        if (line.rfind("\"ID\"", 0) == 0) {
            header = split(line);
            for (int i = 0; i < static_cast<int>(header.size()); ++i) {
                if (header[i] == "ID") id_col = i;
                if (header[i] == "Metric Name") name_col = i;
                if (header[i] == "Metric Unit") unit_col = i;
                if (header[i] == "Metric Value") value_col = i;
                if (header[i] == "Kernel Name") kernel_col = i;
            }
            continue;
        }
        if (header.empty() || line.empty() || line[0] != '"') continue;
        auto cells = split(line);
        if (static_cast<int>(cells.size()) <= std::max({id_col, name_col, unit_col, value_col}))
            continue;
        const std::string& id = cells[id_col];
        if (std::find(ids.begin(), ids.end(), id) == ids.end()) {
            ids.push_back(id);
            kernels.push_back(kernel_col >= 0 && kernel_col < static_cast<int>(cells.size())
                                  ? cells[kernel_col]
                                  : "?");
        }
        size_t index = static_cast<size_t>(std::find(ids.begin(), ids.end(), id) - ids.begin());
        std::string label =
            index < labels.size() ? labels[index] : "launch" + std::to_string(index);
        std::string value = cells[value_col];
        value.erase(std::remove(value.begin(), value.end(), ','), value.end());
        json v;
        try {
            size_t used = 0;
            double d = std::stod(value, &used);
            v = {{"value", d}, {"unit", cells[unit_col]}};
        } catch (const std::exception&) {
            v = {{"value", nullptr}, {"unit", cells[unit_col]}, {"text", cells[value_col]}};
        }
        if (kernel_col >= 0) v["kernel"] = cells[kernel_col];
        out[label + ":" + cells[name_col]] = v;
    }
    if (header.empty()) throw Error("ncu printed no metrics table");
    if (!labels.empty() && labels.size() != ids.size())
        throw Error(fmt::format(
            "ncu profiled {} launch{} ({}), but {} label{} name{} them ({}): "
            "give one label per profiled launch, in launch order",
            ids.size(), ids.size() == 1 ? "" : "es", fmt::join(kernels, ", "), labels.size(),
            labels.size() == 1 ? "" : "s", labels.size() == 1 ? "s" : "", fmt::join(labels, ", ")));
    return out;
}

}  // namespace bookrun
