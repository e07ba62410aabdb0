// What bookrun's commands share: their checks, their inputs list, their messages.
#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "commands.hpp"
#include "runner.hpp"

namespace fs = std::filesystem;

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

json declared_checks(const RunSpec& run) {
    if (run.checks.empty()) return json::array();
    return read_checks_file(run.checks, run.reference_gpus)["checks"];
}

InputDiff checks_changes(const json& record, const RunSpec& run) {
    InputDiff out;
    const std::string file =
        run.checks.empty()
            ? std::string("no checks file now")
            : fs::absolute(run.checks)
                  .lexically_normal()
                  .lexically_proximate(fs::absolute(run.inputs.source_root).lexically_normal())
                  .string();
    if (!record.contains("checks_declared")) {
        if (!run.checks.empty())
            out.not_compared.push_back(fmt::format(
                "the checks it was made with (the recording was made before they were recorded; "
                "the checks of {} are evaluated on its results)",
                file));
        return out;
    }
    const json& had = record["checks_declared"];
    const json now = declared_checks(run);
    auto by_id = [](const json& checks) {
        std::map<std::string, json> m;
        for (const auto& c : checks) m[c.value("id", std::string{})] = c;
        return m;
    };
    const auto before = by_id(had), after = by_id(now);
    std::vector<std::string> what;
    for (const auto& [id, c] : after) {
        auto it = before.find(id);
        if (it == before.end())
            what.push_back(fmt::format("check '{}' added", id));
        else if (it->second != c)
            what.push_back(fmt::format("check '{}' changed (recorded {}; declared {})", id,
                                       it->second.dump(), c.dump()));
    }
    for (const auto& [id, c] : before)
        if (!after.count(id)) what.push_back(fmt::format("check '{}' removed", id));
    if (what.empty() && had != now) what.push_back("the checks' order changed");
    if (!what.empty())
        out.changes.push_back(fmt::format("its checks changed since it was recorded ({}: {})", file,
                                          fmt::join(what, "; ")));
    return out;
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
