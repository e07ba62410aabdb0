// Where and how a run was made: the provenance the runner adds to a record.
#include <sys/utsname.h>

#include <unistd.h>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "commands.hpp"
#include "runner.hpp"

namespace bookrun {
namespace {

/// The time a record says it was made: now; for a CPU run (made again by every
/// build, never recorded) in a build that sets SOURCE_DATE_EPOCH (the reproducible
/// builds' convention: seconds since 1970), that time instead, so that two builds
/// of one tree publish the same pages (book.incremental-cmake). A GPU run's date is
/// always the clock's.
std::string now_utc(bool gpu) {
    std::time_t t = std::time(nullptr);
    if (const char* epoch = std::getenv("SOURCE_DATE_EPOCH"); !gpu && epoch != nullptr) {
        const std::string text = epoch;
        if (text.empty() || text.size() > 12 ||
            text.find_first_not_of("0123456789") != std::string::npos)
            throw Error(fmt::format("SOURCE_DATE_EPOCH={}: not a number of seconds", text));
        t = static_cast<std::time_t>(std::stoll(text));
    }
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

json run_provenance(const std::string& source_root, bool gpu) {
    utsname u{};
    ::uname(&u);
    return {{"host", u.nodename}, {"date", now_utc(gpu)}, {"commit", commit_of(source_root)}};
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

// ---- clocks ------------------------------------------------------------------------

namespace {

/// The throttle reasons that slow a running kernel down, as NVML defines them.
const std::pair<std::uint64_t, const char*> kSlowdowns[] = {
    {0x4, "SW power cap"},
    {0x8, "HW slowdown"},
    {0x20, "SW thermal slowdown"},
    {0x40, "HW thermal slowdown"},
    {0x80, "HW power brake slowdown"},
};
/// The reasons that do not: GPU idle, applications clocks setting, sync boost,
/// display clock setting.
constexpr std::uint64_t kHarmless = 0x1 | 0x2 | 0x10 | 0x100;

std::uint64_t mask_of(const json& reading) {
    return std::stoull(reading.at("throttle_reasons").get<std::string>(), nullptr, 16);
}

/// nvidia-smi as a path to run: a name is looked up on PATH; "" where there is none.
std::string find_program(const std::string& name) {
    namespace fs = std::filesystem;
    if (name.find('/') != std::string::npos) return ::access(name.c_str(), X_OK) == 0 ? name : "";
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path == nullptr ? "" : path);
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
        const fs::path candidate = fs::path(dir.empty() ? "." : dir) / name;
        if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
    }
    return "";
}

}  // namespace

json parse_clocks(const std::string& output) {
    static const std::regex line(R"(^\s*([0-9]+)\s*,\s*([0-9]+)\s*,\s*(0x[0-9A-Fa-f]{1,16})\s*$)");
    std::string text = output;
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    std::smatch m;
    if (text.find('\n') != std::string::npos || !std::regex_match(text, m, line)) {
        const std::string shown = text.size() > 200 ? text.substr(0, 200) + "..." : text;
        throw Error(fmt::format(
            "nvidia-smi printed \"{}\" where one line \"<SM MHz>, <memory MHz>, <throttle "
            "reasons, 0x...>\" was asked for",
            shown));
    }
    return {{"sm_mhz", std::stoi(m[1].str())},
            {"mem_mhz", std::stoi(m[2].str())},
            {"throttle_reasons", m[3].str()}};
}

std::vector<std::string> slowdown_reasons(std::uint64_t mask) {
    std::vector<std::string> out;
    std::uint64_t known = kHarmless;
    for (const auto& [bit, name] : kSlowdowns) {
        known |= bit;
        if ((mask & bit) != 0) out.emplace_back(name);
    }
    for (int b = 0; b < 64; ++b) {
        const std::uint64_t bit = std::uint64_t{1} << b;
        if ((mask & bit) != 0 && (known & bit) == 0)
            out.push_back(fmt::format("an unknown reason (0x{:x})", bit));
    }
    return out;
}

json repeat_clocks(const json& start, const json& end) {
    for (const json* r : {&start, &end})
        if (r->contains("not_read")) return {{"not_read", (*r)["not_read"]}};
    json entry = {{"start", start}, {"end", end}};
    std::vector<std::string> reasons = slowdown_reasons(mask_of(start) | mask_of(end));
    if (!reasons.empty()) entry["throttled"] = reasons;
    return entry;
}

std::vector<std::string> throttle_notes(const json& record) {
    std::vector<std::string> out;
    if (!record.contains("clocks") || !record["clocks"].is_array()) return out;
    const json& clocks = record["clocks"];
    for (std::size_t i = 0; i < clocks.size(); ++i)
        if (clocks[i].contains("throttled"))
            out.push_back(fmt::format(
                "repeat {} of {} ran while the GPU throttled: {}", i + 1, clocks.size(),
                fmt::join(clocks[i]["throttled"].get<std::vector<std::string>>(), ", ")));
    return out;
}

void check_clocks(const json& clocks, const std::string& where) {
    if (!clocks.is_array()) return;  // the schema names the shape
    for (std::size_t i = 0; i < clocks.size(); ++i) {
        const json& c = clocks[i];
        if (!c.contains("start") || !c.contains("end")) continue;
        json want = json::array();
        try {
            want = repeat_clocks(c["start"], c["end"]).value("throttled", json::array());
        } catch (const std::exception&) {
            throw Error(
                fmt::format("{}: 'clocks.{}' holds a throttle bitmask that is no "
                            "hexadecimal number (\"0x...\")",
                            where, i));
        }
        if (c.value("throttled", json::array()) != want)
            throw Error(fmt::format(
                "{}: 'clocks.{}.throttled' is {}, but its readings' bitmasks give {}: a "
                "recording's volatile part is written by `tools/book record`, never by hand",
                where, i, c.value("throttled", json::array()).dump(), want.dump()));
    }
}

json ClockReader::read() {
    if (!failed.empty()) return {{"not_read", failed}};
    const std::string exe = find_program(nvidia_smi);
    if (exe.empty()) {
        failed = nvidia_smi.find('/') != std::string::npos
                     ? fmt::format("{} is not a program this runner can run", nvidia_smi)
                     : fmt::format("{} is not on PATH", nvidia_smi);
        return {{"not_read", failed}};
    }
    const auto r =
        run_process({exe, "--query-gpu=clocks.sm,clocks.mem,clocks_throttle_reasons.active",
                     "--format=csv,noheader,nounits", "-i", device},
                    {}, timeout_s);
    if (r.timed_out || r.signal != 0 || r.exit_status != 0) {
        failed = fmt::format("{} {}{}", nvidia_smi, describe_failure(r, timeout_s),
                             r.err.empty() ? "" : ": " + tail_lines(r.err, 2));
        while (!failed.empty() && failed.back() == '\n') failed.pop_back();
        return {{"not_read", failed}};
    }
    try {
        return parse_clocks(r.out);
    } catch (const Error& e) {
        failed = fmt::format("unreadable: {}", e.what());
        return {{"not_read", failed}};
    }
}

std::string clock_device() {
    int index = 0;
    if (const char* spec = std::getenv("CTEST_RESOURCE_GROUP_0_GPUS")) {
        static const std::regex id(R"(id:([0-9]{1,6}))");
        std::cmatch m;
        if (std::regex_search(spec, m, id)) index = std::stoi(m[1].str());
    }
    if (const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
        visible != nullptr && *visible != '\0') {
        const auto devices = split_commas(visible);
        if (static_cast<std::size_t>(index) < devices.size()) return devices[index];
    }
    return std::to_string(index);
}

}  // namespace bookrun
