// What a run depends on, and the hash that says whether a recording is stale.
#include <algorithm>
#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "runner.hpp"

namespace fs = std::filesystem;

namespace bookrun {

std::map<std::string, std::string> parse_key_values(const std::vector<std::string>& items,
                                                    const std::string& option) {
    std::map<std::string, std::string> out;
    for (const auto& item : items) {
        auto eq = item.find('=');
        if (eq == std::string::npos || eq == 0)
            throw Error(fmt::format("{} takes KEY=VALUE, not '{}'", option, item));
        auto key = item.substr(0, eq);
        if (out.count(key) != 0)
            throw Error(fmt::format("{} gives {} twice ('{}={}' and '{}')", option, key, key,
                                    out[key], item));
        out[key] = item.substr(eq + 1);
    }
    return out;
}

namespace {

/// The files a run's arguments name: an argument, or the value of --name=value,
/// that is an existing file (absolute, or relative to the source root or to the
/// folder the runner works in). A file in the source tree is an input like a
/// source (edit it and the run is stale); a file outside it cannot be hashed the
/// same on every machine, so naming one is an error.
std::vector<std::string> argument_files(const InputSpec& spec, const fs::path& root) {
    std::vector<std::string> out;
    for (const auto& arg : spec.args) {
        std::vector<std::string> candidates = {arg};
        auto eq = arg.find('=');
        if (arg.rfind("-", 0) == 0 && eq != std::string::npos)
            candidates.push_back(arg.substr(eq + 1));
        for (const auto& c : candidates) {
            if (c.empty() || c[0] == '-') continue;
            std::vector<fs::path> tries = {fs::path(c)};
            if (fs::path(c).is_relative()) tries = {root / c, fs::current_path() / c};
            for (const auto& t : tries) {
                std::error_code ec;
                if (!fs::is_regular_file(t, ec)) continue;
                auto abs = fs::absolute(t).lexically_normal();
                if (!inside_tree(root, abs))
                    throw Error(fmt::format(
                        "the argument '{}' names the file {}, which is outside the source tree "
                        "{}: a run's input hash covers every file it reads, and a file outside "
                        "the tree cannot be hashed alike on every machine; put it in the tree",
                        arg, abs.string(), root.string()));
                out.push_back(abs.string());
                break;
            }
        }
    }
    return out;
}

}  // namespace

/// An argument as it is hashed and recorded: the source root, a machine path,
/// written as <source>.
std::string portable_arg(const std::string& arg, const fs::path& root) {
    std::string r = root.string();
    while (r.size() > 1 && r.back() == '/') r.pop_back();
    std::string out;
    size_t from = 0;
    while (true) {
        const size_t at = arg.find(r, from);
        if (at == std::string::npos) break;
        const size_t end = at + r.size();
        const bool whole = end == arg.size() || arg[end] == '/';
        out += arg.substr(from, at - from) + (whole ? "<source>" : r);
        from = end;
    }
    out += arg.substr(from);
    return out;
}

std::vector<std::string> input_files(const InputSpec& spec) {
    std::set<std::string> files;
    const fs::path root = fs::absolute(spec.source_root).lexically_normal();
    std::vector<std::string> all, cuda;
    for (const auto* list : {&spec.sources, &spec.lib_sources})
        for (const auto& src : *list) {
            if (!fs::is_regular_file(src))
                throw Error(fmt::format("source file {} does not exist", src));
            auto abs = fs::absolute(src).lexically_normal().string();
            files.insert(abs);
            all.push_back(abs);
            if (is_cuda_source(abs)) cuda.push_back(abs);
        }
    // Every file the run reads: a data file its arguments name is an input too.
    for (const auto& f : argument_files(spec, root)) files.insert(f);
    const HeaderScan scan = scan_headers(spec, all, cuda);
    files.insert(scan.files.begin(), scan.files.end());
    // A quoted include in the tree that no pass could find is an error: it
    // would otherwise drop out of the inputs unseen. Angle includes not found
    // are system or CUDA headers, which are not inputs.
    if (const std::string error = unfound_include(files, scan.missing); !error.empty()) {
        if (scan.reused) {  // a kept list may be older than the header: ask again
            InputSpec fresh = spec;
            fresh.scan_cache.clear();
            return input_files(fresh);
        }
        throw Error(error);
    }
    return {files.begin(), files.end()};
}

json compute_inputs(const InputSpec& spec, const std::vector<std::string>& files) {
    json inputs;
    inputs["files"] = json::object();
    std::string all;
    const fs::path root = fs::absolute(spec.source_root).lexically_normal();
    for (const auto& f : files) {
        auto rel = fs::path(f).lexically_relative(root).generic_string();
        auto h = fnv1a_hex(read_file(f));
        inputs["files"][rel] = h;
    }
    for (auto& [rel, h] : inputs["files"].items()) all += rel + "=" + h.get<std::string>() + "\n";
    // Arguments without machine paths (a data file in the tree, named by its
    // absolute path, reads <source>/...), so the hash is the same on every machine.
    std::vector<std::string> args;
    for (const auto& a : spec.args) args.push_back(portable_arg(a, root));
    inputs["flags"] = spec.flags;
    inputs["args"] = args;
    inputs["env"] = spec.env;
    inputs["toolchain"] = spec.toolchain;
    all += "flags=" + spec.flags + "\n";
    for (const auto& a : args) all += "arg=" + a + "\n";
    // (A run without environment hashes as runs did before "env" existed.)
    for (const auto& [k, v] : spec.env) all += "env=" + k + "=" + v + "\n";
    inputs["hash"] = fnv1a_hex(all);
    return inputs;
}

InputDiff diff_inputs(const json& recorded, const json& current) {
    InputDiff d;
    auto& changes = d.changes;
    const json empty = json::object();
    const json& rf = recorded.contains("files") ? recorded["files"] : empty;
    const json& cf = current.contains("files") ? current["files"] : empty;
    for (auto& [path, h] : cf.items()) {
        if (!rf.contains(path))
            changes.push_back(path + " is new since the recording");
        else if (rf[path] != h)
            changes.push_back(path + " changed");
    }
    for (auto& [path, h] : rf.items())
        if (!cf.contains(path)) changes.push_back(path + " is no longer an input");
    if (recorded.value("flags", "") != current.value("flags", ""))
        changes.push_back(fmt::format("compile flags changed (recorded '{}', now '{}')",
                                      recorded.value("flags", ""), current.value("flags", "")));
    if (recorded.value("args", json::array()) != current.value("args", json::array()))
        changes.push_back(fmt::format("arguments changed (recorded {}, now {})",
                                      recorded.value("args", json::array()).dump(),
                                      current.value("args", json::array()).dump()));
    if (recorded.value("env", json::object()) != current.value("env", json::object()))
        changes.push_back(fmt::format("environment changed (recorded {}, now {})",
                                      recorded.value("env", json::object()).dump(),
                                      current.value("env", json::object()).dump()));
    // Tools: compared where this build gives the key, named where it cannot compare.
    const json rt = recorded.value("toolchain", json::object());
    const json ct = current.value("toolchain", json::object());
    for (auto& [key, version] : rt.items()) {
        if (!ct.contains(key))
            d.not_compared.push_back(fmt::format("{} (recorded {}; this build gives no {} version)",
                                                 key, version.get<std::string>(), key));
        else if (ct[key] != version)
            changes.push_back(fmt::format("{} changed (recorded {}, now {})", key,
                                          version.get<std::string>(), ct[key].get<std::string>()));
    }
    for (auto& [key, version] : ct.items()) {
        if (rt.contains(key)) continue;
        if (!recorded.contains("toolchain"))
            d.not_compared.push_back(
                fmt::format("{} (this build has {}; the recording was made "
                            "before tool versions were recorded)",
                            key, version.get<std::string>()));
        else
            changes.push_back(
                fmt::format("{} {} is used now, but the recording does not say "
                            "which {} made it",
                            key, version.get<std::string>(), key));
    }
    if (changes.empty() && recorded.value("hash", "") != current.value("hash", ""))
        changes.push_back("the input hash differs");
    return d;
}

}  // namespace bookrun
