// Run records: results, expectations, validation, and atomic files.
#include <unistd.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "runner.hpp"

namespace fs = std::filesystem;

namespace bookrun {

namespace {

/// Walks a JSON text as nlohmann's parser reads it, counting lines.
struct CountingIterator {
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;
    const char* p = nullptr;
    int* line = nullptr;
    int* last = nullptr;  // the line of the last character read that is not white space
    reference operator*() const { return *p; }
    CountingIterator& operator++() {
        // (The lexer reads one character past a number: that is white space or
        // punctuation, so a token's line is that of its last non-space character.)
        if (*p == '\n')
            ++*line;
        else if (*p != ' ' && *p != '\t' && *p != '\r')
            *last = *line;
        ++p;
        return *this;
    }
    CountingIterator operator++(int) {
        auto old = *this;
        ++*this;
        return old;
    }
    bool operator==(const CountingIterator& o) const { return p == o.p; }
    bool operator!=(const CountingIterator& o) const { return p != o.p; }
};

/// A SAX handler that notes the line of every value by its JSON pointer.
struct LineNotes {
    struct Frame {
        std::string pointer;
        bool array = false;
        std::size_t next = 0;
        std::string key_pointer;
    };
    const int* line;
    std::map<std::string, int> lines;
    std::vector<Frame> stack;

    static std::string escape(const std::string& key) {
        std::string out;
        for (char c : key)
            out += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
        return out;
    }
    std::string value_start() {
        if (stack.empty()) {
            lines.emplace("", *line);
            return "";
        }
        auto& top = stack.back();
        if (!top.array) return top.key_pointer;
        std::string p = top.pointer + "/" + std::to_string(top.next++);
        lines.emplace(p, *line);
        return p;
    }
    bool scalar() {
        value_start();
        return true;
    }
    bool null() { return scalar(); }
    bool boolean(bool) { return scalar(); }
    bool number_integer(json::number_integer_t) { return scalar(); }
    bool number_unsigned(json::number_unsigned_t) { return scalar(); }
    bool number_float(json::number_float_t, const std::string&) { return scalar(); }
    bool string(std::string&) { return scalar(); }
    bool binary(json::binary_t&) { return scalar(); }
    bool start_object(std::size_t) {
        stack.push_back({value_start(), false, 0, ""});
        return true;
    }
    bool key(std::string& k) {
        stack.back().key_pointer = stack.back().pointer + "/" + escape(k);
        lines.emplace(stack.back().key_pointer, *line);
        return true;
    }
    bool end_object() {
        stack.pop_back();
        return true;
    }
    bool start_array(std::size_t) {
        stack.push_back({value_start(), true, 0, ""});
        return true;
    }
    bool end_array() {
        stack.pop_back();
        return true;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) {
        return false;
    }
};

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

json parse_with_lines(const std::string& text, const std::string& path) {
    try {
        return json::parse(text);
    } catch (const json::parse_error& e) {
        size_t stop = std::min<size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
        long line = 1 + std::count(text.begin(), text.begin() + static_cast<long>(stop), '\n');
        throw Error(fmt::format("{}:{}: malformed JSON: {}", path, line, e.what()));
    }
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

std::map<std::string, int> json_lines(const std::string& text) {
    int line = 1, token_line = 1;
    LineNotes notes{&token_line, {}, {}};
    CountingIterator first{text.data(), &line, &token_line};
    CountingIterator last{text.data() + text.size(), &line, &token_line};
    json::sax_parse(first, last, &notes);
    return notes.lines;
}

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

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(fmt::format("{}: cannot read the file", path));
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

json read_json_file(const std::string& path) { return parse_with_lines(read_file(path), path); }

void write_file_atomically(const std::string& path, const std::string& text) {
    fs::path p(path);
    if (p.has_parent_path()) fs::create_directories(p.parent_path());
    std::string tmp = fmt::format("{}.tmp.{}", path, ::getpid());
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << text;
        out.flush();
        if (!out) {
            std::remove(tmp.c_str());
            throw Error(fmt::format("{}: cannot write", tmp));
        }
    }
    fs::rename(tmp, path);
}

json evaluate_checks_repeated(const json& checks_file, const json& record) {
    if (!record.contains("repeats") || !record["repeats"].is_array() || record["repeats"].empty())
        return evaluate_checks(checks_file, record);
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
    return scope_checks(checks_file, record, out);
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
