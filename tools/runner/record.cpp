// Run records: results, expectations, validation, and atomic files.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include <fmt/format.h>

#include "runner.hpp"

namespace fs = std::filesystem;

namespace bookrun {

const std::vector<std::string> kVolatileProvenance = {"date", "commit", "host"};

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
        const std::string kind = j.value("kind", "");
        if (kind == "result")
            record["results"][j.at("name").get<std::string>()] = {{"value", j.at("value")},
                                                                  {"unit", j.at("unit")}};
        else if (kind == "text")
            record["texts"][j.at("name").get<std::string>()] = j.at("text");
        else if (kind == "provenance")
            record["provenance"][j.at("key").get<std::string>()] = j.at("value");
        else
            throw Error(fmt::format("results line {} has unknown kind '{}'", n, kind));
    }
}

json evaluate_checks(const json& checks_file, const json& record) {
    json out = json::array();
    if (!checks_file.contains("checks") || !checks_file["checks"].is_array())
        throw Error("a checks file needs an array \"checks\"");
    const json& results = record.at("results");
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
            bounds += fmt::format("{}<= {:g}", bounds.empty() ? "" : " and ", c["max"].get<double>());
        }
        e["ok"] = ok;
        e["value"] = v;
        e["detail"] = fmt::format("{} = {:.6g}, expected {}", label, v, bounds.empty() ? "a number" : bounds);
        out.push_back(e);
    }
    return out;
}

std::vector<std::string> failed_checks(const json& evaluated) {
    std::vector<std::string> failed;
    for (const auto& e : evaluated)
        if (!e.value("ok", false))
            failed.push_back(fmt::format("check '{}' failed: {}{}", e.value("id", "?"),
                                         e.value("detail", ""),
                                         e.value("what", "").empty() ? "" : " (" + e.value("what", "") + ")"));
    return failed;
}

void validate_record(const json& r, const std::string& where, bool needs_gpu) {
    auto need = [&](const json& obj, const std::string& key, json::value_t type, const std::string& path) {
        if (!obj.is_object() || !obj.contains(key))
            throw Error(fmt::format("{}: field '{}' is missing", where, path));
        const json& v = obj[key];
        bool ok = v.type() == type ||
                  (type == json::value_t::number_float && v.is_number()) ||
                  (type == json::value_t::number_integer && v.is_number_integer());
        if (!ok)
            throw Error(fmt::format("{}: field '{}' should be {}, not {}", where, path,
                                    json(type).type_name(), v.type_name()));
    };
    if (!r.is_object()) throw Error(fmt::format("{}: a record must be a JSON object", where));
    need(r, "schema", json::value_t::number_integer, "schema");
    need(r, "name", json::value_t::string, "name");
    need(r, "command", json::value_t::array, "command");
    need(r, "exit_status", json::value_t::number_integer, "exit_status");
    need(r, "stdout", json::value_t::string, "stdout");
    need(r, "stderr", json::value_t::string, "stderr");
    need(r, "results", json::value_t::object, "results");
    for (auto& [k, v] : r["results"].items()) {
        need(v, "value", json::value_t::number_float, "results." + k + ".value");
        need(v, "unit", json::value_t::string, "results." + k + ".unit");
    }
    need(r, "inputs", json::value_t::object, "inputs");
    need(r["inputs"], "hash", json::value_t::string, "inputs.hash");
    need(r["inputs"], "files", json::value_t::object, "inputs.files");
    need(r["inputs"], "flags", json::value_t::string, "inputs.flags");
    need(r["inputs"], "args", json::value_t::array, "inputs.args");
    need(r, "provenance", json::value_t::object, "provenance");
    std::vector<std::string> prov = {"cxx", "date", "commit"};
    if (needs_gpu)
        for (const char* k : {"gpu_name", "compute_capability", "sm_count", "driver_version",
                              "runtime_version", "nvcc"})
            prov.push_back(k);
    for (const auto& k : prov) need(r["provenance"], k, json::value_t::string, "provenance." + k);
}

json read_json_file(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw Error(fmt::format("{}: cannot read the file", path));
    std::ostringstream s;
    s << in.rdbuf();
    try {
        return json::parse(s.str());
    } catch (const json::parse_error& e) {
        // e.byte is 1-based: count the lines before it.
        std::string text = s.str();
        size_t upto = std::min<size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
        long line = 1 + std::count(text.begin(), text.begin() + static_cast<long>(upto), '\n');
        throw Error(fmt::format("{}:{}: malformed JSON: {}", path, line, e.what()));
    }
}

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

std::pair<json, json> split_volatile(const json& record) {
    json stable = record, vol = json::object();
    for (const auto& k : kVolatileProvenance)
        if (stable["provenance"].contains(k)) {
            vol["provenance"][k] = stable["provenance"][k];
            stable["provenance"].erase(k);
        }
    for (const char* k : {"wall_s", "source"})
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
