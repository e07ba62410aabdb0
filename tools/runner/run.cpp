// `bookrun run`: a program run live, and its record: the repeats' medians and
// the output shown, provenance, the reports of the tools beside it (sanitizer,
// SASS, ncu), the checks and the digest.
#include <unistd.h>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <set>

#include <fmt/format.h>

#include "commands.hpp"
#include "runner.hpp"

namespace fs = std::filesystem;

namespace bookrun {
namespace {

/// Units of measured times and rates: a GPU run reporting one measures.
const std::set<std::string> kTimeUnits = {"s",      "ms",      "us",   "\u00b5s", "ns",
                                          "cycles", "ms/wave", "GB/s", "TB/s",    "Gadd/s"};

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

/// The command as a reader would type it (under the sanitizer when there is one).
json shown_command(const LiveSpec& live, const SanitizerSpec& san) {
    json command = json::array();
    if (!san.sanitizer.empty())
        command = {fs::path(san.sanitizer).filename().string(), "--tool", san.tool};
    command.push_back(fs::path(live.command.at(0)).filename().string());
    for (size_t i = 1; i < live.command.size(); ++i) command.push_back(live.command[i]);
    return command;
}

Launch launch_of(const LiveSpec& live, const SanitizerSpec& san) {
    Launch l;
    l.results = fmt::format("{}.results.{}", live.out, ::getpid());
    l.log = fmt::format("{}.sanitizer.{}", live.out, ::getpid());
    if (fs::path(l.results).has_parent_path())
        fs::create_directories(fs::path(l.results).parent_path());
    l.argv = live.command;
    l.sanitized = !san.sanitizer.empty();
    if (l.sanitized) {
        l.tool = san.tool;
        l.argv = {san.sanitizer, "--tool", san.tool, "--log-file", l.log};
        if (san.tool == "racecheck") l.argv.insert(l.argv.end(), {"--racecheck-report", "all"});
        l.argv.insert(l.argv.end(), live.command.begin(), live.command.end());
    }
    // A program that a sanitizer is expected to catch may fail because of what it caught.
    l.may_fail = l.sanitized && san.expect != "clean";
    return l;
}

/// A GPU run that measures time is scheduled alone and repeated (book_run
/// REPEATS, or profiled by ncu): one that reports a time without saying so
/// would be run beside others, once.
void refuse_unrepeated_times(const RunSpec& run, const json& results) {
    for (auto& [key, r] : results.items())
        if (kTimeUnits.count(r.value("unit", "")) != 0)
            throw Error(fmt::format(
                "program {} reported '{}' in {}, a measured time or rate, but its run "
                "declares no REPEATS: a GPU run that measures declares REPEATS N (book_run "
                "... REPEATS 5), so that it runs alone on a quiet host, N times",
                run.name, key, r.value("unit", "")));
}

/// A measuring run's clocks, one entry a repeat (volatile): each repeat that ran
/// while the GPU throttled is said on stderr, as are clocks that were not read.
void add_clocks(const std::string& name, const std::vector<Attempt>& attempts, json& record) {
    if (attempts.front().clocks.is_null()) return;
    record["clocks"] = json::array();
    for (const auto& a : attempts) record["clocks"].push_back(a.clocks);
    for (const auto& note : throttle_notes(record))
        std::cerr << fmt::format("bookrun: warning: {}: {}\n", name, note);
    std::set<std::string> not_read;
    for (const auto& c : record["clocks"])
        if (c.contains("not_read")) not_read.insert(c["not_read"].get<std::string>());
    for (const auto& why : not_read)
        std::cerr << fmt::format("bookrun: note: {}: the GPU's clocks were not read: {}\n", name,
                                 why);
}

/// What the repeats give the record: the medians of their results, and the
/// output, texts and device provenance of the repeat nearest them.
void add_repeats(const RunSpec& run, const LiveSpec& live, const std::vector<Attempt>& attempts,
                 json& record, const Schema& schema) {
    std::vector<json> per;
    double wall = 0;
    for (const auto& a : attempts) {
        per.push_back(a.reported["results"]);
        wall += a.r.wall_s;
    }
    const json medians = run.repeats > 1 ? median_results(per, run.name) : per.front();
    const std::size_t shown = run.repeats > 1 ? nearest_repeat(per, medians) : 0;
    const Attempt& a = attempts[shown];
    record["exit_status"] = a.r.exit_status;
    store_stream(record, "stdout", a.r.out, a.r.out_dropped,
                 fmt::format("program {} stdout", run.name), schema);
    store_stream(record, "stderr", a.r.err, a.r.err_dropped,
                 fmt::format("program {} stderr", run.name), schema);
    record["wall_s"] = wall;
    record["provenance"] = run_provenance(run.inputs.source_root, run.gpu);
    for (const auto& [k, v] : parse_key_values(live.provenance, "--provenance"))
        record["provenance"][k] = v;
    // What the program reported about its device; the runner's keys are its own
    // (check_program_provenance refused any other).
    for (auto& [k, v] : a.reported["provenance"].items()) record["provenance"][k] = v;
    record["results"] = medians;
    record["texts"] = a.reported["texts"];
    add_clocks(run.name, attempts, record);
    if (run.repeats > 1) {
        record["repeats"] = json::array();
        for (const auto& rr : per) record["repeats"].push_back({{"results", rr}});
        record["shown_repeat"] = shown;
    }
}

/// The sanitizer's report as text sanitizer:<tool>, its counts as results.
void add_sanitizer_report(const RunSpec& run, const SanitizerSpec& san, const std::string& report,
                          json& record) {
    std::string what = fmt::format("compute-sanitizer {} report of {}", san.tool, run.name);
    if (report.empty())
        throw Error(
            fmt::format("{} is empty: {} wrote nothing to its log file", what, san.sanitizer));
    check_utf8(report, what);
    const sanitizer_counts counts = sanitizer_summary(report);
    check_sanitizer_expectation(run.name, san, counts, report);
    record["texts"]["sanitizer:" + san.tool] =
        mask_sanitizer_report(report, run.inputs.source_root);
    record["results"]["sanitizer_errors"] = {{"value", counts.errors}, {"unit", "errors"}};
    record["results"]["sanitizer_warnings"] = {{"value", counts.warnings}, {"unit", "warnings"}};
}

/// The SASS of each --sass-function as text sass:<name>.
void add_sass(const ReportSpec& reports, const std::string& exe, json& record) {
    if (reports.cuobjdump.empty()) throw Error("--sass-function needs --cuobjdump");
    auto d = run_process({reports.cuobjdump, "-sass", exe}, {}, 120);
    if (d.exit_status != 0) throw Error("cuobjdump failed: " + tail_lines(d.err, 5));
    for (const auto& f : reports.sass_functions) {
        if (record["texts"].contains("sass:" + f))
            throw Error(fmt::format("--sass-function {} is given twice", f));
        record["texts"]["sass:" + f] = extract_sass(d.out, f);
    }
}

/// The metrics of the profiled launches, as record "ncu" and results ncu:<label>:<metric>.
void add_ncu(const RunSpec& run, const ReportSpec& reports, const std::string& exe, json& record) {
    if (run.ncu_kernels.empty()) throw Error("--ncu needs at least one --ncu-kernel");
    if (run.ncu_metrics.empty()) throw Error("--ncu needs --ncu-metrics (the metrics to record)");
    // Base units (bytes, not a Mbyte here and a Gbyte there), so that values
    // of different launches compare and divide as they are.
    std::vector<std::string> argv = {reports.ncu,
                                     "--clock-control",
                                     "none",
                                     "--cache-control",
                                     run.ncu_cache_control,
                                     "--print-units",
                                     "base",
                                     "--csv",
                                     "--kernel-name",
                                     ncu_kernel_filter(run.ncu_kernels),
                                     "--metrics",
                                     run.ncu_metrics,
                                     exe};
    argv.insert(argv.end(), run.ncu_args.begin(), run.ncu_args.end());
    auto n = run_process(argv, run.inputs.env, 600);
    if (n.exit_status != 0)
        throw Error(fmt::format("ncu on {} {}:\n{}", run.name, describe_failure(n, 600),
                                tail_lines(n.out + n.err, 15)));
    json metrics;
    try {
        metrics = parse_ncu_csv(n.out, split_commas(run.ncu_labels));
    } catch (const Error& e) {
        throw Error(fmt::format("ncu on {}: {}", run.name, e.what()));
    }
    record["ncu"] = metrics;
    record["ncu_profile"] = ncu_profile(run);
    for (auto& [k, v] : metrics.items())
        if (v["value"].is_number())
            record["results"]["ncu:" + k] = {{"value", v["value"]}, {"unit", v["unit"]}};
}

/// The record checked, digested and written; with a failed check, the evidence
/// is kept beside the record (<out>.failed.json), never in its place.
void finish_record(const RunSpec& run, const LiveSpec& live, json& record,
                   const std::vector<std::string>& files, const Schema& schema) {
    // Every text (the program's, the sanitizer's report, SASS) is kept as its streams are.
    const json texts = record["texts"];
    for (auto& [name, text] : texts.items())
        store_stream(record, "texts." + name, text.get<std::string>(), 0,
                     fmt::format("text '{}' of program {}", name, run.name), schema);
    auto evaluated = apply_checks(run, record);
    // The checks it was made with (none: []): a recording of it is stale once the
    // checks its run declares differ (checks_changes).
    record["checks_declared"] = declared_checks(run);
    record["digest"] = record_digest(record, schema);
    validate_record(record, run.name, run.gpu, schema);
    if (!evaluated.empty() && !failed_checks(evaluated).empty()) {
        write_file_atomically(live.out + ".failed.json", record.dump(2) + "\n");
        fail_on_checks(run.name, evaluated, "ran, but");
    }
    write_file_atomically(live.out, record.dump(2) + "\n");
    std::remove((live.out + ".failed.json").c_str());
    write_depfile(live.depfile, live.out, files);
}

}  // namespace

int cmd_run(const RunSpec& run, const LiveSpec& live, const SanitizerSpec& san,
            const ReportSpec& reports, const Schema& schema) {
    const std::string exe = live.command.at(0);
    if (!san.tool.empty() && san.sanitizer.empty() && live.skip_without_gpu) {
        // A test of a sanitizer run where the toolkit has no compute-sanitizer (and so,
        // as configure made sure, no GPU runs live): nothing to run.
        std::cout << fmt::format("skipped: no compute-sanitizer to run {} under {}\n", run.name,
                                 san.tool);
        return kSkip;
    }
    auto files = input_files(run.inputs);
    json record = {{"schema", schema.version}, {"name", run.name}, {"source", "live"}};
    record["inputs"] = compute_inputs(run.inputs, files);
    record["command"] = shown_command(live, san);
    Launch launch = launch_of(live, san);
    // A GPU run that measures (repeats, or a profile) records the clocks it ran under.
    ClockReader clocks{live.nvidia_smi, clock_device()};
    if (run.gpu && !launch.sanitized && (run.repeats > 1 || !reports.ncu.empty()))
        launch.clocks = &clocks;
    const auto attempts = run_repeats(run, live, launch, schema);
    if (!attempts) return kSkip;
    if (run.gpu && run.repeats == 1 && reports.ncu.empty() && !launch.sanitized)
        refuse_unrepeated_times(run, attempts->front().reported["results"]);
    add_repeats(run, live, *attempts, record, schema);
    if (run.gpu) add_gpu_provenance(live.nvidia_smi, run.name, record);
    if (launch.sanitized) {
        const std::size_t shown = record.value("shown_repeat", std::size_t{0});
        add_sanitizer_report(run, san, (*attempts)[shown].report, record);
    }
    if (!reports.sass_functions.empty()) add_sass(reports, exe, record);
    if (!reports.ncu.empty()) add_ncu(run, reports, exe, record);
    finish_record(run, live, record, files, schema);
    return 0;
}

}  // namespace bookrun
