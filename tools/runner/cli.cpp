// bookrun: the book's program runner, its command line (main.cpp calls
// bookrun::command_line_main; the runner is one translation unit: CMakeLists.txt).
//
//   bookrun run     ... -- <program> <args>   run live, check, write the record
//   bookrun import  ...                       take a committed recording into the build
//   bookrun verify  ...                       check a committed recording (a test)
//   bookrun save    --record R --recording P  commit a live record as a recording
//   bookrun sanitize --sanitizer S --tool T -- <program> <args>
//   bookrun skip <reason>                     report a skipped test (exit 77)
#include <sys/utsname.h>

#include <unistd.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <set>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "runner.hpp"

namespace fs = std::filesystem;
using namespace bookrun;

namespace {

constexpr int kSkip = 77;

struct Options {
    std::string name, out, depfile, checks, recording, gpu_model, record;
    std::string schema_path;
    double timeout = 120;
    int repeats = 1;
    bool gpu = false, skip_without_gpu = false;
    InputSpec inputs;
    std::vector<std::string> env_items, toolchain_items;
    std::vector<std::string> provenance, command;
    std::string cuobjdump;
    std::vector<std::string> sass_functions;
    std::string ncu, ncu_metrics, ncu_labels;
    std::vector<std::string> ncu_kernels, ncu_args;
    std::string sanitizer, sanitizer_tool, sanitizer_expect;
    std::string tool;  // of `bookrun sanitize`
    std::string nvidia_smi = "nvidia-smi";
    std::vector<std::string> varies;  ///< regexes of the output lines that may differ between runs
    /// The book's reference GPUs (book/gpus.json): the names a check's "gpus" may give.
    std::vector<std::string> reference_gpus;
    /// import, verify: why the run waits for this GPU (recordings/pending.json), if it does.
    std::string pending;
    /// import, verify: a stale (or, for verify, missing) recording is this GPU's last, shown
    /// as such (a reference GPU other than the lead, or a pending run), not an error.
    bool stale_ok = false;
    /// import: a stale recording is an error (a release build of the lead GPU's).
    bool refuse_stale = false;
};

const std::vector<std::string> kSanitizerTools = {"memcheck", "racecheck", "synccheck",
                                                  "initcheck"};

/// Units of measured times and rates: a GPU run reporting one measures.
const std::set<std::string> kTimeUnits = {"s",      "ms",      "us",   "\u00b5s", "ns",
                                          "cycles", "ms/wave", "GB/s", "TB/s",    "Gadd/s"};

void add_schema_option(CLI::App* app, Options& o) {
    app->add_option(
        "--schema", o.schema_path,
        "the record schema (book/record-schema.json); default: " + default_schema_path());
}

void add_input_options(CLI::App* app, Options& o) {
    app->add_option("--name", o.name, "run name, <chapter>/<run>")->required();
    app->add_option("--source-root", o.inputs.source_root, "the book's source folder")->required();
    app->add_option("--cxx", o.inputs.cxx, "host C++ compiler, asked for header lists");
    app->add_option("--source", o.inputs.sources, "a source file of the program (repeatable)");
    app->add_option("--lib-source", o.inputs.lib_sources,
                    "a source of a library the program links, hashed like --source (repeatable)");
    app->add_option("--include-dir", o.inputs.include_dirs, "an include folder (repeatable)");
    app->add_option("--scan-cache", o.inputs.scan_cache,
                    "a folder where header lists are kept for the next run of the same "
                    "sources (reused while every file they name is unchanged; not hashed)");
    app->add_option("--cuda-arch", o.inputs.cuda_archs,
                    "a CUDA architecture the .cu sources are built for, as in 90 (repeatable; "
                    "default 90): headers are listed as __CUDA_ARCH__=<arch>0 sees them");
    app->add_option("--flags", o.inputs.flags, "the flags identity string");
    app->add_option("--arg", o.inputs.args, "an argument of the run (hashed)");
    app->add_option("--env", o.env_items,
                    "K=V: an environment variable of the run, set for the program and hashed "
                    "into its inputs as \"env\" (repeatable)");
    app->add_option("--toolchain", o.toolchain_items,
                    "KEY=VERSION, e.g. nvcc=13.0.88: a tool version the build gives, part of the "
                    "inputs; a recording's is compared only where this build gives the key "
                    "(repeatable)");
    app->add_flag("--gpu", o.gpu, "a GPU program: its record needs GPU provenance");
    app->add_option("--checks", o.checks, "the run's expectations (JSON)");
    app->add_option("--reference-gpu", o.reference_gpus,
                    "a reference GPU of the book, as the device names it (book/gpus.json; "
                    "repeatable): a check's \"gpus\" may name only these");
    app->add_option("--repeats", o.repeats,
                    "how many times the run is made, each a fresh process (book_run REPEATS): "
                    "the record keeps every repeat's results, its results are their medians, "
                    "and every check must hold in every repeat; a recording must hold as many")
        ->check(CLI::Range(1, 99));
    add_schema_option(app, o);
}

void add_sanitizer_expectation(CLI::App* app, Options& o) {
    app->add_option("--sanitizer-tool", o.sanitizer_tool, "the compute-sanitizer tool")
        ->check(CLI::IsMember(kSanitizerTools));
    app->add_option("--sanitizer-expect", o.sanitizer_expect,
                    "errors: the tool must report at least one error; warnings: at least one "
                    "error or warning (racecheck's hazards within a warp); clean: neither")
        ->check(CLI::IsMember({"errors", "warnings", "clean"}));
}

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

std::string tail_lines(const std::string& text, int n) {
    size_t pos = text.size();
    if (pos > 0 && text[pos - 1] == '\n') --pos;
    for (int seen = 0; seen < n && pos > 0; ++seen) {
        pos = text.rfind('\n', pos - 1);
        if (pos == std::string::npos) return text;
    }
    return pos == 0 ? text : text.substr(pos + 1);
}

void write_depfile(const std::string& depfile, const std::string& out,
                   const std::vector<std::string>& files) {
    if (depfile.empty()) return;
    std::string text = out + ":";
    for (auto f : files) {
        std::string esc;
        for (char c : f) esc += (c == ' ') ? std::string("\\ ") : std::string(1, c);
        text += " \\\n  " + esc;
    }
    write_file_atomically(depfile, text + "\n");
}

json apply_checks(const Options& o, json& record) {
    if (o.checks.empty()) return json::array();
    auto evaluated = evaluate_checks_repeated(read_checks_file(o.checks, o.reference_gpus), record);
    record["checks"] = evaluated;
    return evaluated;
}

void fail_on_checks(const std::string& name, const json& evaluated, const std::string& whence) {
    auto failed = failed_checks(evaluated);
    if (failed.empty()) return;
    std::string msg = fmt::format("{} {}: {} of {} checks failed:", name, whence, failed.size(),
                                  evaluated.size());
    for (const auto& f : failed) msg += "\n  " + f;
    throw Error(msg);
}

std::vector<std::string> split_commas(const std::string& s) {
    std::vector<std::string> out;
    for (size_t a = 0, b; a <= s.size(); a = b + 1) {
        b = s.find(',', a);
        if (b == std::string::npos) b = s.size();
        if (b > a) out.push_back(s.substr(a, b - a));
    }
    return out;
}

/// A stream of a run as the record keeps it (stdout, stderr, or texts.<name>):
/// valid UTF-8, capped.
void store_stream(json& record, const std::string& field, std::string text, std::size_t dropped,
                  const std::string& what, const Schema& schema) {
    check_utf8(text, what);
    json cut = cap_stream(text, schema.stream_bytes);
    if (dropped > 0) {
        if (cut.is_null()) cut = {{"bytes_total", text.size()}, {"bytes_cut", 0}};
        cut["bytes_total"] = cut["bytes_total"].get<std::size_t>() + dropped;
        cut["bytes_cut"] = cut["bytes_cut"].get<std::size_t>() + dropped;
    }
    if (!cut.is_null()) record["truncated"][field] = cut;
    if (field.rfind("texts.", 0) == 0)
        record["texts"][field.substr(6)] = text;
    else
        record[field] = text;
}

/// The driver's own version (580.x): nvidia-smi, else the kernel module's.
std::string driver_version(const Options& o) {
    auto r = run_process({"/bin/sh", "-c",
                          fmt::format("'{}' --query-gpu=driver_version --format=csv,noheader "
                                      "2>/dev/null || cat /proc/driver/nvidia/version 2>/dev/null",
                                      o.nvidia_smi)},
                         {}, 60);
    auto v = parse_driver_version(r.out);
    if (v.empty())
        throw Error(
            fmt::format("program {} ran on a GPU, but neither {} nor "
                        "/proc/driver/nvidia/version tells the driver's version",
                        o.name, o.nvidia_smi));
    return v;
}

void add_gpu_provenance(const Options& o, json& record) {
    json& p = record["provenance"];
    if (!p.contains("gpu_name")) return;
    // book::report_device_provenance reports the driver's CUDA version: keep it
    // under its own name; driver_version is the driver's.
    if (p.contains("driver_version") && !p.contains("driver_cuda_version"))
        p["driver_cuda_version"] = p["driver_version"];
    p["driver_version"] = driver_version(o);
}

void check_sanitizer_expectation(const std::string& name, const std::string& tool,
                                 const std::string& expect, const sanitizer_counts& counts,
                                 const std::string& report) {
    if (expect == "errors" && counts.errors == 0)
        throw Error(fmt::format(
            "program {} under compute-sanitizer {} reported no errors{}, but the "
            "run expects at least one (--sanitizer-expect errors); the report "
            "ends:\n{}",
            name, tool, counts.warnings ? fmt::format(" (and {} warnings)", counts.warnings) : "",
            tail_lines(report, 15)));
    if (expect == "warnings" && counts.errors + counts.warnings == 0)
        throw Error(
            fmt::format("program {} under compute-sanitizer {} reported no errors and no "
                        "warnings, but the run expects at least one (--sanitizer-expect "
                        "warnings); the report ends:\n{}",
                        name, tool, tail_lines(report, 15)));
    if (expect == "clean" && counts.errors + counts.warnings != 0)
        throw Error(
            fmt::format("program {} under compute-sanitizer {} reported {} error{} and {} "
                        "warning{}, but the run expects neither (--sanitizer-expect clean); the "
                        "report ends:\n{}",
                        name, tool, counts.errors, counts.errors == 1 ? "" : "s", counts.warnings,
                        counts.warnings == 1 ? "" : "s", tail_lines(report, 40)));
}

/// One run of the program (a repeat): its process, what it reported, and the
/// sanitizer's report when it ran under one.
struct Attempt {
    ProcessResult r;
    json reported;  ///< {"results", "texts", "provenance"} as the program reported them
    std::string report;
};

Attempt run_once(const Options& o, const std::vector<std::string>& argv,
                 std::map<std::string, std::string> env, const std::string& results,
                 const std::string& log, int repeat, const Schema& schema) {
    std::remove(results.c_str());
    std::remove(log.c_str());
    env["BOOK_RESULTS"] = results;
    Attempt a;
    a.r = run_process(argv, env, o.timeout);
    auto slurp = [](const std::string& path) {
        std::string text;
        if (fs::exists(path)) {
            text = read_file(path);
            std::remove(path.c_str());
        }
        return text;
    };
    std::string results_text = slurp(results);
    a.report = o.sanitizer.empty() ? "" : slurp(log);
    a.reported = {
        {"results", json::object()}, {"texts", json::object()}, {"provenance", json::object()}};
    if (a.r.exit_status == kSkip && !a.r.timed_out && a.r.signal == 0) return a;
    const std::string which =
        o.repeats > 1 ? fmt::format("{} (repeat {} of {})", o.name, repeat, o.repeats) : o.name;
    try {
        merge_results(a.reported, results_text);
    } catch (const Error& e) {
        throw Error(fmt::format("program {}: {}", which, e.what()));
    }
    check_program_provenance(a.reported["provenance"], o.gpu, schema, which);
    return a;
}

/// The lines of a text ("" has none; a last line without a newline counts).
std::vector<std::string> text_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t end = text.find('\n', at);
        if (end == std::string::npos) end = text.size();
        lines.push_back(text.substr(at, end - at));
        at = end + 1;
    }
    return lines;
}

/// An error naming the first line where two runs' `stream` differ, unless both
/// lines match one of the declared `varies` patterns; "" when they agree.
std::string first_difference(const std::string& stream, const std::string& a, const std::string& b,
                             const std::vector<std::regex>& varies) {
    const auto la = text_lines(a), lb = text_lines(b);
    const auto shown = [](const std::string& line) {
        return line.size() > 200 ? line.substr(0, 200) + "..." : line;
    };
    for (std::size_t i = 0; i < std::max(la.size(), lb.size()); ++i) {
        if (i >= la.size() || i >= lb.size())
            return fmt::format("its {} has {} lines in the first run and {} in the second", stream,
                               la.size(), lb.size());
        if (la[i] == lb[i]) continue;
        const bool declared = std::any_of(varies.begin(), varies.end(), [&](const std::regex& re) {
            return std::regex_search(la[i], re) && std::regex_search(lb[i], re);
        });
        if (!declared)
            return fmt::format(
                "its {} differs at line {}: \"{}\" in the first run, \"{}\" in the "
                "second",
                stream, i + 1, shown(la[i]), shown(lb[i]));
    }
    return "";
}

/// The keys of two JSON objects, together and in order.
std::set<std::string> keys_of_either(const json& a, const json& b) {
    std::set<std::string> keys;
    for (const json* object : {&a, &b})
        for (const auto& [k, v] : object->items()) keys.insert(k);
    return keys;
}

/// A CPU program's output must be the same at every run (the page shows one run
/// of it as the output of the sources): its second run, compared stream by
/// stream, text by text and result by result.
void check_same_output(const Options& o, const Attempt& first, const Attempt& second) {
    std::vector<std::regex> varies;
    for (const auto& v : o.varies) {
        try {
            varies.emplace_back(v, std::regex::ECMAScript);
        } catch (const std::regex_error& e) {
            throw Error(fmt::format("run {}: --varies '{}' is not a regular expression: {}", o.name,
                                    v, e.what()));
        }
    }
    std::vector<std::string> found;
    auto compare = [&](const std::string& stream, const std::string& a, const std::string& b) {
        const std::string d = first_difference(stream, a, b, varies);
        if (!d.empty()) found.push_back(d);
    };
    compare("stdout", first.r.out, second.r.out);
    compare("stderr", first.r.err, second.r.err);
    const json& ta = first.reported["texts"];
    const json& tb = second.reported["texts"];
    for (const auto& k : keys_of_either(ta, tb))
        compare("text " + k, ta.contains(k) ? ta[k].get<std::string>() : "",
                tb.contains(k) ? tb[k].get<std::string>() : "");
    const json& ra = first.reported["results"];
    const json& rb = second.reported["results"];
    for (const auto& k : keys_of_either(ra, rb))
        if (!ra.contains(k) || !rb.contains(k) || ra[k] != rb[k])
            found.push_back(fmt::format("its result {} is {} in the first run and {} in the second",
                                        k, ra.contains(k) ? ra[k].dump() : "missing",
                                        rb.contains(k) ? rb[k].dump() : "missing"));
    if (found.empty()) return;
    std::string all;
    for (const auto& f : found) all += "\n  " + f;
    throw Error(fmt::format(
        "program {}: a CPU program's output must be the same at every run, but two runs of it "
        "differ:{}\nSeed what is random and print no time or address; or, where a line "
        "must vary, declare it: book_run({} ... VARIES <regex of the lines>)",
        o.name, all, o.name.substr(o.name.find('/') + 1)));
}

int cmd_run(const Options& o, const Schema& schema) {
    fs::path exe = o.command.at(0);
    if (!o.sanitizer_tool.empty() && o.sanitizer.empty() && o.skip_without_gpu) {
        // A test of a sanitizer run where the toolkit has no compute-sanitizer (and so,
        // as configure made sure, no GPU runs live): nothing to run.
        std::cout << fmt::format("skipped: no compute-sanitizer to run {} under {}\n", o.name,
                                 o.sanitizer_tool);
        return kSkip;
    }
    auto files = input_files(o.inputs);
    json record = {{"schema", schema.version}, {"name", o.name}, {"source", "live"}};
    record["inputs"] = compute_inputs(o.inputs, files);
    // The command as a reader would type it (under the sanitizer when there is one).
    json command = json::array();
    if (!o.sanitizer.empty())
        command = {fs::path(o.sanitizer).filename().string(), "--tool", o.sanitizer_tool};
    command.push_back(exe.filename().string());
    for (size_t i = 1; i < o.command.size(); ++i) command.push_back(o.command[i]);
    record["command"] = command;

    std::string results = fmt::format("{}.results.{}", o.out, ::getpid());
    std::string log = fmt::format("{}.sanitizer.{}", o.out, ::getpid());
    if (fs::path(results).has_parent_path())
        fs::create_directories(fs::path(results).parent_path());
    std::vector<std::string> argv = o.command;
    const bool sanitized = !o.sanitizer.empty();
    if (sanitized) {
        argv = {o.sanitizer, "--tool", o.sanitizer_tool, "--log-file", log};
        if (o.sanitizer_tool == "racecheck") argv.insert(argv.end(), {"--racecheck-report", "all"});
        argv.insert(argv.end(), o.command.begin(), o.command.end());
    }
    // A program that a sanitizer is expected to catch may fail because of what it caught.
    const bool may_fail = sanitized && o.sanitizer_expect != "clean";
    // Each repeat is a fresh process: what one run leaves in the driver or the
    // caches (a module loaded, a warm L2) is never carried into the next.
    std::vector<Attempt> attempts;
    double wall = 0;
    for (int i = 1; i <= o.repeats; ++i) {
        Attempt a = run_once(o, argv, o.inputs.env, results, log, i, schema);
        const ProcessResult& r = a.r;
        if (r.exit_status == kSkip && !r.timed_out && r.signal == 0) {
            std::cerr << r.err;
            if (o.skip_without_gpu) return kSkip;
            throw Error(
                fmt::format("program {} ({}) found no GPU to run on (exit 77), but this build "
                            "runs GPU programs live",
                            o.name, exe.string()));
        }
        if (r.timed_out || r.signal != 0 || (r.exit_status != 0 && !may_fail))
            throw Error(fmt::format(
                "program {} ({}{}){} {}; last lines of its stderr:\n{}{}", o.name, exe.string(),
                sanitized ? " under compute-sanitizer " + o.sanitizer_tool : "",
                o.repeats > 1 ? fmt::format(", repeat {} of {},", i, o.repeats) : "",
                describe_failure(r, o.timeout), tail_lines(r.err, 15),
                a.report.empty() ? ""
                                 : "\nthe sanitizer's report ends:\n" + tail_lines(a.report, 15)));
        wall += r.wall_s;
        attempts.push_back(std::move(a));
    }
    // A CPU program that is not measured is run a second time: what it prints
    // must not change from run to run (beyond the lines its run declares).
    if (!o.gpu && !sanitized && o.repeats == 1) {
        Attempt again = run_once(o, argv, o.inputs.env, results, log, 2, schema);
        const ProcessResult& r = again.r;
        if (r.timed_out || r.signal != 0 || r.exit_status != attempts.front().r.exit_status)
            throw Error(fmt::format(
                "program {} ({}), run a second time to compare its output, {} (the first run "
                "exited {}); last lines of its stderr:\n{}",
                o.name, exe.string(), describe_failure(r, o.timeout),
                attempts.front().r.exit_status, tail_lines(r.err, 15)));
        check_same_output(o, attempts.front(), again);
    }
    std::vector<json> per;
    for (const auto& a : attempts) per.push_back(a.reported["results"]);
    // A GPU run that measures time is scheduled alone and repeated (book_run
    // REPEATS, or profiled by ncu): one that reports a time without saying so
    // would be run beside others, once.
    if (o.gpu && o.repeats == 1 && o.ncu.empty() && !sanitized)
        for (auto& [key, r] : per.front().items())
            if (kTimeUnits.count(r.value("unit", "")) != 0)
                throw Error(fmt::format(
                    "program {} reported '{}' in {}, a measured time or rate, but its run "
                    "declares no REPEATS: a GPU run that measures declares REPEATS N (book_run "
                    "... REPEATS 5), so that it runs alone on a quiet host, N times",
                    o.name, key, r.value("unit", "")));
    const json medians = o.repeats > 1 ? median_results(per, o.name) : per.front();
    const std::size_t shown = o.repeats > 1 ? nearest_repeat(per, medians) : 0;
    const Attempt& a = attempts[shown];
    const ProcessResult& r = a.r;
    const std::string report = a.report;
    record["exit_status"] = r.exit_status;
    store_stream(record, "stdout", r.out, r.out_dropped, fmt::format("program {} stdout", o.name),
                 schema);
    store_stream(record, "stderr", r.err, r.err_dropped, fmt::format("program {} stderr", o.name),
                 schema);
    record["wall_s"] = wall;
    utsname u{};
    ::uname(&u);
    record["provenance"] = {
        {"host", u.nodename}, {"date", now_utc()}, {"commit", commit_of(o.inputs.source_root)}};
    for (const auto& [k, v] : parse_key_values(o.provenance, "--provenance"))
        record["provenance"][k] = v;
    // What the program reported about its device; the runner's keys are its own
    // (check_program_provenance refused any other).
    for (auto& [k, v] : a.reported["provenance"].items()) record["provenance"][k] = v;
    record["results"] = medians;
    record["texts"] = a.reported["texts"];
    if (o.repeats > 1) {
        record["repeats"] = json::array();
        for (const auto& rr : per) record["repeats"].push_back({{"results", rr}});
        record["shown_repeat"] = shown;
    }
    if (o.gpu) add_gpu_provenance(o, record);

    if (sanitized) {
        std::string what =
            fmt::format("compute-sanitizer {} report of {}", o.sanitizer_tool, o.name);
        if (report.empty())
            throw Error(
                fmt::format("{} is empty: {} wrote nothing to its log file", what, o.sanitizer));
        check_utf8(report, what);
        const sanitizer_counts counts = sanitizer_summary(report);
        check_sanitizer_expectation(o.name, o.sanitizer_tool, o.sanitizer_expect, counts, report);
        record["texts"]["sanitizer:" + o.sanitizer_tool] =
            mask_sanitizer_report(report, o.inputs.source_root);
        record["results"]["sanitizer_errors"] = {{"value", counts.errors}, {"unit", "errors"}};
        record["results"]["sanitizer_warnings"] = {{"value", counts.warnings},
                                                   {"unit", "warnings"}};
    }
    if (!o.sass_functions.empty()) {
        if (o.cuobjdump.empty()) throw Error("--sass-function needs --cuobjdump");
        auto d = run_process({o.cuobjdump, "-sass", exe.string()}, {}, 120);
        if (d.exit_status != 0) throw Error("cuobjdump failed: " + tail_lines(d.err, 5));
        for (const auto& f : o.sass_functions) {
            if (record["texts"].contains("sass:" + f))
                throw Error(fmt::format("--sass-function {} is given twice", f));
            record["texts"]["sass:" + f] = extract_sass(d.out, f);
        }
    }
    if (!o.ncu.empty()) {
        if (o.ncu_kernels.empty()) throw Error("--ncu needs at least one --ncu-kernel");
        // Base units (bytes, not a Mbyte here and a Gbyte there), so that values
        // of different launches compare and divide as they are.
        std::vector<std::string> argv = {
            o.ncu,       "--clock-control", "none",          "--print-units",
            "base",      "--csv",           "--kernel-name", ncu_kernel_filter(o.ncu_kernels),
            "--metrics", o.ncu_metrics,     exe.string()};
        argv.insert(argv.end(), o.ncu_args.begin(), o.ncu_args.end());
        auto n = run_process(argv, o.inputs.env, 600);
        if (n.exit_status != 0)
            throw Error(fmt::format("ncu on {} {}:\n{}", o.name, describe_failure(n, 600),
                                    tail_lines(n.out + n.err, 15)));
        json metrics;
        try {
            metrics = parse_ncu_csv(n.out, split_commas(o.ncu_labels));
        } catch (const Error& e) {
            throw Error(fmt::format("ncu on {}: {}", o.name, e.what()));
        }
        record["ncu"] = metrics;
        for (auto& [k, v] : metrics.items())
            if (v["value"].is_number())
                record["results"]["ncu:" + k] = {{"value", v["value"]}, {"unit", v["unit"]}};
    }
    // Every text (the program's, the sanitizer's report, SASS) is kept as its streams are.
    const json texts = record["texts"];
    for (auto& [name, text] : texts.items())
        store_stream(record, "texts." + name, text.get<std::string>(), 0,
                     fmt::format("text '{}' of program {}", name, o.name), schema);
    auto evaluated = apply_checks(o, record);
    record["digest"] = record_digest(record, schema);
    validate_record(record, o.name, o.gpu, schema);
    if (!evaluated.empty() && !failed_checks(evaluated).empty()) {
        // Keep the evidence beside the record, never in its place.
        write_file_atomically(o.out + ".failed.json", record.dump(2) + "\n");
        fail_on_checks(o.name, evaluated, "ran, but");
    }
    write_file_atomically(o.out, record.dump(2) + "\n");
    std::remove((o.out + ".failed.json").c_str());
    write_depfile(o.depfile, o.out, files);
    return 0;
}

std::string volatile_path(const std::string& recording) {
    auto p = recording;
    if (p.size() > 5 && p.compare(p.size() - 5, 5, ".json") == 0) p.resize(p.size() - 5);
    return p + ".volatile.json";
}

/// Reads a committed recording and compares it with the sources as they are now.
json load_recording(const Options& o, const Schema& schema, std::vector<std::string>& files) {
    if (!fs::exists(o.recording))
        throw Error(
            fmt::format("no recording of {} for {}: {} does not exist. Run `tools/book record` "
                        "on a machine with that GPU, or build where the GPU runs live.",
                        o.name, o.gpu_model, o.recording));
    auto vpath = volatile_path(o.recording);
    if (!fs::exists(vpath))
        throw Error(
            fmt::format("{}: the recording's volatile part {} is missing", o.recording, vpath));
    json stable = from_recording_lines(read_json_file(o.recording), o.recording, schema);
    json vol = read_json_file(vpath);
    if (!vol.is_object()) throw Error(fmt::format("{}: a JSON object is needed", vpath));
    check_volatile_formats(vol, vpath, schema);
    for (auto& [k, v] : vol.items()) {
        bool known = k == "provenance" ||
                     std::find(schema.volatile_record.begin(), schema.volatile_record.end(), k) !=
                         schema.volatile_record.end();
        if (!known) throw Error(fmt::format("{}: '{}' is not a volatile field", vpath, k));
        if (k == "provenance")
            for (auto& [pk, pv] : v.items())
                if (std::find(schema.volatile_provenance.begin(), schema.volatile_provenance.end(),
                              pk) == schema.volatile_provenance.end())
                    throw Error(
                        fmt::format("{}: 'provenance.{}' is not a volatile field", vpath, pk));
    }
    if (stable.is_object())
        for (const auto& k : schema.build_only)
            if (stable.contains(k))
                throw Error(
                    fmt::format("{}: '{}' is added by bookrun import; a recording never "
                                "holds it",
                                o.recording, k));
    json record = join_volatile(stable, vol);
    validate_record(record, o.recording, true, schema);
    check_digest(record, o.recording, schema);
    const std::size_t held = record.contains("repeats") ? record["repeats"].size() : 1;
    if (held != static_cast<std::size_t>(o.repeats))
        throw Error(fmt::format(
            "{}: the recording holds {} repeat{} of {}, but its book_run declares REPEATS {}: "
            "re-record it with `tools/book record`",
            o.recording, held, held == 1 ? "" : "s", o.name, o.repeats));
    if (record["name"] != o.name)
        throw Error(fmt::format("{}: the recording is of {}, not {}", o.recording,
                                record["name"].get<std::string>(), o.name));
    auto gpu = record["provenance"]["gpu_name"].get<std::string>();
    if (gpu != o.gpu_model)
        throw Error(
            fmt::format("{}: the recording was made on a {}, but this book shows the {} "
                        "(BOOK_GPU_MODEL)",
                        o.recording, gpu, o.gpu_model));
    if (!o.sanitizer_tool.empty()) {
        const std::string text = "sanitizer:" + o.sanitizer_tool;
        if (!record.value("texts", json::object()).contains(text) ||
            !record["results"].contains("sanitizer_errors"))
            throw Error(
                fmt::format("{}: the recording has no compute-sanitizer {} report (text "
                            "'{}' and result 'sanitizer_errors')",
                            o.recording, o.sanitizer_tool, text));
        // The counts as the recorded report states them (the report is part of the
        // digest, so it is what the tool printed).
        check_sanitizer_expectation(o.name, o.sanitizer_tool, o.sanitizer_expect,
                                    sanitizer_summary(record["texts"][text].get<std::string>()),
                                    record["texts"][text].get<std::string>());
    }
    files = input_files(o.inputs);
    auto current = compute_inputs(o.inputs, files);
    auto diff = diff_inputs(record["inputs"], current);
    record["stale"] = !diff.changes.empty();
    record["stale_reasons"] = diff.changes;
    record["not_compared"] = diff.not_compared;
    record["source"] = "recording";
    return record;
}

/// "recordings/x/ch/r.json of the NVIDIA H200, recorded at commit c: a.cu changed; b.cu changed".
std::string stale_description(const Options& o, const json& record) {
    return fmt::format("{} (the {}) is stale: recorded at commit {}, and since then {}",
                       o.recording, o.gpu_model, record["provenance"]["commit"].get<std::string>(),
                       fmt::join(record["stale_reasons"].get<std::vector<std::string>>(), "; "));
}

int cmd_import(const Options& o, const Schema& schema) {
    std::vector<std::string> files;
    json record = load_recording(o, schema, files);
    const bool stale = record["stale"].get<bool>();
    if (stale && o.refuse_stale)
        throw Error(fmt::format(
            "a release build shows only fresh recordings of the lead GPU, but {}. Record it "
            "on that GPU (`tools/book record`), or build without --release",
            stale_description(o, record)));
    auto evaluated = apply_checks(o, record);
    // A stale recording of a GPU that may lag (another reference GPU, a pending
    // run) is shown as the last of that GPU, under its note; its checks were made
    // for an older program, and are neither enforced nor counted.
    if (!(stale && o.stale_ok)) fail_on_checks(o.name, evaluated, "is recorded, but");
    for (const auto& n : record["not_compared"])
        std::cerr << fmt::format("bookrun: note: {}: not compared: {}\n", o.name,
                                 n.get<std::string>());
    if (record["stale"].get<bool>()) {
        std::cerr << fmt::format(
            "bookrun: warning: the recording of {} is stale (recorded at {}): {}\n", o.name,
            record["provenance"]["commit"].get<std::string>(),
            fmt::format("{}",
                        fmt::join(record["stale_reasons"].get<std::vector<std::string>>(), "; ")));
    }
    write_file_atomically(o.out, record.dump(2) + "\n");
    files.push_back(fs::absolute(o.recording).string());
    files.push_back(fs::absolute(volatile_path(o.recording)).string());
    write_depfile(o.depfile, o.out, files);
    return 0;
}

int cmd_verify(const Options& o, const Schema& schema) {
    // A run that waits for this GPU, or a GPU whose recordings may lag: a missing
    // or stale recording is reported skipped (never passed), with the reason.
    const std::string waits =
        o.pending.empty() ? "" : "pending (recordings/pending.json: " + o.pending + "): ";
    if ((o.stale_ok || !o.pending.empty()) && !fs::exists(o.recording)) {
        std::cout << fmt::format("skipped: {}{} has never been recorded on the {} ({})\n", waits,
                                 o.name, o.gpu_model, o.recording);
        return kSkip;
    }
    std::vector<std::string> files;
    json record = load_recording(o, schema, files);
    const bool stale = record["stale"].get<bool>();
    if (stale && (o.stale_ok || !o.pending.empty())) {
        std::cout << fmt::format("skipped: {}{}; its checks are not counted\n", waits,
                                 stale_description(o, record));
        return kSkip;
    }
    if (!o.pending.empty())
        throw Error(fmt::format(
            "{} is declared pending on the {} (recordings/pending.json: {}), but its recording "
            "{} is fresh: take the {} off its entry in recordings/pending.json",
            o.name, o.gpu_model, o.pending, o.recording, o.gpu_model));
    auto evaluated = apply_checks(o, record);
    fail_on_checks(o.name, evaluated, "is recorded, but");
    if (stale) {
        std::string msg = fmt::format(
            "the recording of {} is stale: its inputs changed since it was "
            "recorded at commit {}:",
            o.name, record["provenance"]["commit"].get<std::string>());
        for (const auto& c : record["stale_reasons"]) msg += "\n  " + c.get<std::string>();
        for (const auto& c : record["not_compared"])
            msg += "\n  (not compared: " + c.get<std::string>() + ")";
        msg += "\nRe-record it on a GPU machine with `tools/book record`.";
        throw Error(msg);
    }
    std::cout << fmt::format(
        "{}: recording is fresh ({} on {}, commit {}); {}{}{}\n", o.name,
        record["inputs"]["hash"].get<std::string>(),
        record["provenance"]["gpu_name"].get<std::string>(),
        record["provenance"]["commit"].get<std::string>(), passed_summary(evaluated),
        record["not_compared"].empty() ? "" : "; not compared: ",
        fmt::format("{}", fmt::join(record["not_compared"].get<std::vector<std::string>>(), "; ")));
    return 0;
}

/// The build's own live record of a run: complete, unedited, of the sources as
/// they are, with every check holding in every repeat. A test of the GPU machine,
/// which checks what the build ran rather than running it again.
int cmd_check(const Options& o, const Schema& schema) {
    if (!fs::exists(o.record))
        throw Error(fmt::format("{}: no record of {}: the build did not run it (build first)",
                                o.record, o.name));
    json record = read_json_file(o.record);
    validate_record(record, o.record, o.gpu, schema);
    check_digest(record, o.record, schema);
    if (record.value("source", "") != "live")
        throw Error(fmt::format("{}: the build took {} from a recording; it ran nothing live",
                                o.record, o.name));
    if (record["name"] != o.name)
        throw Error(fmt::format("{}: the record is of {}, not {}", o.record,
                                record["name"].get<std::string>(), o.name));
    const std::size_t held = record.contains("repeats") ? record["repeats"].size() : 1;
    if (held != static_cast<std::size_t>(o.repeats))
        throw Error(fmt::format("{}: the record holds {} repeats, but book_run declares {}",
                                o.record, held, o.repeats));
    auto diff = diff_inputs(record["inputs"], compute_inputs(o.inputs, input_files(o.inputs)));
    if (!diff.changes.empty()) {
        std::string msg =
            fmt::format("{}: the record of {} is older than its inputs:", o.record, o.name);
        for (const auto& c : diff.changes) msg += "\n  " + c;
        throw Error(msg + "\nbuild again");
    }
    auto evaluated = apply_checks(o, record);
    fail_on_checks(o.name, evaluated, "ran, but");
    std::cout << fmt::format("{}: the build's live record ({} repeat{}): {}\n", o.name, held,
                             held == 1 ? "" : "s", passed_summary(evaluated));
    return 0;
}

int cmd_save(const Options& o, const Schema& schema) {
    json record = read_json_file(o.record);
    validate_record(record, o.record, true, schema);
    if (record.value("source", "") != "live")
        throw Error(fmt::format("{}: only a live record can become a recording", o.record));
    if (record.contains("checks")) fail_on_checks(record["name"], record["checks"], "ran, but");
    check_digest(record, o.record, schema);
    for (const auto& k : schema.build_only)
        if (record.contains(k))
            throw Error(
                fmt::format("{}: '{}' is added by bookrun import: not a live record", o.record, k));
    auto [stable, vol] = split_volatile(record, schema);
    check_volatile_formats(vol, o.record, schema);
    write_file_atomically(o.recording, to_recording_lines(stable, schema).dump(2) + "\n");
    write_file_atomically(volatile_path(o.recording), vol.dump(2) + "\n");
    std::cout << fmt::format("recorded {} -> {}\n", record["name"].get<std::string>(), o.recording);
    return 0;
}

int cmd_sanitize(const Options& o) {
    std::vector<std::string> argv = {o.sanitizer, "--tool", o.tool, "--error-exitcode", "99"};
    if (o.tool == "racecheck") argv.insert(argv.end(), {"--racecheck-report", "all"});
    argv.insert(argv.end(), o.command.begin(), o.command.end());
    auto r = run_process(argv, o.inputs.env, o.timeout);
    std::cout << r.out;
    std::cerr << r.err;
    if (r.exit_status == kSkip && !r.timed_out) return kSkip;
    if (r.timed_out || r.signal != 0 || r.exit_status != 0)
        throw Error(fmt::format(
            "compute-sanitizer {} on {} {}", o.tool, o.command.at(0),
            r.exit_status == 99 ? std::string("found errors") : describe_failure(r, o.timeout)));
    std::cout << fmt::format("compute-sanitizer {}: clean\n", o.tool);
    return 0;
}

/// Options that hang together, checked before anything runs.
void check_options(const Options& o, bool running) {
    if (running && !o.sanitizer.empty() && (o.sanitizer_tool.empty() || o.sanitizer_expect.empty()))
        throw Error("--sanitizer needs --sanitizer-tool and --sanitizer-expect");
    if (o.sanitizer.empty() && running && !o.sanitizer_tool.empty() && !o.skip_without_gpu)
        throw Error("--sanitizer-tool needs --sanitizer (the compute-sanitizer to run)");
    if (!o.sanitizer_tool.empty() && o.sanitizer_expect.empty())
        throw Error("--sanitizer-tool needs --sanitizer-expect errors|clean");
    if (!o.sanitizer_expect.empty() && o.sanitizer_tool.empty())
        throw Error("--sanitizer-expect needs --sanitizer-tool");
    if (running && o.ncu.empty() && !o.ncu_kernels.empty())
        throw Error("--ncu-kernel needs --ncu (Nsight Compute's ncu)");
    if (running && o.repeats > 1 && !o.sanitizer.empty())
        throw Error("--repeats is for runs that measure; a sanitized run is made once");
    if (running && !o.ncu.empty() && !o.sanitizer.empty())
        throw Error("a run is either profiled (--ncu) or sanitized (--sanitizer), not both");
}

}  // namespace

int bookrun::command_line_main(int argc, char** argv) {
    CLI::App app{"bookrun: runs the book's programs and keeps their run records"};
    app.require_subcommand(1);
    // The cap as the default schema states it (help text only: runs read --schema).
    std::string cap = "limits.stream_bytes of the schema";
    try {
        cap = fmt::format("{} bytes (limits.stream_bytes of {})",
                          load_schema(default_schema_path()).stream_bytes, default_schema_path());
    } catch (const std::exception&) {}
    const std::string records_note = fmt::format(
        "Records: a program's stdout, stderr and texts (its own, a sanitizer's report, SASS) "
        "must be valid UTF-8, and are stored up to {} each; beyond that the stored stream ends "
        "with a marker line "
        "saying how many bytes were cut, and the record's \"truncated\" says so. A record "
        "carries a digest of what it shows; verify, import and save refuse one that does not "
        "match it.",
        cap);
    app.footer(records_note);
    Options o;

    auto* run = app.add_subcommand("run", "run a program live, check it and write its record");
    add_input_options(run, o);
    run->add_option("--out", o.out, "the record to write")->required();
    run->add_option("--depfile", o.depfile, "a Makefile-style list of the run's inputs");
    run->add_option("--timeout", o.timeout, "seconds before the program is killed (each repeat)");

    run->add_option("--provenance", o.provenance, "key=value to add to the provenance");
    run->add_option("--varies", o.varies,
                    "an ECMAScript regex of the output lines that may differ between two runs "
                    "of a CPU program (book_run VARIES; repeatable): a CPU run is made twice, "
                    "and any other difference in its stdout, stderr, texts or results is an "
                    "error");
    run->add_flag("--skip-without-gpu", o.skip_without_gpu,
                  "exit 77 when the program finds no GPU");
    run->add_option("--nvidia-smi", o.nvidia_smi,
                    "nvidia-smi, asked for the driver version of a GPU run (default: from PATH)");
    run->add_option("--cuobjdump", o.cuobjdump, "cuobjdump, to record kernels' SASS");
    run->add_option("--sass-function", o.sass_functions,
                    "a kernel whose SASS to record as text sass:<name> (repeatable)");
    run->add_option("--ncu", o.ncu, "Nsight Compute's ncu, to record metrics");
    run->add_option("--ncu-kernel", o.ncu_kernels,
                    "regex of kernels to profile (repeatable: every matching launch is profiled, "
                    "in one ncu run, in launch order)");
    run->add_option("--ncu-metrics", o.ncu_metrics, "comma-separated metrics");
    run->add_option("--ncu-labels", o.ncu_labels,
                    "comma-separated names of the profiled launches, in launch order (results "
                    "ncu:<label>:<metric>)");
    run->add_option("--ncu-arg", o.ncu_args, "an argument for the profiled run");
    run->add_option("--sanitizer", o.sanitizer,
                    "compute-sanitizer: run the program under it (with --sanitizer-tool and "
                    "--sanitizer-expect); stdout stays the program's, the report becomes text "
                    "sanitizer:<tool>, its error count result sanitizer_errors");
    add_sanitizer_expectation(run, o);
    run->footer("The program and its arguments follow `--`.\n\n" + records_note);

    auto* imp = app.add_subcommand("import", "take a committed recording into the build");
    add_input_options(imp, o);
    add_sanitizer_expectation(imp, o);
    imp->add_option("--recording", o.recording)->required();
    imp->add_option("--gpu-model", o.gpu_model)->required();
    imp->add_option("--out", o.out)->required();
    imp->add_option("--depfile", o.depfile);
    imp->add_flag("--stale-ok", o.stale_ok,
                  "a stale recording is imported as this GPU's last, its checks evaluated but not "
                  "enforced (another reference GPU than the lead, or a pending run)");
    imp->add_flag("--refuse-stale", o.refuse_stale,
                  "a stale recording is an error (a release build, for the lead GPU)");

    auto* ver = app.add_subcommand(
        "verify", "check a committed recording: complete, unedited, right GPU, fresh, checks hold");
    add_input_options(ver, o);
    add_sanitizer_expectation(ver, o);
    ver->add_option("--recording", o.recording)->required();
    ver->add_option("--gpu-model", o.gpu_model)->required();
    ver->add_option("--pending", o.pending,
                    "why the run waits for this GPU (recordings/pending.json): a missing or stale "
                    "recording is reported skipped (exit 77), a fresh one is an error");
    ver->add_flag("--stale-ok", o.stale_ok,
                  "a GPU whose recordings may lag (a reference GPU other than the lead): a missing "
                  "or stale recording is reported skipped (exit 77), a fresh one verified");

    auto* chk = app.add_subcommand(
        "check", "check the build's live record of a run: unedited, current, checks hold");
    add_input_options(chk, o);
    add_sanitizer_expectation(chk, o);
    chk->add_option("--record", o.record, "the build's record")->required();

    auto* save = app.add_subcommand("save", "commit a live record as a recording");
    save->add_option("--record", o.record)->required();
    save->add_option("--recording", o.recording)->required();
    add_schema_option(save, o);

    auto* san = app.add_subcommand("sanitize", "run a program under compute-sanitizer (a test)");
    san->add_option("--sanitizer", o.sanitizer)->required();
    san->add_option("--tool", o.tool)->required()->check(CLI::IsMember(kSanitizerTools));
    san->add_option("--timeout", o.timeout);
    san->add_option("--env", o.env_items, "K=V: an environment variable of the run (repeatable)");
    san->footer("The program and its arguments follow `--`.");

    std::string reason;
    auto* skip = app.add_subcommand("skip", "report a skipped test");
    skip->add_option("reason", reason)->required();

    // Everything after the first "--" is the program to run, untouched by CLI11.
    int own = argc;
    for (int i = 1; i < argc; ++i)
        if (std::string(argv[i]) == "--") {
            own = i;
            o.command.assign(argv + i + 1, argv + argc);
            break;
        }
    CLI11_PARSE(app, own, argv);
    if ((*run || *san) && o.command.empty()) {
        std::cerr << "bookrun: error: give the program to run after `--`\n";
        return 2;
    }
    try {
        o.inputs.env = parse_key_values(o.env_items, "--env");
        o.inputs.toolchain = parse_key_values(o.toolchain_items, "--toolchain");
        if (*skip) {
            std::cout << "skipped: " << reason << "\n";
            return kSkip;
        }
        if (*san) return cmd_sanitize(o);
        check_options(o, run->parsed());
        Schema schema = load_schema(o.schema_path.empty() ? default_schema_path() : o.schema_path);
        if (*run) return cmd_run(o, schema);
        if (*imp) return cmd_import(o, schema);
        if (*ver) return cmd_verify(o, schema);
        if (*chk) return cmd_check(o, schema);
        if (*save) return cmd_save(o, schema);
    } catch (const Error& e) {
        std::cerr << "bookrun: error: " << e.what() << "\n";
        return 1;
    } catch (const std::exception& e) {
        std::cerr << "bookrun: error: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
