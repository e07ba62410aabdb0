#include "book/report.hpp"

#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace book {
namespace {

void append_line(const nlohmann::json& line) {
    const char* path = std::getenv("BOOK_RESULTS");
    if (path == nullptr || *path == '\0') return;
    std::ofstream out(path, std::ios::app);
    out << line.dump() << '\n';
    if (!out) throw std::runtime_error(std::string("cannot write results file ") + path);
}

}  // namespace

void report(std::string_view name, double value, std::string_view unit) {
    append_line({{"kind", "result"}, {"name", name}, {"value", value}, {"unit", unit}});
}

void report_text(std::string_view name, std::string_view text) {
    append_line({{"kind", "text"}, {"name", name}, {"text", text}});
}

void report_provenance(std::string_view key, std::string_view value) {
    append_line({{"kind", "provenance"}, {"key", key}, {"value", value}});
}

}  // namespace book
