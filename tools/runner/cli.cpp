// bookrun: the book's program runner, its command line (main.cpp calls
// bookrun::command_line_main; the runner is one translation unit: CMakeLists.txt).
//
//   bookrun run     ... -- <program> <args>   run live, check, write the record (run.cpp)
//   bookrun import  ...                       take a committed recording into the build
//   bookrun verify  ...                       check a committed recording (a test)
//   bookrun check   ... --record R            check the build's live record (a test)
//   bookrun save    --record R --recording P  commit a live record as a recording
//                                             (those four: recordings.cpp)
//   bookrun sanitize --sanitizer S --tool T -- <program> <args>   (sanitizer.cpp)
//   bookrun inputs  ...                       print a run's inputs and their hash
//   bookrun skip <reason>                     report a skipped test (exit 77)
#include <iostream>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "runner.hpp"

using namespace bookrun;

namespace {

const std::vector<std::string> kSanitizerTools = {"memcheck", "racecheck", "synccheck",
                                                  "initcheck"};

/// Everything the command line can say; each command is given the parts it needs.
struct CommandLine {
    RunSpec run;
    SanitizerSpec san;
    ReportSpec reports;
    LiveSpec live;
    RecordingSpec rec;
    SanitizeSpec sanitize;
    std::string record;  ///< check, save: the build's live record
    std::string schema_path;
    std::vector<std::string> env_items, toolchain_items;
    std::string skip_reason;
    bool given_only = false;  ///< inputs: no header scan, no hash
};

void add_schema_option(CLI::App* app, std::string& path) {
    app->add_option(
        "--schema", path,
        "the record schema (book/record-schema.json); default: " + default_schema_path());
}

void add_input_options(CLI::App* app, CommandLine& c) {
    RunSpec& r = c.run;
    app->add_option("--name", r.name, "run name, <chapter>/<run>")->required();
    app->add_option("--source-root", r.inputs.source_root, "the book's source folder")->required();
    app->add_option("--cxx", r.inputs.cxx, "host C++ compiler, asked for header lists");
    app->add_option("--source", r.inputs.sources, "a source file of the program (repeatable)");
    app->add_option("--lib-source", r.inputs.lib_sources,
                    "a source of a library the program links, hashed like --source (repeatable)");
    app->add_option("--include-dir", r.inputs.include_dirs, "an include folder (repeatable)");
    app->add_option("--scan-cache", r.inputs.scan_cache,
                    "a folder where header lists are kept for the next run of the same "
                    "sources (reused while every file they name is unchanged; not hashed)");
    app->add_option("--cuda-arch", r.inputs.cuda_archs,
                    "a CUDA architecture the .cu sources are built for, as in 90 (repeatable; "
                    "default 90): headers are listed as __CUDA_ARCH__=<arch>0 sees them");
    app->add_option("--flags", r.inputs.flags, "the flags identity string");
    app->add_option("--arg", r.inputs.args, "an argument of the run (hashed)");
    app->add_option("--env", c.env_items,
                    "K=V: an environment variable of the run, set for the program and hashed "
                    "into its inputs as \"env\" (repeatable)");
    app->add_option("--toolchain", c.toolchain_items,
                    "KEY=VERSION, e.g. nvcc=13.0.88: a tool version the build gives, part of the "
                    "inputs; a recording's is compared only where this build gives the key "
                    "(repeatable)");
    app->add_flag("--gpu", r.gpu, "a GPU program: its record needs GPU provenance");
    app->add_option("--checks", r.checks, "the run's expectations (JSON)");
    app->add_option("--reference-gpu", r.reference_gpus,
                    "a reference GPU of the book, as the device names it (book/gpus.json; "
                    "repeatable): a check's \"gpus\" may name only these");
    app->add_option("--repeats", r.repeats,
                    "how many times the run is made, each a fresh process (book_run REPEATS): "
                    "the record keeps every repeat's results, its results are their medians, "
                    "and every check must hold in every repeat; a recording must hold as many")
        ->check(CLI::Range(1, 99));
    app->add_option("--ncu-metrics", r.ncu_metrics,
                    "the metrics book_run declares Nsight Compute records (comma separated): "
                    "what a live run profiles (run --ncu), and what a recording must hold (one "
                    "that holds others is stale)");
    app->add_option("--ncu-labels", r.ncu_labels,
                    "the profiled launches' labels book_run declares (comma separated, in launch "
                    "order; results ncu:<label>:<metric>): a recording that names others is "
                    "stale");
    app->add_option("--ncu-kernel", r.ncu_kernels,
                    "regex of kernels Nsight Compute profiles (repeatable: every matching launch "
                    "is profiled, in one ncu run, in launch order); a recording of others is "
                    "stale");
    app->add_option("--ncu-arg", r.ncu_args,
                    "an argument of the profiled run (repeatable); a recording made with others "
                    "is stale");
    app->add_option("--ncu-cache-control", r.ncu_cache_control,
                    "all: ncu flushes the caches before each profiled launch (its default); "
                    "none: each launch meets the caches as the launches before it left them; a "
                    "recording made with the other is stale")
        ->check(CLI::IsMember({"all", "none"}));
    add_schema_option(app, c.schema_path);
}

void add_sanitizer_expectation(CLI::App* app, SanitizerSpec& s) {
    app->add_option("--sanitizer-tool", s.tool, "the compute-sanitizer tool")
        ->check(CLI::IsMember(kSanitizerTools));
    app->add_option("--sanitizer-expect", s.expect,
                    "errors: the tool must report at least one error; warnings: at least one "
                    "error or warning (racecheck's hazards within a warp); clean: neither")
        ->check(CLI::IsMember({"errors", "warnings", "clean"}));
}

/// What the help says of records: their streams' cap (as the default schema
/// states it; runs read --schema) and their digest.
std::string records_note() {
    std::string cap = "limits.stream_bytes of the schema";
    try {
        cap = fmt::format("{} bytes (limits.stream_bytes of {})",
                          load_schema(default_schema_path()).stream_bytes, default_schema_path());
    } catch (const std::exception&) {}
    return fmt::format(
        "Records: a program's stdout, stderr and texts (its own, a sanitizer's report, SASS) "
        "must be valid UTF-8, and are stored up to {} each; beyond that the stored stream ends "
        "with a marker line "
        "saying how many bytes were cut, and the record's \"truncated\" says so. A record "
        "carries a digest of what it shows; verify, import and save refuse one that does not "
        "match it.",
        cap);
}

void add_report_options(CLI::App* run, ReportSpec& r) {
    run->add_option("--cuobjdump", r.cuobjdump, "cuobjdump, to record kernels' SASS");
    run->add_option("--sass-function", r.sass_functions,
                    "a kernel whose SASS to record as text sass:<name> (repeatable)");
    run->add_option("--ncu", r.ncu,
                    "Nsight Compute's ncu, to record the metrics --ncu-metrics declares");
}

CLI::App* add_run_command(CLI::App& app, CommandLine& c, const std::string& note) {
    auto* run = app.add_subcommand("run", "run a program live, check it and write its record");
    LiveSpec& l = c.live;
    add_input_options(run, c);
    run->add_option("--out", l.out, "the record to write")->required();
    run->add_option("--depfile", l.depfile, "a Makefile-style list of the run's inputs");
    run->add_option("--timeout", l.timeout, "seconds before the program is killed (each repeat)");
    run->add_option("--provenance", l.provenance, "key=value to add to the provenance");
    run->add_option("--varies", l.varies,
                    "an ECMAScript regex of the output lines that may differ between two runs "
                    "of a CPU program (book_run VARIES; repeatable): a CPU run is made twice, "
                    "and any other difference in its stdout, stderr, texts or results is an "
                    "error");
    run->add_flag("--skip-without-gpu", l.skip_without_gpu,
                  "exit 77 when the program finds no GPU");
    run->add_option("--nvidia-smi", l.nvidia_smi,
                    "nvidia-smi, asked for the driver version of a GPU run (default: from PATH)");
    add_report_options(run, c.reports);
    run->add_option("--sanitizer", c.san.sanitizer,
                    "compute-sanitizer: run the program under it (with --sanitizer-tool and "
                    "--sanitizer-expect); stdout stays the program's, the report becomes text "
                    "sanitizer:<tool>, its error count result sanitizer_errors");
    add_sanitizer_expectation(run, c.san);
    run->footer("The program and its arguments follow `--`.\n\n" + note);
    return run;
}

/// import and verify: a committed recording of the run, for the book's GPU.
CLI::App* add_recording_command(CLI::App& app, CommandLine& c, const std::string& name,
                                const std::string& what) {
    auto* cmd = app.add_subcommand(name, what);
    add_input_options(cmd, c);
    add_sanitizer_expectation(cmd, c.san);
    cmd->add_option("--recording", c.rec.recording)->required();
    cmd->add_option("--gpu-model", c.rec.gpu_model)->required();
    return cmd;
}

CLI::App* add_check_command(CLI::App& app, CommandLine& c) {
    auto* chk = app.add_subcommand(
        "check", "check the build's live record of a run: unedited, current, checks hold");
    add_input_options(chk, c);
    add_sanitizer_expectation(chk, c.san);
    chk->add_option("--record", c.record, "the build's record")->required();
    return chk;
}

CLI::App* add_save_command(CLI::App& app, CommandLine& c) {
    auto* save = app.add_subcommand("save", "commit a live record as a recording");
    save->add_option("--record", c.record)->required();
    save->add_option("--recording", c.rec.recording)->required();
    add_schema_option(save, c.schema_path);
    return save;
}

CLI::App* add_sanitize_command(CLI::App& app, CommandLine& c) {
    auto* san = app.add_subcommand("sanitize", "run a program under compute-sanitizer (a test)");
    san->add_option("--sanitizer", c.sanitize.sanitizer)->required();
    san->add_option("--tool", c.sanitize.tool)->required()->check(CLI::IsMember(kSanitizerTools));
    san->add_option("--timeout", c.sanitize.timeout);
    san->add_option("--env", c.env_items, "K=V: an environment variable of the run (repeatable)");
    san->footer("The program and its arguments follow `--`.");
    return san;
}

/// Options that hang together, checked before anything runs.
void check_options(const CommandLine& c, bool running) {
    const SanitizerSpec& s = c.san;
    if (running && !s.sanitizer.empty() && (s.tool.empty() || s.expect.empty()))
        throw Error("--sanitizer needs --sanitizer-tool and --sanitizer-expect");
    if (s.sanitizer.empty() && running && !s.tool.empty() && !c.live.skip_without_gpu)
        throw Error("--sanitizer-tool needs --sanitizer (the compute-sanitizer to run)");
    if (!s.tool.empty() && s.expect.empty())
        throw Error("--sanitizer-tool needs --sanitizer-expect errors|clean");
    if (!s.expect.empty() && s.tool.empty())
        throw Error("--sanitizer-expect needs --sanitizer-tool");
    if (running && c.reports.ncu.empty() && !c.run.ncu_kernels.empty())
        throw Error("--ncu-kernel needs --ncu (Nsight Compute's ncu)");
    if (running && c.run.repeats > 1 && !s.sanitizer.empty())
        throw Error("--repeats is for runs that measure; a sanitized run is made once");
    if (running && !c.reports.ncu.empty() && !s.sanitizer.empty())
        throw Error("a run is either profiled (--ncu) or sanitized (--sanitizer), not both");
}

CLI::App* add_inputs_command(CLI::App& app, CommandLine& c) {
    auto* inp = app.add_subcommand(
        "inputs", "print a run's inputs as bookrun reads them, and their hash (JSON)");
    add_input_options(inp, c);
    inp->add_flag("--given-only", c.given_only,
                  "only what the options give (no header scan, no files, no hash)");
    return inp;
}

/// The subcommands, as CLI11 parsed them.
struct Commands {
    CLI::App *run, *imp, *ver, *chk, *save, *san, *skip, *inp;
};

int dispatch(CommandLine& c, const Commands& cmd) {
    c.run.inputs.env = parse_key_values(c.env_items, "--env");
    c.run.inputs.toolchain = parse_key_values(c.toolchain_items, "--toolchain");
    if (*cmd.skip) {
        std::cout << "skipped: " << c.skip_reason << "\n";
        return kSkip;
    }
    if (*cmd.san) {
        c.sanitize.env = c.run.inputs.env;
        return cmd_sanitize(c.sanitize);
    }
    if (*cmd.inp) return cmd_inputs(c.run, c.given_only);
    check_options(c, cmd.run->parsed());
    Schema schema = load_schema(c.schema_path.empty() ? default_schema_path() : c.schema_path);
    if (*cmd.run) return cmd_run(c.run, c.live, c.san, c.reports, schema);
    if (*cmd.imp) return cmd_import(c.run, c.san, c.rec, schema);
    if (*cmd.ver) return cmd_verify(c.run, c.san, c.rec, schema);
    if (*cmd.chk) return cmd_check(c.run, c.record, schema);
    if (*cmd.save) return cmd_save(c.record, c.rec.recording, schema);
    return 0;
}

}  // namespace

int bookrun::command_line_main(int argc, char** argv) {
    CLI::App app{"bookrun: runs the book's programs and keeps their run records"};
    app.require_subcommand(1);
    const std::string note = records_note();
    app.footer(note);
    CommandLine c;
    Commands cmd{};
    cmd.run = add_run_command(app, c, note);
    cmd.imp = add_recording_command(app, c, "import", "take a committed recording into the build");
    cmd.imp->add_option("--out", c.rec.out)->required();
    cmd.imp->add_option("--depfile", c.rec.depfile);
    cmd.imp->add_flag("--stale-ok", c.rec.stale_ok,
                      "a stale recording is imported as this GPU's last, its checks evaluated but "
                      "not enforced (another reference GPU than the lead, or a pending run)");
    cmd.imp->add_flag("--refuse-stale", c.rec.refuse_stale,
                      "a stale recording is an error (a release build, for the lead GPU)");
    cmd.ver = add_recording_command(
        app, c, "verify",
        "check a committed recording: complete, unedited, right GPU, fresh, checks hold");
    cmd.ver->add_option("--pending", c.rec.pending,
                        "why the run waits for this GPU (recordings/pending.json): a missing or "
                        "stale recording is reported skipped (exit 77), a fresh one is an error");
    cmd.ver->add_flag("--stale-ok", c.rec.stale_ok,
                      "a GPU whose recordings may lag (a reference GPU other than the lead): a "
                      "missing or stale recording is reported skipped (exit 77), a fresh one "
                      "verified");
    cmd.chk = add_check_command(app, c);
    cmd.save = add_save_command(app, c);
    cmd.san = add_sanitize_command(app, c);
    cmd.inp = add_inputs_command(app, c);
    cmd.skip = app.add_subcommand("skip", "report a skipped test");
    cmd.skip->add_option("reason", c.skip_reason)->required();

    // Everything after the first "--" is the program to run, untouched by CLI11.
    int own = argc;
    for (int i = 1; i < argc; ++i)
        if (std::string(argv[i]) == "--") {
            own = i;
            c.live.command.assign(argv + i + 1, argv + argc);
            break;
        }
    c.sanitize.command = c.live.command;
    CLI11_PARSE(app, own, argv);
    if ((*cmd.run || *cmd.san) && c.live.command.empty()) {
        std::cerr << "bookrun: error: give the program to run after `--`\n";
        return 2;
    }
    try {
        return dispatch(c, cmd);
    } catch (const std::exception& e) {
        std::cerr << "bookrun: error: " << e.what() << "\n";
        return 1;
    }
}
