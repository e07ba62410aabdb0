// Where and how a run was made: the provenance the runner adds to a record.
#include <regex>
#include <sstream>

#include "runner.hpp"

namespace bookrun {

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

}  // namespace bookrun
