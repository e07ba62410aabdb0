// bookrun: the book's program runner.
//
//   bookrun run     ... -- <program> <args>   run live, check, write the record
//   bookrun import  ...                       take a committed recording into the build
//   bookrun verify  ...                       check a committed recording (a test)
//   bookrun save    --record R --recording P  commit a live record as a recording
//   bookrun sanitize --sanitizer S --tool T -- <program> <args>
//   bookrun skip <reason>                     report a skipped test (exit 77)
#include <sys/utsname.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "runner.hpp"

namespace fs = std::filesystem;
using namespace bookrun;

namespace {

constexpr int kSkip = 77;

struct Options {
    std::string name, out, depfile, checks, recording, gpu_model, record;
    double timeout = 120;
    bool gpu = false, skip_without_gpu = false;
    InputSpec inputs;
    std::vector<std::string> provenance, command;
    std::string cuobjdump, sass_function;
    std::string ncu, ncu_kernel, ncu_metrics, ncu_labels;
    std::vector<std::string> ncu_args;
    std::string sanitizer, tool;
};

void add_input_options(CLI::App* app, Options& o) {
    app->add_option("--name", o.name, "run name, <chapter>/<run>")->required();
    app->add_option("--source-root", o.inputs.source_root, "the book's source folder")->required();
    app->add_option("--cxx", o.inputs.cxx, "host C++ compiler, asked for header lists");
    app->add_option("--source", o.inputs.sources, "a source file of the program");
    app->add_option("--include-dir", o.inputs.include_dirs, "an include folder");
    app->add_option("--flags", o.inputs.flags, "the flags identity string");
    app->add_option("--arg", o.inputs.args, "an argument of the run (hashed)");
    app->add_flag("--gpu", o.gpu, "a GPU program: its record needs GPU provenance");
    app->add_option("--checks", o.checks, "the run's expectations (JSON)");
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
                                      "(git diff --quiet HEAD 2>/dev/null || echo dirty)", root)},
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
    auto evaluated = evaluate_checks(read_json_file(o.checks), record);
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

int cmd_run(const Options& o) {
    fs::path exe = o.command.at(0);
    auto files = input_files(o.inputs);
    json record = {{"schema", 1}, {"name", o.name}, {"source", "live"}};
    record["inputs"] = compute_inputs(o.inputs, files);
    json command = json::array({exe.filename().string()});
    for (size_t i = 1; i < o.command.size(); ++i) command.push_back(o.command[i]);
    record["command"] = command;

    std::string results = fmt::format("{}.results.{}", o.out, ::getpid());
    if (fs::path(results).has_parent_path()) fs::create_directories(fs::path(results).parent_path());
    std::remove(results.c_str());
    auto r = run_process(o.command, {{"BOOK_RESULTS", results}}, o.timeout);
    std::string results_text;
    if (fs::exists(results)) {
        std::ifstream in(results);
        results_text.assign(std::istreambuf_iterator<char>(in), {});
        std::remove(results.c_str());
    }
    if (r.exit_status == kSkip && !r.timed_out && r.signal == 0) {
        std::cerr << r.err;
        if (o.skip_without_gpu) return kSkip;
        throw Error(fmt::format("program {} ({}) found no GPU to run on (exit 77), but this build "
                                "runs GPU programs live", o.name, exe.string()));
    }
    if (r.timed_out || r.signal != 0 || r.exit_status != 0)
        throw Error(fmt::format("program {} ({}) {}; last lines of its stderr:\n{}", o.name,
                                exe.string(), describe_failure(r, o.timeout),
                                tail_lines(r.err, 15)));
    record["exit_status"] = r.exit_status;
    record["stdout"] = r.out;
    record["stderr"] = r.err;
    record["wall_s"] = r.wall_s;
    utsname u{};
    ::uname(&u);
    record["provenance"] = {{"host", u.nodename}, {"date", now_utc()},
                            {"commit", commit_of(o.inputs.source_root)}};
    for (const auto& p : o.provenance) {
        auto eq = p.find('=');
        if (eq == std::string::npos) throw Error("--provenance takes key=value, not " + p);
        record["provenance"][p.substr(0, eq)] = p.substr(eq + 1);
    }
    merge_results(record, results_text);

    if (!o.cuobjdump.empty() && !o.sass_function.empty()) {
        auto d = run_process({o.cuobjdump, "-sass", exe.string()}, {}, 120);
        if (d.exit_status != 0) throw Error("cuobjdump failed: " + tail_lines(d.err, 5));
        record["texts"]["sass:" + o.sass_function] = extract_sass(d.out, o.sass_function);
    }
    if (!o.ncu.empty()) {
        std::vector<std::string> argv = {o.ncu, "--clock-control", "none", "--csv",
                                         "--kernel-name", "regex:" + o.ncu_kernel,
                                         "--metrics", o.ncu_metrics, exe.string()};
        argv.insert(argv.end(), o.ncu_args.begin(), o.ncu_args.end());
        auto n = run_process(argv, {}, 600);
        if (n.exit_status != 0)
            throw Error(fmt::format("ncu on {} {}:\n{}", o.name, describe_failure(n, 600),
                                    tail_lines(n.out + n.err, 15)));
        std::vector<std::string> labels;
        for (size_t a = 0, b; a <= o.ncu_labels.size(); a = b + 1) {
            b = o.ncu_labels.find(',', a);
            if (b == std::string::npos) b = o.ncu_labels.size();
            if (b > a) labels.push_back(o.ncu_labels.substr(a, b - a));
        }
        auto metrics = parse_ncu_csv(n.out, labels);
        record["ncu"] = metrics;
        for (auto& [k, v] : metrics.items())
            if (v["value"].is_number())
                record["results"]["ncu:" + k] = {{"value", v["value"]}, {"unit", v["unit"]}};
    }
    auto evaluated = apply_checks(o, record);
    validate_record(record, o.name, o.gpu);
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
json load_recording(const Options& o, std::vector<std::string>& files) {
    if (!fs::exists(o.recording))
        throw Error(fmt::format("no recording of {} for {}: {} does not exist. Run `tools/book record` "
                                "on a machine with that GPU, or build where the GPU runs live.",
                                o.name, o.gpu_model, o.recording));
    auto vpath = volatile_path(o.recording);
    if (!fs::exists(vpath))
        throw Error(fmt::format("{}: the recording's volatile part {} is missing", o.recording, vpath));
    json record = join_volatile(read_json_file(o.recording), read_json_file(vpath));
    validate_record(record, o.recording, true);
    if (record["name"] != o.name)
        throw Error(fmt::format("{}: the recording is of {}, not {}", o.recording,
                                record["name"].get<std::string>(), o.name));
    auto gpu = record["provenance"]["gpu_name"].get<std::string>();
    if (gpu != o.gpu_model)
        throw Error(fmt::format("{}: the recording was made on a {}, but this book shows the {} "
                                "(BOOK_GPU_MODEL)", o.recording, gpu, o.gpu_model));
    files = input_files(o.inputs);
    auto current = compute_inputs(o.inputs, files);
    auto changes = diff_inputs(record["inputs"], current);
    record["stale"] = !changes.empty();
    record["stale_reasons"] = changes;
    record["source"] = "recording";
    return record;
}

int cmd_import(const Options& o) {
    std::vector<std::string> files;
    json record = load_recording(o, files);
    auto evaluated = apply_checks(o, record);
    fail_on_checks(o.name, evaluated, "is recorded, but");
    if (record["stale"].get<bool>()) {
        std::cerr << fmt::format("bookrun: warning: the recording of {} is stale (recorded at {}): {}\n",
                                 o.name, record["provenance"]["commit"].get<std::string>(),
                                 fmt::format("{}", fmt::join(record["stale_reasons"].get<std::vector<std::string>>(), "; ")));
    }
    write_file_atomically(o.out, record.dump(2) + "\n");
    files.push_back(fs::absolute(o.recording).string());
    files.push_back(fs::absolute(volatile_path(o.recording)).string());
    write_depfile(o.depfile, o.out, files);
    return 0;
}

int cmd_verify(const Options& o) {
    std::vector<std::string> files;
    json record = load_recording(o, files);
    auto evaluated = apply_checks(o, record);
    fail_on_checks(o.name, evaluated, "is recorded, but");
    if (record["stale"].get<bool>()) {
        std::string msg = fmt::format("the recording of {} is stale: its inputs changed since it was "
                                      "recorded at commit {}:",
                                      o.name, record["provenance"]["commit"].get<std::string>());
        for (const auto& c : record["stale_reasons"]) msg += "\n  " + c.get<std::string>();
        msg += "\nRe-record it on a GPU machine with `tools/book record`.";
        throw Error(msg);
    }
    std::cout << fmt::format("{}: recording is fresh ({} on {}, commit {}); {} checks passed\n", o.name,
                             record["inputs"]["hash"].get<std::string>(),
                             record["provenance"]["gpu_name"].get<std::string>(),
                             record["provenance"]["commit"].get<std::string>(), evaluated.size());
    return 0;
}

int cmd_save(const Options& o) {
    json record = read_json_file(o.record);
    validate_record(record, o.record, true);
    if (record.value("source", "") != "live")
        throw Error(fmt::format("{}: only a live record can become a recording", o.record));
    if (record.contains("checks")) fail_on_checks(record["name"], record["checks"], "ran, but");
    auto [stable, vol] = split_volatile(record);
    write_file_atomically(o.recording, stable.dump(2) + "\n");
    write_file_atomically(volatile_path(o.recording), vol.dump(2) + "\n");
    std::cout << fmt::format("recorded {} -> {}\n", record["name"].get<std::string>(), o.recording);
    return 0;
}

int cmd_sanitize(const Options& o) {
    std::vector<std::string> argv = {o.sanitizer, "--tool", o.tool, "--error-exitcode", "99"};
    if (o.tool == "racecheck") argv.insert(argv.end(), {"--racecheck-report", "all"});
    argv.insert(argv.end(), o.command.begin(), o.command.end());
    auto r = run_process(argv, {}, o.timeout);
    std::cout << r.out;
    std::cerr << r.err;
    if (r.exit_status == kSkip && !r.timed_out) return kSkip;
    if (r.timed_out || r.signal != 0 || r.exit_status != 0)
        throw Error(fmt::format("compute-sanitizer {} on {} {}", o.tool, o.command.at(0),
                                r.exit_status == 99 ? std::string("found errors")
                                                    : describe_failure(r, o.timeout)));
    std::cout << fmt::format("compute-sanitizer {}: clean\n", o.tool);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"bookrun: runs the book's programs and keeps their run records"};
    app.require_subcommand(1);
    Options o;

    auto* run = app.add_subcommand("run", "run a program live, check it and write its record");
    add_input_options(run, o);
    run->add_option("--out", o.out, "the record to write")->required();
    run->add_option("--depfile", o.depfile, "a Makefile-style list of the run's inputs");
    run->add_option("--timeout", o.timeout, "seconds before the program is killed");
    run->add_option("--provenance", o.provenance, "key=value to add to the provenance");
    run->add_flag("--skip-without-gpu", o.skip_without_gpu, "exit 77 when the program finds no GPU");
    run->add_option("--cuobjdump", o.cuobjdump, "cuobjdump, to record a kernel's SASS");
    run->add_option("--sass-function", o.sass_function, "the kernel whose SASS to record");
    run->add_option("--ncu", o.ncu, "Nsight Compute's ncu, to record metrics");
    run->add_option("--ncu-kernel", o.ncu_kernel, "regex of the kernel to profile");
    run->add_option("--ncu-metrics", o.ncu_metrics, "comma-separated metrics");
    run->add_option("--ncu-labels", o.ncu_labels, "comma-separated names of the profiled launches");
    run->add_option("--ncu-arg", o.ncu_args, "an argument for the profiled run");
    run->footer("The program and its arguments follow `--`.");

    auto* imp = app.add_subcommand("import", "take a committed recording into the build");
    add_input_options(imp, o);
    imp->add_option("--recording", o.recording)->required();
    imp->add_option("--gpu-model", o.gpu_model)->required();
    imp->add_option("--out", o.out)->required();
    imp->add_option("--depfile", o.depfile);

    auto* ver = app.add_subcommand("verify", "check a committed recording: complete, right GPU, fresh, checks hold");
    add_input_options(ver, o);
    ver->add_option("--recording", o.recording)->required();
    ver->add_option("--gpu-model", o.gpu_model)->required();

    auto* save = app.add_subcommand("save", "commit a live record as a recording");
    save->add_option("--record", o.record)->required();
    save->add_option("--recording", o.recording)->required();

    auto* san = app.add_subcommand("sanitize", "run a program under compute-sanitizer");
    san->add_option("--sanitizer", o.sanitizer)->required();
    san->add_option("--tool", o.tool)->required()->check(
        CLI::IsMember({"memcheck", "racecheck", "synccheck", "initcheck"}));
    san->add_option("--timeout", o.timeout);
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
        if (*run) return cmd_run(o);
        if (*imp) return cmd_import(o);
        if (*ver) return cmd_verify(o);
        if (*save) return cmd_save(o);
        if (*san) return cmd_sanitize(o);
        if (*skip) {
            std::cout << "skipped: " << reason << "\n";
            return kSkip;
        }
    } catch (const Error& e) {
        std::cerr << "bookrun: error: " << e.what() << "\n";
        return 1;
    } catch (const std::exception& e) {
        std::cerr << "bookrun: error: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
