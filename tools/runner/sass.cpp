// The SASS a record shows: one kernel's instructions, read from what
// `cuobjdump -sass` prints (--cuobjdump, --sass-function).
#include <algorithm>
#include <cctype>
#include <optional>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "runner.hpp"

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

}  // namespace bookrun
