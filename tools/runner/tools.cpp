// Reading what cuobjdump and Nsight Compute print.
#include <algorithm>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "runner.hpp"

namespace bookrun {

std::string extract_sass(const std::string& dump, const std::string& function) {
    // Sections start with "Function : <mangled name>"; keep the one whose name
    // holds the function, and strip each line down to its instruction.
    std::istringstream in(dump);
    std::string line, out;
    bool inside = false, found = false;
    static const std::regex instr(R"(^\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;?\s*(/\*.*\*/)?\s*$)");
    while (std::getline(in, line)) {
        auto f = line.find("Function : ");
        if (f != std::string::npos) {
            std::string name = line.substr(f + 11);
            inside = name.find(function) != std::string::npos;
            found = found || inside;
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
    if (!found) throw Error(fmt::format("cuobjdump shows no function named '{}'", function));
    return out;
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
    int id_col = -1, name_col = -1, unit_col = -1, value_col = -1;
    json out = json::object();
    std::vector<std::string> ids;  // launch ids in order of appearance
    while (std::getline(in, line)) {
        if (line.rfind("\"ID\"", 0) == 0) {
            header = split(line);
            for (int i = 0; i < static_cast<int>(header.size()); ++i) {
                if (header[i] == "ID") id_col = i;
                if (header[i] == "Metric Name") name_col = i;
                if (header[i] == "Metric Unit") unit_col = i;
                if (header[i] == "Metric Value") value_col = i;
            }
            continue;
        }
        if (header.empty() || line.empty() || line[0] != '"') continue;
        auto cells = split(line);
        if (static_cast<int>(cells.size()) <= std::max({id_col, name_col, unit_col, value_col})) continue;
        const std::string& id = cells[id_col];
        if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
        size_t index = static_cast<size_t>(std::find(ids.begin(), ids.end(), id) - ids.begin());
        std::string label = index < labels.size() ? labels[index] : "launch" + std::to_string(index);
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
        out[label + ":" + cells[name_col]] = v;
    }
    if (header.empty()) throw Error("ncu printed no metrics table");
    return out;
}

}  // namespace bookrun
