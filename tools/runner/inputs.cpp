// What a run depends on, and the hash that says whether a recording is stale.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
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
    while (r.size() > 1 && r.back() == '/') r.pop_back();
    auto s = p.lexically_normal().string();
    return s.size() > r.size() && s.compare(0, r.size(), r) == 0 && s[r.size()] == '/';
}

/// A header list kept in spec.scan_cache: the compiler's output for argv, reused
/// while argv is the same and every file that output names (the sources and the
/// headers found) has the content it had. Returns false when there is none to reuse.
fs::path scan_file(const std::string& dir, const std::vector<std::string>& argv,
                   const std::string& listing) {
    return fs::path(dir) /
           (fnv1a_hex(fmt::format("{}\n{}", fmt::join(argv, "\n"), listing)) + ".json");
}

bool cached_scan(const std::string& dir, const std::vector<std::string>& argv,
                 const std::string& listing, std::string& out) {
    if (dir.empty()) return false;
    const fs::path file = scan_file(dir, argv, listing);
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) return false;
    json kept;
    try {
        kept = json::parse(read_all(file.string()));
        if (kept.at("argv").get<std::vector<std::string>>() != argv) return false;
        if (kept.at("listing").get<std::string>() != listing) return false;
        for (const auto& [path, hash] : kept.at("files").items()) {
            if (!fs::is_regular_file(path, ec)) return false;
            if (fnv1a_hex(read_all(path)) != hash.get<std::string>()) return false;
        }
        out = kept.at("out").get<std::string>();
        return true;
    } catch (const std::exception&) {
        return false;  // unreadable or from another version: ask the compiler again
    }
}

void keep_scan(const std::string& dir, const std::vector<std::string>& argv,
               const std::string& listing, const std::string& out,
               const std::vector<std::string>& deps) {
    if (dir.empty()) return;
    json kept;
    kept["argv"] = argv;
    kept["listing"] = listing;
    kept["out"] = out;
    kept["files"] = json::object();
    for (const auto& dep : deps)
        if (fs::path(dep).is_absolute() && fs::is_regular_file(dep))
            kept["files"][fs::path(dep).lexically_normal().string()] = fnv1a_hex(read_all(dep));
    fs::create_directories(dir);
    write_file_atomically(scan_file(dir, argv, listing).string(), kept.dump());
}

/// The digest of the names of every file under the folders a header can be
/// found in (the include folders and the sources' own, those inside the tree): a
/// header added or removed there, which could change what an include finds
/// without changing any file a kept list names, makes every kept list miss.
std::string folder_listing(const std::vector<std::string>& dirs, const fs::path& root) {
    std::set<std::string> names;
    for (const auto& d : dirs) {
        const fs::path p = fs::absolute(d).lexically_normal();
        std::error_code ec;
        if (!under(root, p) && p != root) continue;
        if (!fs::is_directory(p, ec)) continue;
        for (auto it = fs::recursive_directory_iterator(p, ec); !ec && it != fs::end(it);
             it.increment(ec))
            if (it->is_regular_file(ec)) names.insert(it->path().string());
    }
    return fnv1a_hex(fmt::format("{}", fmt::join(names, "\n")));
}

}  // namespace

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

bool is_cuda_source(const std::string& path) {
    auto ext = fs::path(path).extension().string();
    return ext == ".cu" || ext == ".cuh";
}

/// The quoted includes of a file: {line, name}.
std::vector<std::pair<int, std::string>> quoted_includes_of(const std::string& path) {
    static const std::regex quoted(R"re(^\s*#\s*include\s*"([^"]+)")re");
    std::vector<std::pair<int, std::string>> out;
    std::istringstream in(read_all(path));
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
        ++n;
        std::smatch m;
        if (std::regex_search(line, m, quoted)) out.emplace_back(n, m[1].str());
    }
    return out;
}

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
                if (!under(root, abs))
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

}  // namespace

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
    // The host compiler lists the headers each source includes. CUDA sources are
    // preprocessed as C++ as nvcc's passes see them (-MG tolerates the CUDA
    // headers it cannot find), so the list is the same with or without nvcc.
    std::vector<std::string> base = {"-MM", "-MG", "-x", "c++", "-std=c++20"};
    for (const auto& d : spec.include_dirs)
        base.push_back("-I" + fs::absolute(d).lexically_normal().string());
    struct Pass {
        std::string what;
        std::vector<std::string> defines, sources;
    };
    std::vector<Pass> passes = {{"as C++", {}, all}};
    if (!cuda.empty()) {
        passes.push_back(
            {"as nvcc's host pass (__CUDACC__)", {"-D__CUDACC__", "-D__NVCC__"}, cuda});
        // As CMake's CUDA_ARCHITECTURES spells them: 90, 90a, 90-real, 100f-virtual.
        static const std::regex arch_re("([0-9]+)[a-z]?(-real|-virtual)?");
        for (const auto& arch : spec.cuda_archs) {
            std::smatch m;
            if (!std::regex_match(arch, m, arch_re))
                throw Error(
                    fmt::format("--cuda-arch takes an architecture such as 90 (or 90a, "
                                "90-real), not '{}'",
                                arch));
            const std::string value = m[1].str() + "0";
            passes.push_back({fmt::format("as nvcc's device pass (__CUDA_ARCH__={})", value),
                              {"-D__CUDACC__", "-D__NVCC__", "-D__CUDA_ARCH__=" + value},
                              cuda});
        }
    }
    // Every file the run reads: a data file its arguments name is an input too.
    for (const auto& f : argument_files(spec, root)) files.insert(f);
    std::set<std::string> missing;
    std::string listing;
    if (!spec.scan_cache.empty()) {
        std::vector<std::string> dirs = spec.include_dirs;
        for (const auto& f : all) dirs.push_back(fs::path(f).parent_path().string());
        listing = folder_listing(dirs, root);
    }
    bool reused = false;
    // One compiler call per source and pass, so that a source several programs
    // share (a library's) is listed once per build when spec.scan_cache is set.
    for (const auto& pass : passes)
        for (const auto& source : pass.sources) {
            std::vector<std::string> argv = {"/bin/sh", "-c", "exec \"$@\"", "sh", spec.cxx};
            argv.insert(argv.end(), base.begin(), base.end());
            argv.insert(argv.end(), pass.defines.begin(), pass.defines.end());
            argv.push_back(source);
            std::string listed;
            if (cached_scan(spec.scan_cache, argv, listing, listed)) {
                reused = true;
            } else {
                auto r = run_process(argv, {}, 120);
                if (r.exit_status != 0 || r.timed_out || r.signal != 0)
                    throw Error(fmt::format("cannot list the headers of {} {} ({} {}):\n{}", source,
                                            pass.what, spec.cxx, describe_failure(r, 120), r.err));
                listed = r.out;
                keep_scan(spec.scan_cache, argv, listing, listed, parse_depfile(listed));
            }
            for (const auto& dep : parse_depfile(listed)) {
                fs::path p = dep;
                // Every path given is absolute, so a relative one is a header -MG could not find.
                if (p.is_relative()) {
                    missing.insert(dep);
                    continue;
                }
                p = p.lexically_normal();
                if (under(root, p) && fs::is_regular_file(p)) files.insert(p.string());
            }
        }
    // A quoted include in the tree that no pass could find is an error: it
    // would otherwise drop out of the inputs unseen. Angle includes not found
    // are system or CUDA headers, which are not inputs.
    if (!missing.empty())
        for (const auto& f : files)
            for (const auto& [line, name] : quoted_includes_of(f))
                if (missing.count(name) != 0) {
                    if (reused) {  // a kept list may be older than the header: ask again
                        InputSpec fresh = spec;
                        fresh.scan_cache.clear();
                        return input_files(fresh);
                    }
                    throw Error(fmt::format(
                        "{}:{}: cannot find the header \"{}\" it includes (neither beside it nor "
                        "in an include folder); the runner must see every header of a program "
                        "to tell when its recording is stale. (System and CUDA headers are "
                        "included with <...>.)",
                        f, line, name));
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
        auto h = fnv1a_hex(read_all(f));
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
