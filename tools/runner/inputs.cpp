// What a run depends on, and the hash that says whether a recording is stale.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "runner.hpp"

namespace fs = std::filesystem;

namespace bookrun {
namespace {

std::string read_all(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(fmt::format("cannot read {}", path));
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

bool under(const fs::path& root, const fs::path& p) {
    auto r = root.lexically_normal().string();
    auto s = p.lexically_normal().string();
    return s.size() > r.size() && s.compare(0, r.size(), r) == 0 && s[r.size()] == '/';
}

}  // namespace

std::string fnv1a_hex(const std::string& data) {
    std::uint64_t h = 14695981039346656037ull;
    for (unsigned char c : data) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return fmt::format("{:016x}", h);
}

std::vector<std::string> parse_depfile(const std::string& text) {
    // Join continuation lines, drop the target before the first ": ".
    std::string joined;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {
            joined += ' ';
            ++i;
        } else {
            joined += text[i];
        }
    }
    std::vector<std::string> deps;
    std::istringstream lines(joined);
    std::string line;
    while (std::getline(lines, line)) {
        auto colon = line.find(": ");
        if (colon == std::string::npos) {
            if (!line.empty() && line.back() == ':') continue;
            colon = line.find(':');
            if (colon == std::string::npos) continue;
        }
        std::string rest = line.substr(colon + 1), word;
        for (size_t i = 0; i < rest.size(); ++i) {
            char c = rest[i];
            if (c == '\\' && i + 1 < rest.size() && rest[i + 1] == ' ') {
                word += ' ';
                ++i;
            } else if (c == ' ' || c == '\t') {
                if (!word.empty()) deps.push_back(word);
                word.clear();
            } else {
                word += c;
            }
        }
        if (!word.empty()) deps.push_back(word);
    }
    return deps;
}

std::vector<std::string> input_files(const InputSpec& spec) {
    std::set<std::string> files;
    const fs::path root = fs::absolute(spec.source_root);
    for (const auto& src : spec.sources) {
        if (!fs::exists(src)) throw Error(fmt::format("source file {} does not exist", src));
        files.insert(fs::absolute(src).lexically_normal().string());
        // The host compiler lists the headers a source includes; CUDA sources are
        // preprocessed as C++ (-MG tolerates the CUDA headers it cannot find).
        std::vector<std::string> argv = {"/bin/sh", "-c", ""};
        std::string cmd = fmt::format("'{}' -MM -MG -x c++ -std=c++20", spec.cxx);
        for (const auto& d : spec.include_dirs) cmd += fmt::format(" -I'{}'", d);
        cmd += fmt::format(" '{}'", src);
        argv[2] = cmd;
        auto r = run_process(argv, {}, 60);
        if (r.exit_status != 0)
            throw Error(fmt::format("cannot list the headers of {} ({} {}):\n{}", src, spec.cxx,
                                    describe_failure(r, 60), r.err));
        fs::path dir = fs::path(src).parent_path();
        for (const auto& dep : parse_depfile(r.out)) {
            fs::path p = dep;
            if (p.is_relative()) p = dir / p;
            if (!fs::exists(p)) continue;  // a header only another machine has
            p = fs::absolute(p).lexically_normal();
            if (under(root, p)) files.insert(p.string());
        }
    }
    return {files.begin(), files.end()};
}

json compute_inputs(const InputSpec& spec, const std::vector<std::string>& files) {
    json inputs;
    inputs["files"] = json::object();
    std::string all;
    const fs::path root = fs::absolute(spec.source_root);
    for (const auto& f : files) {
        auto rel = fs::path(f).lexically_relative(root).generic_string();
        auto h = fnv1a_hex(read_all(f));
        inputs["files"][rel] = h;
    }
    for (auto& [rel, h] : inputs["files"].items()) all += rel + "=" + h.get<std::string>() + "\n";
    inputs["flags"] = spec.flags;
    inputs["args"] = spec.args;
    all += "flags=" + spec.flags + "\n";
    for (const auto& a : spec.args) all += "arg=" + a + "\n";
    inputs["hash"] = fnv1a_hex(all);
    return inputs;
}

std::vector<std::string> diff_inputs(const json& recorded, const json& current) {
    std::vector<std::string> changes;
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
    if (changes.empty() && recorded.value("hash", "") != current.value("hash", ""))
        changes.push_back("the input hash differs");
    return changes;
}

}  // namespace bookrun
