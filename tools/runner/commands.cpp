// What bookrun's commands share: their checks, their inputs list, their messages.
#include <fmt/format.h>

#include "commands.hpp"
#include "runner.hpp"

namespace bookrun {

std::string tail_lines(const std::string& text, int n) {
    size_t pos = text.size();
    if (pos > 0 && text[pos - 1] == '\n') --pos;
    for (int seen = 0; seen < n && pos > 0; ++seen) {
        pos = text.rfind('\n', pos - 1);
        if (pos == std::string::npos) return text;
    }
    return pos == 0 ? text : text.substr(pos + 1);
}

void write_depfile(const std::string& depfile, const std::string& out,
                   const std::vector<std::string>& files) {
    if (depfile.empty()) return;
    std::string text = out + ":";
    for (auto f : files) {
        std::string esc;
        for (char c : f) esc += (c == ' ') ? std::string("\\ ") : std::string(1, c);
        text += " \\\n  " + esc;
    }
    write_file_atomically(depfile, text + "\n");
}

json apply_checks(const RunSpec& run, json& record) {
    if (run.checks.empty()) return json::array();
    auto evaluated =
        evaluate_checks_repeated(read_checks_file(run.checks, run.reference_gpus), record);
    record["checks"] = evaluated;
    return evaluated;
}

void fail_on_checks(const std::string& name, const json& evaluated, const std::string& whence) {
    auto failed = failed_checks(evaluated);
    if (failed.empty()) return;
    std::string msg = fmt::format("{} {}: {} of {} checks failed:", name, whence, failed.size(),
                                  evaluated.size());
    for (const auto& f : failed) msg += "\n  " + f;
    throw Error(msg);
}

}  // namespace bookrun
