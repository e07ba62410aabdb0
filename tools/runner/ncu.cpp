// What Nsight Compute reports: the kernels a run asks it to profile (--ncu-kernel)
// and the metrics table `ncu --csv` prints, as results ncu:<label>:<metric>.
#include <algorithm>
#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "runner.hpp"

namespace bookrun {

namespace {

/// The cells of one CSV line ("a","b,c" -> a | b,c; "" inside quotes is a quote).
std::vector<std::string> csv_cells(const std::string& line) {
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
}

/// The columns of the metrics table that a record reads (-1: not in the header).
struct NcuColumns {
    int id = -1, name = -1, unit = -1, value = -1, kernel = -1;

    explicit NcuColumns(const std::vector<std::string>& header) {
        for (int i = 0; i < static_cast<int>(header.size()); ++i) {
            if (header[i] == "ID") id = i;
            if (header[i] == "Metric Name") name = i;
            if (header[i] == "Metric Unit") unit = i;
            if (header[i] == "Metric Value") value = i;
            if (header[i] == "Kernel Name") kernel = i;
        }
    }
    bool fits(const std::vector<std::string>& cells) const {
        return static_cast<int>(cells.size()) > std::max({id, name, unit, value});
    }
};

/// One metric's cell as a record keeps it: a number with its unit, or the text
/// ncu printed where it gives no number ("n/a").
json ncu_value(const std::vector<std::string>& cells, const NcuColumns& col) {
    std::string value = cells[col.value];
    value.erase(std::remove(value.begin(), value.end(), ','), value.end());
    json v;
    try {
        size_t used = 0;
        double d = std::stod(value, &used);
        v = {{"value", d}, {"unit", cells[col.unit]}};
    } catch (const std::exception&) {
        v = {{"value", nullptr}, {"unit", cells[col.unit]}, {"text", cells[col.value]}};
    }
    if (col.kernel >= 0) v["kernel"] = cells[col.kernel];
    return v;
}

}  // namespace

std::vector<std::string> split_commas(const std::string& s) {
    std::vector<std::string> out;
    for (size_t a = 0, b; a <= s.size(); a = b + 1) {
        b = s.find(',', a);
        if (b == std::string::npos) b = s.size();
        if (b > a) out.push_back(s.substr(a, b - a));
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

json parse_ncu_csv(const std::string& csv, const std::vector<std::string>& labels) {
    std::istringstream in(csv);
    std::string line;
    std::optional<NcuColumns> col;
    json out = json::object();
    std::vector<std::string> ids, kernels;  // launch ids (and kernels) in order of appearance
    while (std::getline(in, line)) {
        if (line.rfind("\"ID\"", 0) == 0) {
            col.emplace(csv_cells(line));
            continue;
        }
        if (!col || line.empty() || line[0] != '"') continue;
        auto cells = csv_cells(line);
        if (!col->fits(cells)) continue;
        const std::string& id = cells[col->id];
        if (std::find(ids.begin(), ids.end(), id) == ids.end()) {
            ids.push_back(id);
            kernels.push_back(col->kernel >= 0 && col->kernel < static_cast<int>(cells.size())
                                  ? cells[col->kernel]
                                  : "?");
        }
        size_t index = static_cast<size_t>(std::find(ids.begin(), ids.end(), id) - ids.begin());
        std::string label =
            index < labels.size() ? labels[index] : "launch" + std::to_string(index);
        out[label + ":" + cells[col->name]] = ncu_value(cells, *col);
    }
    if (!col) throw Error("ncu printed no metrics table");
    if (!labels.empty() && labels.size() != ids.size())
        throw Error(fmt::format(
            "ncu profiled {} launch{} ({}), but {} label{} name{} them ({}): "
            "give one label per profiled launch, in launch order",
            ids.size(), ids.size() == 1 ? "" : "es", fmt::join(kernels, ", "), labels.size(),
            labels.size() == 1 ? "" : "s", labels.size() == 1 ? "s" : "", fmt::join(labels, ", ")));
    return out;
}

}  // namespace bookrun
