// A run record: what a program reported (merge_results), the provenance it may
// report, and a recording's form (lines, volatile part).
#include <algorithm>
#include <cmath>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "runner.hpp"

namespace bookrun {

void merge_results(json& record, const std::string& results_text) {
    if (!record.contains("results")) record["results"] = json::object();
    if (!record.contains("texts")) record["texts"] = json::object();
    std::istringstream lines(results_text);
    std::string line;
    int n = 0;
    while (std::getline(lines, line)) {
        ++n;
        if (line.empty()) continue;
        json j;
        try {
            j = json::parse(line);
        } catch (const json::parse_error& e) {
            throw Error(fmt::format("results line {} is not JSON: {}", n, e.what()));
        }
        auto field = [&](const char* key, bool (json::*is)() const noexcept,
                         const char* type) -> const json& {
            if (!j.is_object() || !j.contains(key) || !(j[key].*is)())
                throw Error(
                    fmt::format("results line {} needs \"{}\" ({}): {}", n, key, type, line));
            return j[key];
        };
        const std::string kind = j.is_object() ? j.value("kind", "") : "";
        if (kind == "result")
            record["results"][field("name", &json::is_string, "a string").get<std::string>()] = {
                {"value", field("value", &json::is_number, "a number")},
                {"unit", field("unit", &json::is_string, "a string")}};
        else if (kind == "text")
            record["texts"][field("name", &json::is_string, "a string").get<std::string>()] =
                field("text", &json::is_string, "a string");
        else if (kind == "provenance")
            record["provenance"][field("key", &json::is_string, "a string").get<std::string>()] =
                field("value", &json::is_string, "a string");
        else
            throw Error(fmt::format("results line {} has unknown kind '{}'", n, kind));
    }
}

void check_program_provenance(const json& reported, bool gpu, const Schema& schema,
                              const std::string& name) {
    for (auto& [key, value] : reported.items()) {
        const bool allowed =
            gpu && std::find(schema.program_provenance.begin(), schema.program_provenance.end(),
                             key) != schema.program_provenance.end();
        if (!allowed)
            throw Error(fmt::format(
                "program {} reported provenance '{}' (\"{}\"), which {}: provenance says where and "
                "how a run was made, and the runner owns it (a GPU program may report only {})",
                name, key, value.is_string() ? value.get<std::string>() : value.dump(),
                gpu ? "is not a device property" : "a CPU program cannot report",
                fmt::format("{}", fmt::join(schema.program_provenance, ", "))));
    }
}

void check_volatile_formats(const json& vol, const std::string& where, const Schema& schema) {
    for (const auto& [field, format] : schema.volatile_formats) {
        const json* v = &vol;
        std::string part = field;
        if (part.rfind("provenance.", 0) == 0) {
            if (!vol.contains("provenance")) continue;
            v = &vol["provenance"];
            part = part.substr(11);
        }
        if (!v->contains(part)) continue;
        const json& x = (*v)[part];
        if (format == "positive") {
            if (!x.is_number() || !(x.get<double>() > 0) || !std::isfinite(x.get<double>()))
                throw Error(
                    fmt::format("{}: '{}' is {}, but it must be a positive number of "
                                "seconds",
                                where, field, x.dump()));
            continue;
        }
        if (!x.is_string() || !std::regex_match(x.get<std::string>(), std::regex(format)))
            throw Error(
                fmt::format("{}: '{}' is {}, which is not what a recording holds there "
                            "(it must match {}): a recording's volatile part is written "
                            "by `tools/book record`, never by hand",
                            where, field, x.dump(), format));
    }
}

namespace {
json split_lines(const std::string& text) {
    json lines = json::array();
    std::size_t a = 0;
    while (true) {
        auto b = text.find('\n', a);
        if (b == std::string::npos) {
            lines.push_back(text.substr(a));
            return lines;
        }
        lines.push_back(text.substr(a, b - a));
        a = b + 1;
    }
}

std::string join_lines(const json& lines, const std::string& where) {
    if (lines.is_string()) return lines.get<std::string>();
    if (!lines.is_array() || lines.empty())
        throw Error(fmt::format("{} should be an array of lines", where));
    std::string text;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (!lines[i].is_string())
            throw Error(fmt::format("{}: line {} is not a string", where, i + 1));
        if (i > 0) text += '\n';
        text += lines[i].get<std::string>();
    }
    return text;
}
}  // namespace

json to_recording_lines(json stable, const Schema& schema) {
    for (const auto& f : schema.line_fields)
        if (stable.contains(f) && stable[f].is_string()) stable[f] = split_lines(stable[f]);
    for (const auto& o : schema.line_objects)
        if (stable.contains(o) && stable[o].is_object())
            for (auto& [k, v] : stable[o].items())
                if (v.is_string()) v = split_lines(v.get<std::string>());
    return stable;
}

json from_recording_lines(json stable, const std::string& where, const Schema& schema) {
    if (!stable.is_object()) return stable;
    for (const auto& f : schema.line_fields)
        if (stable.contains(f))
            stable[f] = join_lines(stable[f], fmt::format("{}: '{}'", where, f));
    for (const auto& o : schema.line_objects)
        if (stable.contains(o) && stable[o].is_object())
            for (auto& [k, v] : stable[o].items())
                v = join_lines(v, fmt::format("{}: '{}.{}'", where, o, k));
    return stable;
}

std::pair<json, json> split_volatile(const json& record, const Schema& schema) {
    json stable = record, vol = json::object();
    for (const auto& k : schema.volatile_provenance)
        if (stable["provenance"].contains(k)) {
            vol["provenance"][k] = stable["provenance"][k];
            stable["provenance"].erase(k);
        }
    for (const auto& k : schema.volatile_record)
        if (stable.contains(k)) {
            vol[k] = stable[k];
            stable.erase(k);
        }
    return {stable, vol};
}

json join_volatile(json stable, const json& vol) {
    for (auto& [k, v] : vol.items()) {
        if (k == "provenance")
            for (auto& [pk, pv] : v.items()) stable["provenance"][pk] = pv;
        else
            stable[k] = v;
    }
    return stable;
}

}  // namespace bookrun
