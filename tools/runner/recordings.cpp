// A run's committed recordings and the build's records of it: `bookrun import`
// and `verify` (a recording, against the sources as they are now), `check` (the
// build's own live record) and `save` (a live record becomes a recording); and
// `inputs`, a run's inputs as bookrun reads them and hashes them.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "runner.hpp"

namespace fs = std::filesystem;

namespace bookrun {
namespace {

std::string volatile_path(const std::string& recording) {
    auto p = recording;
    if (p.size() > 5 && p.compare(p.size() - 5, 5, ".json") == 0) p.resize(p.size() - 5);
    return p + ".volatile.json";
}

/// A volatile part holds only the schema's volatile fields, in their formats.
void check_volatile_part(const json& vol, const std::string& vpath, const Schema& schema) {
    if (!vol.is_object()) throw Error(fmt::format("{}: a JSON object is needed", vpath));
    check_volatile_formats(vol, vpath, schema);
    if (vol.contains("clocks")) check_clocks(vol["clocks"], vpath);
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
}

/// A committed recording read whole (its stable and volatile parts joined), of
/// the schema's shape and unedited (its digest holds).
json read_recording(const RunSpec& run, const RecordingSpec& rec, const Schema& schema) {
    if (!fs::exists(rec.recording))
        throw Error(
            fmt::format("no recording of {} for {}: {} does not exist. Run `tools/book record` "
                        "on a machine with that GPU, or build where the GPU runs live.",
                        run.name, rec.gpu_model, rec.recording));
    auto vpath = volatile_path(rec.recording);
    if (!fs::exists(vpath))
        throw Error(
            fmt::format("{}: the recording's volatile part {} is missing", rec.recording, vpath));
    json stable = from_recording_lines(read_json_file(rec.recording), rec.recording, schema);
    json vol = read_json_file(vpath);
    check_volatile_part(vol, vpath, schema);
    if (stable.is_object())
        for (const auto& k : schema.build_only)
            if (stable.contains(k))
                throw Error(
                    fmt::format("{}: '{}' is added by bookrun import; a recording never "
                                "holds it",
                                rec.recording, k));
    json record = join_volatile(stable, vol);
    validate_record(record, rec.recording, true, schema);
    check_digest(record, rec.recording, schema);
    return record;
}

/// The recording is of this run as it is declared now: its repeats, its name,
/// the book's GPU, and the sanitizer report the run expects.
void check_recording_is_of(const json& record, const RunSpec& run, const SanitizerSpec& san,
                           const RecordingSpec& rec) {
    const std::size_t held = record.contains("repeats") ? record["repeats"].size() : 1;
    if (held != static_cast<std::size_t>(run.repeats))
        throw Error(fmt::format(
            "{}: the recording holds {} repeat{} of {}, but its book_run declares REPEATS {}: "
            "re-record it with `tools/book record`",
            rec.recording, held, held == 1 ? "" : "s", run.name, run.repeats));
    if (record["name"] != run.name)
        throw Error(fmt::format("{}: the recording is of {}, not {}", rec.recording,
                                record["name"].get<std::string>(), run.name));
    auto gpu = record["provenance"]["gpu_name"].get<std::string>();
    if (gpu != rec.gpu_model)
        throw Error(
            fmt::format("{}: the recording was made on a {}, but this book shows the {} "
                        "(BOOK_GPU_MODEL)",
                        rec.recording, gpu, rec.gpu_model));
    if (san.tool.empty()) return;
    const std::string text = "sanitizer:" + san.tool;
    if (!record.value("texts", json::object()).contains(text) ||
        !record["results"].contains("sanitizer_errors"))
        throw Error(
            fmt::format("{}: the recording has no compute-sanitizer {} report (text "
                        "'{}' and result 'sanitizer_errors')",
                        rec.recording, san.tool, text));
    // The counts as the recorded report states them (the report is part of the
    // digest, so it is what the tool printed).
    const std::string report = record["texts"][text].get<std::string>();
    check_sanitizer_expectation(run.name, san, sanitizer_summary(report), report);
}

/// Reads a committed recording and compares it with the sources as they are now.
json load_recording(const RunSpec& run, const SanitizerSpec& san, const RecordingSpec& rec,
                    const Schema& schema, std::vector<std::string>& files) {
    json record = read_recording(run, rec, schema);
    check_recording_is_of(record, run, san, rec);
    files = input_files(run.inputs);
    auto current = compute_inputs(run.inputs, files);
    auto diff = diff_inputs(record["inputs"], current);
    const InputDiff ncu = ncu_changes(record, run);
    diff.changes.insert(diff.changes.end(), ncu.changes.begin(), ncu.changes.end());
    diff.not_compared.insert(diff.not_compared.end(), ncu.not_compared.begin(),
                             ncu.not_compared.end());
    const InputDiff checks = checks_changes(record, run);
    diff.changes.insert(diff.changes.end(), checks.changes.begin(), checks.changes.end());
    diff.not_compared.insert(diff.not_compared.end(), checks.not_compared.begin(),
                             checks.not_compared.end());
    record["stale"] = !diff.changes.empty();
    record["stale_reasons"] = diff.changes;
    record["not_compared"] = diff.not_compared;
    record["source"] = "recording";
    return record;
}

/// "recordings/x/ch/r.json of the NVIDIA H200, recorded at commit c: a.cu changed; b.cu changed".
std::string stale_description(const RecordingSpec& rec, const json& record) {
    return fmt::format("{} (the {}) is stale: recorded at commit {}, and since then {}",
                       rec.recording, rec.gpu_model,
                       record["provenance"]["commit"].get<std::string>(),
                       fmt::join(record["stale_reasons"].get<std::vector<std::string>>(), "; "));
}

}  // namespace

json ncu_profile(const RunSpec& run) {
    const fs::path root = fs::absolute(run.inputs.source_root).lexically_normal();
    json args = json::array();
    for (const auto& a : run.ncu_args) args.push_back(portable_arg(a, root));
    return {{"kernels", run.ncu_kernels}, {"args", args}, {"cache_control", run.ncu_cache_control}};
}

InputDiff ncu_changes(const json& record, const RunSpec& run) {
    InputDiff out;
    if (run.ncu_metrics.empty()) return out;
    std::set<std::string> metrics, labels;
    const json recorded = record.value("ncu", json::object());
    for (const auto& [key, v] : recorded.items()) {
        const auto colon = key.find(':');
        if (colon == std::string::npos) continue;
        labels.insert(key.substr(0, colon));
        metrics.insert(key.substr(colon + 1));
    }
    auto text = [](const std::set<std::string>& s) {
        return s.empty() ? std::string("none") : fmt::format("{}", fmt::join(s, ", "));
    };
    auto as_set = [](const std::vector<std::string>& v) {
        return std::set<std::string>(v.begin(), v.end());
    };
    const auto want_metrics = as_set(split_commas(run.ncu_metrics));
    if (metrics != want_metrics)
        out.changes.push_back(
            fmt::format("Nsight Compute's metrics changed (recorded: {}; declared: {})",
                        text(metrics), text(want_metrics)));
    if (!run.ncu_labels.empty()) {
        const auto want_labels = as_set(split_commas(run.ncu_labels));
        if (labels != want_labels)
            out.changes.push_back(
                fmt::format("the profiled launches changed (recorded: {}; declared: {})",
                            text(labels), text(want_labels)));
    }
    // How the launches were profiled: recorded since "ncu_profile" exists.
    if (!record.contains("ncu_profile")) {
        out.not_compared.push_back(
            "Nsight Compute's kernels, arguments and cache control (the recording was made "
            "before they were recorded)");
        return out;
    }
    const json& had = record["ncu_profile"];
    const json now = ncu_profile(run);
    // The kernels' regexes form one filter: their order does not matter.
    const auto had_kernels = as_set(had.value("kernels", std::vector<std::string>{}));
    const auto want_kernels = as_set(run.ncu_kernels);
    if (had_kernels != want_kernels)
        out.changes.push_back(
            fmt::format("the kernels Nsight Compute profiles changed (recorded: {}; declared: {})",
                        text(had_kernels), text(want_kernels)));
    if (had.value("args", json::array()) != now["args"])
        out.changes.push_back(
            fmt::format("the profiled run's arguments changed (recorded {}, declared {})",
                        had.value("args", json::array()).dump(), now["args"].dump()));
    if (had.value("cache_control", std::string{}) != now["cache_control"].get<std::string>())
        out.changes.push_back(
            fmt::format("Nsight Compute's cache control changed (recorded {}, declared {})",
                        had.value("cache_control", ""), run.ncu_cache_control));
    return out;
}

int cmd_import(const RunSpec& run, const SanitizerSpec& san, const RecordingSpec& rec,
               const Schema& schema) {
    std::vector<std::string> files;
    json record = load_recording(run, san, rec, schema, files);
    const bool stale = record["stale"].get<bool>();
    if (stale && rec.refuse_stale)
        throw Error(fmt::format(
            "a release build shows only fresh recordings of the lead GPU, but {}. Record it "
            "on that GPU (`tools/book record`), or build without --release",
            stale_description(rec, record)));
    auto evaluated = apply_checks(run, record);
    // A stale recording of a GPU that may lag (another reference GPU, a pending
    // run) is shown as the last of that GPU, under its note; its checks were made
    // for an older program, and are neither enforced nor counted.
    if (!(stale && rec.stale_ok)) fail_on_checks(run.name, evaluated, "is recorded, but");
    for (const auto& n : record["not_compared"])
        std::cerr << fmt::format("bookrun: note: {}: not compared: {}\n", run.name,
                                 n.get<std::string>());
    if (record["stale"].get<bool>()) {
        std::cerr << fmt::format(
            "bookrun: warning: the recording of {} is stale (recorded at {}): {}\n", run.name,
            record["provenance"]["commit"].get<std::string>(),
            fmt::format("{}",
                        fmt::join(record["stale_reasons"].get<std::vector<std::string>>(), "; ")));
    }
    write_file_atomically(rec.out, record.dump(2) + "\n");
    files.push_back(fs::absolute(rec.recording).string());
    files.push_back(fs::absolute(volatile_path(rec.recording)).string());
    write_depfile(rec.depfile, rec.out, files);
    return 0;
}

int cmd_verify(const RunSpec& run, const SanitizerSpec& san, const RecordingSpec& rec,
               const Schema& schema) {
    // A run that waits for this GPU, or a GPU whose recordings may lag: a missing
    // or stale recording is reported skipped (never passed), with the reason.
    const std::string waits =
        rec.pending.empty() ? "" : "pending (recordings/pending.json: " + rec.pending + "): ";
    if ((rec.stale_ok || !rec.pending.empty()) && !fs::exists(rec.recording)) {
        std::cout << fmt::format("skipped: {}{} has never been recorded on the {} ({})\n", waits,
                                 run.name, rec.gpu_model, rec.recording);
        return kSkip;
    }
    std::vector<std::string> files;
    json record = load_recording(run, san, rec, schema, files);
    const bool stale = record["stale"].get<bool>();
    if (stale && (rec.stale_ok || !rec.pending.empty())) {
        std::cout << fmt::format("skipped: {}{}; its checks are not counted\n", waits,
                                 stale_description(rec, record));
        return kSkip;
    }
    if (!rec.pending.empty())
        throw Error(fmt::format(
            "{} is declared pending on the {} (recordings/pending.json: {}), but its recording "
            "{} is fresh: take the {} off its entry in recordings/pending.json",
            run.name, rec.gpu_model, rec.pending, rec.recording, rec.gpu_model));
    auto evaluated = apply_checks(run, record);
    fail_on_checks(run.name, evaluated, "is recorded, but");
    if (stale) {
        std::string msg = fmt::format(
            "the recording of {} is stale: its inputs changed since it was "
            "recorded at commit {}:",
            run.name, record["provenance"]["commit"].get<std::string>());
        for (const auto& c : record["stale_reasons"]) msg += "\n  " + c.get<std::string>();
        for (const auto& c : record["not_compared"])
            msg += "\n  (not compared: " + c.get<std::string>() + ")";
        msg += "\nRe-record it on a GPU machine with `tools/book record`.";
        throw Error(msg);
    }
    std::cout << fmt::format(
        "{}: recording is fresh ({} on {}, commit {}); {}{}{}\n", run.name,
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
int cmd_check(const RunSpec& run, const std::string& record_path, const Schema& schema) {
    if (!fs::exists(record_path))
        throw Error(fmt::format("{}: no record of {}: the build did not run it (build first)",
                                record_path, run.name));
    json record = read_json_file(record_path);
    validate_record(record, record_path, run.gpu, schema);
    check_digest(record, record_path, schema);
    if (record.value("source", "") != "live")
        throw Error(fmt::format("{}: the build took {} from a recording; it ran nothing live",
                                record_path, run.name));
    if (record["name"] != run.name)
        throw Error(fmt::format("{}: the record is of {}, not {}", record_path,
                                record["name"].get<std::string>(), run.name));
    const std::size_t held = record.contains("repeats") ? record["repeats"].size() : 1;
    if (held != static_cast<std::size_t>(run.repeats))
        throw Error(fmt::format("{}: the record holds {} repeats, but book_run declares {}",
                                record_path, held, run.repeats));
    auto diff = diff_inputs(record["inputs"], compute_inputs(run.inputs, input_files(run.inputs)));
    for (auto& why : ncu_changes(record, run).changes) diff.changes.push_back(std::move(why));
    for (auto& why : checks_changes(record, run).changes) diff.changes.push_back(std::move(why));
    if (!diff.changes.empty()) {
        std::string msg =
            fmt::format("{}: the record of {} is older than its inputs:", record_path, run.name);
        for (const auto& c : diff.changes) msg += "\n  " + c;
        throw Error(msg + "\nbuild again");
    }
    auto evaluated = apply_checks(run, record);
    fail_on_checks(run.name, evaluated, "ran, but");
    std::cout << fmt::format("{}: the build's live record ({} repeat{}): {}\n", run.name, held,
                             held == 1 ? "" : "s", passed_summary(evaluated));
    return 0;
}

int cmd_save(const std::string& record_path, const std::string& recording, const Schema& schema) {
    json record = read_json_file(record_path);
    validate_record(record, record_path, true, schema);
    if (record.value("source", "") != "live")
        throw Error(fmt::format("{}: only a live record can become a recording", record_path));
    if (record.contains("checks")) fail_on_checks(record["name"], record["checks"], "ran, but");
    check_digest(record, record_path, schema);
    for (const auto& k : schema.build_only)
        if (record.contains(k))
            throw Error(fmt::format("{}: '{}' is added by bookrun import: not a live record",
                                    record_path, k));
    auto [stable, vol] = split_volatile(record, schema);
    check_volatile_formats(vol, record_path, schema);
    write_file_atomically(recording, to_recording_lines(stable, schema).dump(2) + "\n");
    write_file_atomically(volatile_path(recording), vol.dump(2) + "\n");
    std::cout << fmt::format("recorded {} -> {}\n", record["name"].get<std::string>(), recording);
    return 0;
}

int cmd_inputs(const RunSpec& run, bool given_only) {
    const InputSpec& in = run.inputs;
    json out = {{"given",
                 {{"sources", in.sources},
                  {"lib_sources", in.lib_sources},
                  {"include_dirs", in.include_dirs},
                  {"cuda_archs", in.cuda_archs},
                  {"flags", in.flags},
                  {"toolchain", in.toolchain}}}};
    if (!given_only) out["inputs"] = compute_inputs(in, input_files(in));
    std::cout << out.dump(2) << "\n";
    return 0;
}

}  // namespace bookrun
