// The record schema (book/record-schema.json) and what a record shows: its
// shape, its digest, and its streams (UTF-8, capped).
#include <algorithm>
#include <cstdint>
#include <regex>
#include <set>

#include <fmt/format.h>

#include "runner.hpp"

#ifndef BOOKRUN_SCHEMA
#define BOOKRUN_SCHEMA "book/record-schema.json"
#endif

namespace bookrun {
namespace {

const std::set<std::string> kBaseTypes = {"string", "integer", "number", "boolean",
                                          "null",   "array",   "object"};

/// Splits "A|B" at its top level (not inside <...>).
std::vector<std::string> alternatives(const std::string& type) {
    std::vector<std::string> out;
    int depth = 0;
    std::string cur;
    for (char c : type) {
        if (c == '<') ++depth;
        if (c == '>') --depth;
        if (c == '|' && depth == 0) {
            out.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    out.push_back(cur);
    return out;
}

std::string strip_optional(const std::string& name, bool& optional) {
    optional = !name.empty() && name.back() == '?';
    return optional ? name.substr(0, name.size() - 1) : name;
}

std::string join_path(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
}

struct Validator {
    const Schema& schema;

    /// An error message, or empty when v has the type.
    std::string check(const json& v, const std::string& type, const std::string& path) const {
        auto alts = alternatives(type);
        if (alts.size() > 1) {
            for (const auto& a : alts)
                if (check(v, a, path).empty()) return "";
            return fmt::format("field '{}' should be {}, not {}", path, type, v.type_name());
        }
        if (type == "string" || type == "boolean" || type == "null" || type == "array" ||
            type == "object") {
            bool ok = (type == "string" && v.is_string()) ||
                      (type == "boolean" && v.is_boolean()) || (type == "null" && v.is_null()) ||
                      (type == "array" && v.is_array()) || (type == "object" && v.is_object());
            return ok ? "" : mismatch(v, type, path);
        }
        if (type == "integer") return v.is_number_integer() ? "" : mismatch(v, type, path);
        if (type == "number") return v.is_number() ? "" : mismatch(v, type, path);
        for (const char* kind : {"array<", "object<"}) {
            std::string k = kind;
            if (type.rfind(k, 0) == 0 && type.back() == '>') {
                std::string inner = type.substr(k.size(), type.size() - k.size() - 1);
                bool is_array = k == "array<";
                if (is_array ? !v.is_array() : !v.is_object())
                    return mismatch(v, is_array ? "array" : "object", path);
                if (is_array) {
                    for (std::size_t i = 0; i < v.size(); ++i)
                        if (auto e = check(v[i], inner, join_path(path, std::to_string(i)));
                            !e.empty())
                            return e;
                } else {
                    for (auto& [key, value] : v.items())
                        if (auto e = check(value, inner, join_path(path, key)); !e.empty())
                            return e;
                }
                return "";
            }
        }
        // A section of the schema: an object with those fields.
        const json& section = schema.doc.at(type);
        if (!v.is_object()) return mismatch(v, "object", path);
        std::set<std::string> known;
        for (auto& [raw, field_type] : section.items()) {
            bool optional = false;
            std::string name = strip_optional(raw, optional);
            known.insert(name);
            std::string p = join_path(path, name);
            if (!v.contains(name)) {
                if (optional) continue;
                return fmt::format("field '{}' is missing", p);
            }
            if (auto e = check(v[name], field_type.get<std::string>(), p); !e.empty()) return e;
        }
        for (auto& [key, value] : v.items())
            if (known.count(key) == 0)
                return fmt::format("field '{}' is not in the record schema ({})",
                                   join_path(path, key), schema.path);
        return "";
    }

    static std::string mismatch(const json& v, const std::string& type, const std::string& path) {
        return fmt::format("field '{}' should be {}, not {}", path, type, v.type_name());
    }
};

std::vector<std::string> string_list(const json& doc, const std::string& section,
                                     const std::string& key, const std::string& path) {
    if (!doc.contains(section) || !doc[section].contains(key) || !doc[section][key].is_array())
        throw Error(
            fmt::format("{}: the schema needs a list \"{}\" in \"{}\"", path, key, section));
    std::vector<std::string> out;
    for (const auto& v : doc[section][key]) {
        if (!v.is_string())
            throw Error(fmt::format("{}: \"{}\".\"{}\" lists a non-string", path, section, key));
        out.push_back(v.get<std::string>());
    }
    return out;
}

/// Checks that every type the schema names is one it can read.
void check_type_names(const json& doc, const std::string& type, const std::string& where,
                      const std::string& path) {
    for (const auto& a : alternatives(type)) {
        if (kBaseTypes.count(a) != 0) continue;
        bool container = false;
        for (const char* kind : {"array<", "object<"}) {
            std::string k = kind;
            if (a.rfind(k, 0) == 0 && !a.empty() && a.back() == '>') {
                check_type_names(doc, a.substr(k.size(), a.size() - k.size() - 1), where, path);
                container = true;
            }
        }
        if (container) continue;
        if (!doc.contains(a) || !doc[a].is_object())
            throw Error(fmt::format("{}: {} has type '{}', which is neither a type nor a section",
                                    path, where, a));
    }
}

}  // namespace

std::string default_schema_path() { return BOOKRUN_SCHEMA; }

Schema parse_schema(const json& doc, const std::string& path) {
    Schema s;
    s.path = path;
    s.doc = doc;
    if (!doc.is_object() || !doc.contains("version") || !doc["version"].is_number_integer())
        throw Error(fmt::format("{}: not a record schema (no integer \"version\")", path));
    s.version = doc["version"].get<int>();
    for (const char* section : {"record", "inputs", "result"})
        if (!doc.contains(section) || !doc[section].is_object())
            throw Error(fmt::format("{}: the schema needs a section \"{}\"", path, section));
    // Every section a record's fields use must be readable before any record is read.
    std::set<std::string> seen;
    std::vector<std::string> todo = {"record"};
    while (!todo.empty()) {
        std::string section = todo.back();
        todo.pop_back();
        if (!seen.insert(section).second) continue;
        for (auto& [name, type] : doc[section].items()) {
            if (!type.is_string())
                throw Error(
                    fmt::format("{}: \"{}\".\"{}\" should name a type", path, section, name));
            check_type_names(doc, type.get<std::string>(),
                             fmt::format("\"{}\".\"{}\"", section, name), path);
            std::regex words("[a-z_]+");
            const std::string t = type.get<std::string>();
            for (auto it = std::sregex_iterator(t.begin(), t.end(), words);
                 it != std::sregex_iterator(); ++it)
                if (kBaseTypes.count(it->str()) == 0) todo.push_back(it->str());
        }
    }
    s.volatile_provenance = string_list(doc, "volatile", "provenance", path);
    s.volatile_record = string_list(doc, "volatile", "record", path);
    s.build_only = string_list(doc, "build_only", "record", path);
    string_list(doc, "provenance_required", "always", path);
    string_list(doc, "provenance_required", "gpu", path);
    s.program_provenance = string_list(doc, "provenance_required", "program", path);
    if (!doc["volatile"].contains("formats") || !doc["volatile"]["formats"].is_object())
        throw Error(
            fmt::format("{}: the schema needs an object \"formats\" in \"volatile\"", path));
    for (auto& [k, v] : doc["volatile"]["formats"].items()) {
        if (!v.is_string())
            throw Error(fmt::format("{}: volatile.formats.{} should be a string", path, k));
        s.volatile_formats[k] = v.get<std::string>();
    }
    s.line_fields = string_list(doc, "recording_lines", "record", path);
    s.line_objects = string_list(doc, "recording_lines", "objects", path);
    if (!doc.contains("limits") || !doc["limits"].contains("stream_bytes") ||
        !doc["limits"]["stream_bytes"].is_number_unsigned() ||
        doc["limits"]["stream_bytes"].get<std::size_t>() == 0)
        throw Error(
            fmt::format("{}: the schema needs a positive integer limits.stream_bytes", path));
    s.stream_bytes = doc["limits"]["stream_bytes"].get<std::size_t>();
    if (!doc.contains("digest") || doc["digest"].value("algorithm", "") != "sha256")
        throw Error(
            fmt::format("{}: the schema's digest.algorithm must be sha256 (the one this "
                        "bookrun computes)",
                        path));
    return s;
}

Schema load_schema(const std::string& path) { return parse_schema(read_json_file(path), path); }

void validate_record(const json& r, const std::string& where, bool needs_gpu,
                     const Schema& schema) {
    if (!r.is_object()) throw Error(fmt::format("{}: a record must be a JSON object", where));
    if (!r.contains("schema")) throw Error(fmt::format("{}: field 'schema' is missing", where));
    if (!r["schema"].is_number_integer())
        throw Error(fmt::format("{}: field 'schema' should be integer, not {}", where,
                                r["schema"].type_name()));
    int version = r["schema"].get<int>();
    if (version != schema.version)
        throw Error(fmt::format(
            "{}: the record has schema {}, which {} does not describe (it describes schema {} "
            "only); a record is read only under the schema it was made with: re-record it with "
            "`tools/book record`",
            where, version, schema.path, schema.version));
    Validator v{schema};
    if (auto e = v.check(r, "record", ""); !e.empty()) throw Error(fmt::format("{}: {}", where, e));
    std::vector<std::string> prov =
        string_list(schema.doc, "provenance_required", "always", schema.path);
    if (needs_gpu)
        for (const auto& k : string_list(schema.doc, "provenance_required", "gpu", schema.path))
            prov.push_back(k);
    for (const auto& k : prov) {
        std::string p = "provenance." + k;
        if (!r["provenance"].contains(k))
            throw Error(fmt::format("{}: field '{}' is missing", where, p));
    }
}

std::string canonical_json(const json& j) { return j.dump(); }

std::string record_digest(const json& record, const Schema& schema) {
    json shown = record;
    shown.erase("digest");
    for (const auto& k : schema.volatile_record) shown.erase(k);
    for (const auto& k : schema.build_only) shown.erase(k);
    if (shown.contains("provenance") && shown["provenance"].is_object())
        for (const auto& k : schema.volatile_provenance) shown["provenance"].erase(k);
    return "sha256:" + sha256_hex(canonical_json(shown));
}

void check_digest(const json& record, const std::string& where, const Schema& schema) {
    if (!record.contains("digest") || !record["digest"].is_string())
        throw Error(
            fmt::format("{}: the record has no digest, so nothing shows that it is what "
                        "the program printed; re-record it with `tools/book record`",
                        where));
    auto want = record_digest(record, schema);
    if (record["digest"].get<std::string>() != want)
        throw Error(fmt::format(
            "{}: the record does not match its digest: what it shows (its stdout, stderr, "
            "results, texts, checks, command, inputs or provenance) was changed after the run "
            "that made it. A recording is never edited by hand: re-record it on its GPU with "
            "`tools/book record`.",
            where));
}

void check_utf8(const std::string& text, const std::string& what) {
    const auto* s = reinterpret_cast<const unsigned char*>(text.data());
    const std::size_t n = text.size();
    std::size_t i = 0;
    while (i < n) {
        unsigned char c = s[i];
        std::size_t len = 0;
        std::uint32_t cp = 0, min = 0;
        if (c < 0x80) {
            ++i;
            continue;
        } else if ((c & 0xE0) == 0xC0) {
            len = 2, cp = c & 0x1F, min = 0x80;
        } else if ((c & 0xF0) == 0xE0) {
            len = 3, cp = c & 0x0F, min = 0x800;
        } else if ((c & 0xF8) == 0xF0) {
            len = 4, cp = c & 0x07, min = 0x10000;
        }
        bool ok = len != 0 && i + len <= n;
        for (std::size_t k = 1; ok && k < len; ++k) {
            ok = (s[i + k] & 0xC0) == 0x80;
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        ok = ok && cp >= min && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
        if (!ok) {
            long line = 1 + std::count(text.begin(), text.begin() + static_cast<long>(i), '\n');
            throw Error(
                fmt::format("{} is not valid UTF-8: byte {} (line {}) is 0x{:02x}; the "
                            "book stores a program's output as UTF-8 text",
                            what, i, line, c));
        }
        i += len;
    }
}

json cap_stream(std::string& text, std::size_t cap) {
    if (text.size() <= cap) return nullptr;
    const std::size_t total = text.size();
    std::size_t cut = cap;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        --cut;  // a whole character
    auto nl = text.rfind('\n', cut - 1);
    if (nl != std::string::npos && nl + 1 >= cap / 2) cut = nl + 1;  // a whole line, if one is near
    text.resize(cut);
    if (!text.empty() && text.back() != '\n') text += '\n';
    text += fmt::format(
        "[bookrun: output cut here: {} of its {} bytes are not kept (the cap is {} "
        "bytes a stream)]\n",
        total - cut, total, cap);
    return {{"bytes_total", total}, {"bytes_cut", total - cut}};
}

}  // namespace bookrun
