// The header scan: the project headers a program's sources include, as the host
// compiler lists them (-MM), kept between runs of the same sources.
#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "runner.hpp"

namespace fs = std::filesystem;

namespace bookrun {
namespace {

/// A header list kept in spec.scan_cache: the compiler's output for argv, reused
/// while argv is the same and every file that output names (the sources and the
/// headers found) has the content it had.
fs::path scan_file(const std::string& dir, const std::vector<std::string>& argv,
                   const std::string& listing) {
    return fs::path(dir) /
           (fnv1a_hex(fmt::format("{}\n{}", fmt::join(argv, "\n"), listing)) + ".json");
}

/// The kept list for argv into `out`; false when there is none to reuse.
bool cached_scan(const std::string& dir, const std::vector<std::string>& argv,
                 const std::string& listing, std::string& out) {
    if (dir.empty()) return false;
    const fs::path file = scan_file(dir, argv, listing);
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) return false;
    json kept;
    try {
        kept = json::parse(read_file(file.string()));
        if (kept.at("argv").get<std::vector<std::string>>() != argv) return false;
        if (kept.at("listing").get<std::string>() != listing) return false;
        for (const auto& [path, hash] : kept.at("files").items()) {
            if (!fs::is_regular_file(path, ec)) return false;
            if (fnv1a_hex(read_file(path)) != hash.get<std::string>()) return false;
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
            kept["files"][fs::path(dep).lexically_normal().string()] = fnv1a_hex(read_file(dep));
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
        if (!inside_tree(root, p) && p != root) continue;
        if (!fs::is_directory(p, ec)) continue;
        for (auto it = fs::recursive_directory_iterator(p, ec); !ec && it != fs::end(it);
             it.increment(ec))
            if (it->is_regular_file(ec)) names.insert(it->path().string());
    }
    return fnv1a_hex(fmt::format("{}", fmt::join(names, "\n")));
}

/// The words of one line of a dependency list after its target, with "\ " kept
/// as a space inside a word.
void depfile_words(const std::string& rest, std::vector<std::string>& deps) {
    std::string word;
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

/// The quoted includes of a file: {line, name}.
std::vector<std::pair<int, std::string>> quoted_includes_of(const std::string& path) {
    static const std::regex quoted(R"re(^\s*#\s*include\s*"([^"]+)")re");
    std::vector<std::pair<int, std::string>> out;
    std::istringstream in(read_file(path));
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
        ++n;
        std::smatch m;
        if (std::regex_search(line, m, quoted)) out.emplace_back(n, m[1].str());
    }
    return out;
}

/// One way the host compiler reads sources to list their headers.
struct ScanPass {
    std::string what;
    std::vector<std::string> defines, sources;
};

/// The passes nvcc makes over the sources, as the host compiler can repeat them:
/// all sources as C++; the CUDA ones with __CUDACC__, and with __CUDA_ARCH__ for
/// each architecture of spec.cuda_archs.
std::vector<ScanPass> scan_passes(const InputSpec& spec, const std::vector<std::string>& all,
                                  const std::vector<std::string>& cuda) {
    std::vector<ScanPass> passes = {{"as C++", {}, all}};
    if (cuda.empty()) return passes;
    passes.push_back({"as nvcc's host pass (__CUDACC__)", {"-D__CUDACC__", "-D__NVCC__"}, cuda});
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
    return passes;
}

/// What the host compiler lists for one source in one pass (a kept list where
/// spec.scan_cache holds one that is still true; `reused` then says so).
std::string listed_headers(const InputSpec& spec, const ScanPass& pass, const std::string& source,
                           const std::string& listing, bool& reused) {
    // -MG tolerates the CUDA headers it cannot find, so the list is the same
    // with or without nvcc.
    std::vector<std::string> argv = {"/bin/sh", "-c",  "exec \"$@\"", "sh",  spec.cxx,
                                     "-MM",     "-MG", "-x",          "c++", "-std=c++20"};
    for (const auto& d : spec.include_dirs)
        argv.push_back("-I" + fs::absolute(d).lexically_normal().string());
    argv.insert(argv.end(), pass.defines.begin(), pass.defines.end());
    argv.push_back(source);
    std::string listed;
    if (cached_scan(spec.scan_cache, argv, listing, listed)) {
        reused = true;
        return listed;
    }
    auto r = run_process(argv, {}, 120);
    if (r.exit_status != 0 || r.timed_out || r.signal != 0)
        throw Error(fmt::format("cannot list the headers of {} {} ({} {}):\n{}", source, pass.what,
                                spec.cxx, describe_failure(r, 120), r.err));
    keep_scan(spec.scan_cache, argv, listing, r.out, parse_depfile(r.out));
    return r.out;
}

}  // namespace

bool inside_tree(const fs::path& root, const fs::path& p) {
    auto r = root.lexically_normal().string();
    while (r.size() > 1 && r.back() == '/') r.pop_back();
    auto s = p.lexically_normal().string();
    return s.size() > r.size() && s.compare(0, r.size(), r) == 0 && s[r.size()] == '/';
}

bool is_cuda_source(const std::string& path) {
    auto ext = fs::path(path).extension().string();
    return ext == ".cu" || ext == ".cuh";
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
        depfile_words(line.substr(colon + 1), deps);
    }
    return deps;
}

HeaderScan scan_headers(const InputSpec& spec, const std::vector<std::string>& all,
                        const std::vector<std::string>& cuda) {
    const fs::path root = fs::absolute(spec.source_root).lexically_normal();
    std::string listing;
    if (!spec.scan_cache.empty()) {
        std::vector<std::string> dirs = spec.include_dirs;
        for (const auto& f : all) dirs.push_back(fs::path(f).parent_path().string());
        listing = folder_listing(dirs, root);
    }
    HeaderScan scan;
    // One compiler call per source and pass, so that a source several programs
    // share (a library's) is listed once per build when spec.scan_cache is set.
    for (const auto& pass : scan_passes(spec, all, cuda))
        for (const auto& source : pass.sources)
            for (const auto& dep :
                 parse_depfile(listed_headers(spec, pass, source, listing, scan.reused))) {
                fs::path p = dep;
                // Every path given is absolute, so a relative one is a header -MG could not find.
                if (p.is_relative()) {
                    scan.missing.insert(dep);
                    continue;
                }
                p = p.lexically_normal();
                if (inside_tree(root, p) && fs::is_regular_file(p)) scan.files.insert(p.string());
            }
    return scan;
}

std::string unfound_include(const std::set<std::string>& files,
                            const std::set<std::string>& missing) {
    if (missing.empty()) return "";
    for (const auto& f : files)
        for (const auto& [line, name] : quoted_includes_of(f))
            if (missing.count(name) != 0)
                return fmt::format(
                    "{}:{}: cannot find the header \"{}\" it includes (neither beside it nor "
                    "in an include folder); the runner must see every header of a program "
                    "to tell when its recording is stale. (System and CUDA headers are "
                    "included with <...>.)",
                    f, line, name);
    return "";
}

}  // namespace bookrun
