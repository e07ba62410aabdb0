// Where and how a run was made: the provenance the runner adds to a record.
#include <sys/utsname.h>

#include <cstdlib>
#include <ctime>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "commands.hpp"
#include "runner.hpp"

namespace bookrun {
namespace {

std::string now_utc() {
    std::time_t t = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    return buf;
}

std::string trim(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    return s;
}

std::string commit_of(const std::string& root) {
    // A copy of the tree without its .git (as on a lent GPU machine) is told its commit.
    if (const char* c = std::getenv("BOOK_COMMIT"); c != nullptr && *c != '\0') return c;
    auto r = run_process({"/bin/sh", "-c",
                          fmt::format("cd '{}' && git rev-parse --short=12 HEAD 2>/dev/null && "
                                      "(git diff --quiet HEAD 2>/dev/null || echo dirty)",
                                      root)},
                         {}, 30);
    auto lines = trim(r.out);
    if (lines.empty()) return "unknown";
    auto nl = lines.find('\n');
    return nl == std::string::npos ? lines : lines.substr(0, nl) + "+dirty";
}

/// The driver's own version (580.x): nvidia-smi, else the kernel module's.
std::string driver_version(const std::string& nvidia_smi, const std::string& name) {
    auto r = run_process({"/bin/sh", "-c",
                          fmt::format("'{}' --query-gpu=driver_version --format=csv,noheader "
                                      "2>/dev/null || cat /proc/driver/nvidia/version 2>/dev/null",
                                      nvidia_smi)},
                         {}, 60);
    auto v = parse_driver_version(r.out);
    if (v.empty())
        throw Error(
            fmt::format("program {} ran on a GPU, but neither {} nor "
                        "/proc/driver/nvidia/version tells the driver's version",
                        name, nvidia_smi));
    return v;
}

}  // namespace

std::string parse_driver_version(const std::string& text) {
    static const std::regex version(R"(^\s*([0-9]+(\.[0-9]+)+)\s*$)");
    static const std::regex module(R"(Kernel Module\s+([0-9]+(\.[0-9]+)+))");
    std::istringstream in(text);
    std::string first;
    std::getline(in, first);
    std::smatch m;
    if (std::regex_match(first, m, version)) return m[1].str();
    if (std::regex_search(text, m, module)) return m[1].str();
    return "";
}

json run_provenance(const std::string& source_root) {
    utsname u{};
    ::uname(&u);
    return {{"host", u.nodename}, {"date", now_utc()}, {"commit", commit_of(source_root)}};
}

void add_gpu_provenance(const std::string& nvidia_smi, const std::string& name, json& record) {
    json& p = record["provenance"];
    if (!p.contains("gpu_name")) return;
    // book::report_device_provenance reports the driver's CUDA version: keep it
    // under its own name; driver_version is the driver's.
    if (p.contains("driver_version") && !p.contains("driver_cuda_version"))
        p["driver_cuda_version"] = p["driver_version"];
    p["driver_version"] = driver_version(nvidia_smi, name);
}

}  // namespace bookrun
