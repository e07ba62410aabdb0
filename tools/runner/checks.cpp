// A run's checks (its *.checks.json): read strictly, scoped to GPUs, and
// evaluated on a record's results, in every repeat.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "runner.hpp"

namespace bookrun {

namespace {

/// The smallest number of one-letter edits from a to b.
std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}

/// ", did you mean 'min'?" for a key close to a known one.
std::string suggestion(const std::string& key, const std::vector<std::string>& known) {
    for (const auto& k : known)
        if (edit_distance(key, k) <= 2 || key.rfind(k, 0) == 0 || k.rfind(key, 0) == 0)
            return fmt::format("; did you mean '{}'?", k);
    return "";
}

/// A check's "gpus": a non-empty array of distinct reference GPU names.
void check_gpus(const json& gpus, const std::string& at, const std::string& label,
                const std::vector<std::string>& reference) {
    const std::string known =
        reference.empty()
            ? std::string("none were given: bookrun --reference-gpu, from book/gpus.json")
            : fmt::format("{}: book/gpus.json", fmt::join(reference, ", "));
    if (!gpus.is_array() || gpus.empty())
        throw Error(
            fmt::format("{}: {}: \"gpus\" should be a non-empty array of the reference "
                        "GPUs' names the check holds on ({}), not {}",
                        at, label, known, gpus.dump()));
    std::set<std::string> seen;
    for (const auto& g : gpus) {
        if (!g.is_string() || g.get<std::string>().empty())
            throw Error(
                fmt::format("{}: {}: \"gpus\" holds {}, not a GPU's name", at, label, g.dump()));
        const std::string name = g.get<std::string>();
        if (std::find(reference.begin(), reference.end(), name) == reference.end())
            throw Error(
                fmt::format("{}: {}: \"gpus\" names '{}', which is no reference GPU "
                            "(the reference GPUs: {}){}",
                            at, label, name, known, suggestion(name, reference)));
        if (!seen.insert(name).second)
            throw Error(fmt::format("{}: {}: \"gpus\" names '{}' twice", at, label, name));
    }
}

}  // namespace

json parse_checks(const std::string& text, const std::string& path,
                  const std::vector<std::string>& reference_gpus) {
    json doc = parse_with_lines(text, path);
    auto lines = json_lines(text);
    auto at = [&](const std::string& pointer) {
        auto it = lines.find(pointer);
        return it == lines.end() ? path : fmt::format("{}:{}", path, it->second);
    };
    if (!doc.is_object()) throw Error(fmt::format("{}: a checks file is a JSON object", at("")));
    const std::vector<std::string> top = {"checks", "about"};
    for (auto& [k, v] : doc.items())
        if (std::find(top.begin(), top.end(), k) == top.end())
            throw Error(
                fmt::format("{}: unknown key '{}' (a checks file has \"checks\" and, "
                            "optionally, \"about\"){}",
                            at("/" + k), k, suggestion(k, top)));
    if (!doc.contains("checks") || !doc["checks"].is_array())
        throw Error(fmt::format("{}: a checks file needs an array \"checks\"", at("")));
    if (doc["checks"].empty())
        throw Error(fmt::format("{}: the checks file has no checks", at("/checks")));
    const std::vector<std::string> keys = {"id", "what", "value", "over", "min", "max", "gpus"};
    std::map<std::string, std::string> seen;  // id -> where
    for (std::size_t i = 0; i < doc["checks"].size(); ++i) {
        const json& c = doc["checks"][i];
        const std::string base = fmt::format("/checks/{}", i);
        std::string label = fmt::format("check {} (of {})", i + 1, doc["checks"].size());
        if (!c.is_object())
            throw Error(fmt::format("{}: {} is {}, not an object", at(base), label, c.type_name()));
        if (c.contains("id") && c["id"].is_string() && !c["id"].get<std::string>().empty())
            label = fmt::format("check '{}'", c["id"].get<std::string>());
        for (auto& [k, v] : c.items())
            if (std::find(keys.begin(), keys.end(), k) == keys.end())
                throw Error(
                    fmt::format("{}: {}: unknown key '{}' (a check has id, what, value, "
                                "over, min, max, gpus){}",
                                at(base + "/" + k), label, k, suggestion(k, keys)));
        if (!c.contains("id") || !c["id"].is_string() || c["id"].get<std::string>().empty())
            throw Error(fmt::format("{}: {} has no \"id\" (a non-empty string)", at(base), label));
        const std::string id = c["id"].get<std::string>();
        if (auto it = seen.find(id); it != seen.end())
            throw Error(fmt::format("{}: {}: the id is used twice (first at {})", at(base + "/id"),
                                    label, it->second));
        seen[id] = at(base + "/id");
        for (const char* k : {"value", "over", "what"})
            if (c.contains(k) && (!c[k].is_string() || c[k].get<std::string>().empty()))
                throw Error(fmt::format("{}: {}: \"{}\" should be a non-empty string, not {}",
                                        at(base + "/" + k), label, k, c[k].dump()));
        if (!c.contains("value"))
            throw Error(
                fmt::format("{}: {} has no \"value\" (the result it checks)", at(base), label));
        for (const char* k : {"min", "max"})
            if (c.contains(k) && !c[k].is_number())
                throw Error(fmt::format("{}: {}: the bound \"{}\" should be a number, not {}",
                                        at(base + "/" + k), label, k, c[k].dump()));
        if (!c.contains("min") && !c.contains("max"))
            throw Error(
                fmt::format("{}: {} has no bound (\"min\" or \"max\"), so it could never "
                            "fail",
                            at(base), label));
        if (c.contains("min") && c.contains("max") &&
            c["min"].get<double>() > c["max"].get<double>())
            throw Error(fmt::format("{}: {}: min {} is above max {}, so it could never pass",
                                    at(base), label, c["min"].dump(), c["max"].dump()));
        if (c.contains("gpus")) check_gpus(c["gpus"], at(base + "/gpus"), label, reference_gpus);
    }
    return doc;
}

json read_checks_file(const std::string& path, const std::vector<std::string>& reference_gpus) {
    return parse_checks(read_file(path), path, reference_gpus);
}

namespace {

/// The checks of one set of results, every check evaluated as if it held on
/// every GPU (scope_checks marks those that do not apply here).
json evaluate_unscoped(const json& checks_file, const json& results) {
    json out = json::array();
    if (!checks_file.contains("checks") || !checks_file["checks"].is_array())
        throw Error("a checks file needs an array \"checks\"");
    for (const auto& c : checks_file["checks"]) {
        json e = {{"id", c.at("id")}, {"what", c.value("what", "")}, {"ok", false}};
        const std::string name = c.at("value");
        auto get = [&](const std::string& key, double& v) {
            if (!results.contains(key)) return false;
            v = results[key].at("value").get<double>();
            return true;
        };
        double v = 0, over = 1;
        std::string label = name;
        if (!get(name, v)) {
            e["detail"] = fmt::format("result '{}' is missing", name);
            out.push_back(e);
            continue;
        }
        if (c.contains("over")) {
            const std::string o = c["over"];
            if (!get(o, over)) {
                e["detail"] = fmt::format("result '{}' is missing", o);
                out.push_back(e);
                continue;
            }
            label = fmt::format("{} / {} = {:g} / {:g}", name, o, v, over);
            v = v / over;
        }
        bool ok = std::isfinite(v);
        std::string bounds;
        if (c.contains("min")) {
            ok = ok && v >= c["min"].get<double>();
            bounds += fmt::format(">= {:g}", c["min"].get<double>());
        }
        if (c.contains("max")) {
            ok = ok && v <= c["max"].get<double>();
            bounds +=
                fmt::format("{}<= {:g}", bounds.empty() ? "" : " and ", c["max"].get<double>());
        }
        e["ok"] = ok;
        e["value"] = v;
        e["detail"] =
            fmt::format("{} = {:.6g}, expected {}", label, v, bounds.empty() ? "a number" : bounds);
        out.push_back(e);
    }
    return out;
}

/// Marks each evaluated check scoped to GPUs other than the record's as not
/// applicable (never ok), keeping its value and saying whether it would hold.
json scope_checks(const json& checks_file, const json& record, json evaluated) {
    const json provenance = record.value("provenance", json::object());
    const auto& checks = checks_file["checks"];
    for (std::size_t i = 0; i < checks.size(); ++i) {
        const json& c = checks[i];
        if (!c.contains("gpus")) continue;
        const auto gpus = c["gpus"].get<std::vector<std::string>>();
        if (!provenance.contains("gpu_name") || !provenance["gpu_name"].is_string())
            throw Error(fmt::format(
                "check '{}' holds on some GPUs only (\"gpus\": {}), but the record of {} "
                "names no GPU (provenance gpu_name): only a GPU run's checks are scoped",
                c["id"].get<std::string>(), fmt::join(gpus, ", "),
                record.value("name", std::string("this run"))));
        const std::string gpu = provenance["gpu_name"];
        if (std::find(gpus.begin(), gpus.end(), gpu) != gpus.end()) continue;
        json& e = evaluated[i];
        const std::string why =
            fmt::format("not applicable on the {}: the check holds on the {} only", gpu,
                        fmt::join(gpus, " and the "));
        const bool would = e.value("ok", false);
        e["ok"] = false;
        e["not_applicable"] = why;
        e["detail"] = fmt::format(
            "{} ({}{})", why, e.value("detail", ""),
            e.contains("value") ? (would ? "; it holds here too" : "; it does not hold here") : "");
    }
    return evaluated;
}

}  // namespace

json evaluate_checks(const json& checks_file, const json& record) {
    return scope_checks(checks_file, record, evaluate_unscoped(checks_file, record.at("results")));
}

bool not_applicable(const json& e) { return e.is_object() && e.contains("not_applicable"); }

std::string passed_summary(const json& evaluated) {
    std::size_t passed = 0;
    std::vector<std::string> na;
    for (const auto& e : evaluated) {
        if (not_applicable(e))
            na.push_back(e.value("id", "?"));
        else if (e.value("ok", false))
            ++passed;
    }
    std::string s = fmt::format("{} check{} passed", passed, passed == 1 ? "" : "s");
    if (!na.empty())
        s += fmt::format(", {} not applicable on this GPU ({})", na.size(), fmt::join(na, ", "));
    return s;
}

std::vector<std::string> failed_checks(const json& evaluated) {
    std::vector<std::string> failed;
    for (const auto& e : evaluated)
        if (!e.value("ok", false) && !not_applicable(e))
            failed.push_back(
                fmt::format("check '{}' failed: {}{}", e.value("id", "?"), e.value("detail", ""),
                            e.value("what", "").empty() ? "" : " (" + e.value("what", "") + ")"));
    return failed;
}

namespace {

/// Each check's detail ends with the repeats that ran while the GPU throttled
/// (never silently averaged into its value).
json with_throttle_notes(json evaluated, const json& record) {
    const auto notes = throttle_notes(record);
    if (notes.empty()) return evaluated;
    for (auto& e : evaluated)
        e["detail"] = fmt::format("{}; {}", e.value("detail", ""), fmt::join(notes, "; "));
    return evaluated;
}

}  // namespace

json evaluate_checks_repeated(const json& checks_file, const json& record) {
    if (!record.contains("repeats") || !record["repeats"].is_array() || record["repeats"].empty())
        return with_throttle_notes(evaluate_checks(checks_file, record), record);
    const json& reps = record["repeats"];
    std::vector<json> per;
    for (const auto& rep : reps) {
        json results = record.at("results");
        for (auto& [k, v] : rep.at("results").items()) results[k] = v;
        per.push_back(evaluate_unscoped(checks_file, results));
    }
    json out = json::array();
    for (std::size_t c = 0; c < per.front().size(); ++c) {
        json e = per.front()[c];
        bool ok = true;
        std::vector<double> values;
        std::vector<std::string> failed;
        for (std::size_t i = 0; i < per.size(); ++i) {
            const json& ei = per[i][c];
            if (!ei.value("ok", false)) {
                ok = false;
                failed.push_back(fmt::format("repeat {}: {}", i + 1, ei.value("detail", "")));
            }
            if (ei.contains("value")) values.push_back(ei["value"].get<double>());
        }
        e["ok"] = ok;
        if (values.size() == per.size()) {
            const double m = median_of(values);
            e["value"] = m;
            e["values"] = values;
            const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
            std::string detail = per.front()[c].value("detail", "");
            // "<label> = <v>, expected <bounds>": the median and the range in its place.
            const auto eq = detail.rfind(" = ");
            const auto comma = detail.find(", expected ", eq == std::string::npos ? 0 : eq);
            std::string label = eq == std::string::npos ? e.value("id", "") : detail.substr(0, eq);
            // A ratio's label shows repeat 1's operands: keep only its names.
            if (const auto op = label.find(" = "); op != std::string::npos) label.resize(op);
            const std::string expected = comma == std::string::npos ? "" : detail.substr(comma + 2);
            e["detail"] =
                fmt::format("{} = {:.6g} (median of {} repeats; {:.6g} to {:.6g}){}{}", label, m,
                            values.size(), *lo, *hi, expected.empty() ? "" : ", ", expected);
        }
        if (!ok)
            e["detail"] = e["detail"].get<std::string>() + "; failed in " +
                          fmt::format("{}", fmt::join(failed, "; "));
        out.push_back(e);
    }
    return with_throttle_notes(scope_checks(checks_file, record, out), record);
}

}  // namespace bookrun
