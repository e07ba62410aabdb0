// bookrun's commands (cli.cpp reads the command line into these and calls them):
// what each is told, split by what it needs.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "runner.hpp"

namespace bookrun {

/// The exit status of a skipped run or test (CTest's SKIP_RETURN_CODE).
constexpr int kSkip = 77;

/// A run as every command that names one is told it: its inputs and its checks.
struct RunSpec {
    std::string name;  ///< <chapter>/<run>
    InputSpec inputs;
    bool gpu = false;
    std::string checks;  ///< the checks file ("" when none)
    /// The book's reference GPUs (book/gpus.json): the names a check's "gpus" may give.
    std::vector<std::string> reference_gpus;
    int repeats = 1;
    /// What book_run declares Nsight Compute records (NCU_METRICS, NCU_LABELS; comma
    /// separated, "" when the run is not profiled): the metrics and launches a live
    /// run profiles (with --ncu), and those a recording must hold: one made for
    /// other metrics or launches is stale.
    std::string ncu_metrics, ncu_labels;
    /// How those launches are profiled (NCU_KERNELS, NCU_ARGS, NCU_CACHE_CONTROL): the
    /// kernels' regexes, the program's arguments for the profiled run, and ncu's
    /// --cache-control (all: flush before each launch; none). A live run records
    /// them (record "ncu_profile"); a recording that holds others is stale, one
    /// made before they were recorded is "not compared".
    std::vector<std::string> ncu_kernels, ncu_args;
    std::string ncu_cache_control = "all";
};

/// A run under compute-sanitizer: the tool and what it must report.
struct SanitizerSpec {
    std::string sanitizer;  ///< compute-sanitizer ("" where the run is not sanitized)
    std::string tool;       ///< memcheck, racecheck, synccheck or initcheck
    std::string expect;     ///< errors, warnings or clean
};

/// The tools a live run records beside the program's own output.
struct ReportSpec {
    std::string cuobjdump;
    std::vector<std::string> sass_functions;
    std::string ncu;  ///< Nsight Compute's ncu: profiles what RunSpec declares
};

/// `bookrun run`: the program, where its record goes, how it is run.
struct LiveSpec {
    std::vector<std::string> command;  ///< the program and its arguments
    std::string out, depfile;
    double timeout = 120;
    std::vector<std::string> provenance;  ///< key=value added to the record's
    std::vector<std::string> varies;      ///< regexes of lines that may differ between runs
    bool skip_without_gpu = false;
    std::string nvidia_smi = "nvidia-smi";
};

/// `bookrun import` and `verify`: the committed recording and the GPU it must be of.
struct RecordingSpec {
    std::string recording, gpu_model;
    std::string out, depfile;  ///< import: the build's record and its inputs list
    /// verify: why the run waits for this GPU (recordings/pending.json), if it does.
    std::string pending;
    /// a stale (or, for verify, missing) recording is this GPU's last, shown as such
    /// (a reference GPU other than the lead, or a pending run), not an error.
    bool stale_ok = false;
    /// import: a stale recording is an error (a release build of the lead GPU's).
    bool refuse_stale = false;
};

/// `bookrun sanitize`: a program under one compute-sanitizer tool, as a test.
struct SanitizeSpec {
    std::string sanitizer, tool;
    double timeout = 120;
    std::map<std::string, std::string> env;
    std::vector<std::string> command;
};

int cmd_run(const RunSpec& run, const LiveSpec& live, const SanitizerSpec& san,
            const ReportSpec& reports, const Schema& schema);
int cmd_import(const RunSpec& run, const SanitizerSpec& san, const RecordingSpec& rec,
               const Schema& schema);
int cmd_verify(const RunSpec& run, const SanitizerSpec& san, const RecordingSpec& rec,
               const Schema& schema);
/// `bookrun check`: the build's own live record of a run (`record`).
int cmd_check(const RunSpec& run, const std::string& record, const Schema& schema);
/// `bookrun save`: a live record becomes a committed recording.
int cmd_save(const std::string& record, const std::string& recording, const Schema& schema);
int cmd_sanitize(const SanitizeSpec& s);
/// `bookrun inputs`: prints what the run's input options give bookrun ("given":
/// sources, library sources, include folders, CUDA architectures, flags identity,
/// toolchain) and, unless given_only, its inputs as a record holds them (files
/// and hash): the one reading of a run's inputs, for the compile database's
/// cross-check (tools/bookpy/inputs/compile_check.py) and for a reader.
int cmd_inputs(const RunSpec& run, bool given_only);

// ---- running a program with repeats (repeats.cpp) ----------------------------------

/// How a live run starts its program: the command line (under compute-sanitizer
/// where the run is sanitized) and the files it reports through.
struct Launch {
    std::vector<std::string> argv;
    std::string results;  ///< $BOOK_RESULTS: what the program reports through book::report
    std::string log;      ///< the sanitizer's report
    bool sanitized = false;
    std::string tool;       ///< the sanitizer's tool, when sanitized
    bool may_fail = false;  ///< the program may exit non-zero: a sanitizer expects to catch it
    /// A measuring GPU run's clocks, read before and after each repeat (null: not read).
    ClockReader* clocks = nullptr;
};

/// One run of the program (a repeat): its process, what it reported, and the
/// sanitizer's report when it ran under one.
struct Attempt {
    ProcessResult r;
    json reported;  ///< {"results", "texts", "provenance"} as the program reported them
    std::string report;
    json clocks;  ///< repeat_clocks() of this repeat, when the run reads them
};

/// The program's repeats (run.repeats fresh processes), each checked: it ran to
/// its end, reported well-formed results and only the provenance it may. A CPU
/// run that measures nothing (one repeat, no sanitizer) is made a second time,
/// and its output must be the same but for the lines that live.varies declares.
/// nullopt when the program found no GPU and live.skip_without_gpu lets it skip.
std::optional<std::vector<Attempt>> run_repeats(const RunSpec& run, const LiveSpec& live,
                                                const Launch& launch, const Schema& schema);

// ---- shared by the commands ------------------------------------------------------

/// What differs between what a record says Nsight Compute profiled (its "ncu"
/// results: "<label>:<metric>"; its "ncu_profile": kernels, arguments, cache
/// control) and what the run declares now: each change makes it stale. A record
/// made before "ncu_profile" existed cannot be compared on those three: that is
/// said (not_compared), not taken for staleness. Nothing where the run declares
/// no metrics.
InputDiff ncu_changes(const json& record, const RunSpec& run);

/// The record's "ncu_profile" for a run that declares these: the kernels'
/// regexes, the profiled run's arguments (machine paths as <source>, as the
/// inputs' arguments) and the cache control.
json ncu_profile(const RunSpec& run);

/// The last n lines of a text (all of it when it has fewer).
std::string tail_lines(const std::string& text, int n);

/// Writes a Makefile-style list of a record's inputs (nothing when depfile is "").
void write_depfile(const std::string& depfile, const std::string& out,
                   const std::vector<std::string>& files);

/// Evaluates the run's checks file (if any) on the record, which keeps them.
json apply_checks(const RunSpec& run, json& record);

/// The checks a run declares now, as a live record keeps them ("checks_declared":
/// the checks file's "checks", each as read): what its recording was made with.
json declared_checks(const RunSpec& run);

/// What differs between the checks a recording was made with ("checks_declared")
/// and those its run declares now (the checks file): a check added, removed or
/// changed makes it stale, naming the file and each check's id. A recording made
/// before "checks_declared" existed is "not compared" on its checks (the build
/// still evaluates the checks declared now on its results).
InputDiff checks_changes(const json& record, const RunSpec& run);

/// Throws Error naming the run and every failed check, when one failed.
void fail_on_checks(const std::string& name, const json& evaluated, const std::string& whence);

/// Throws Error naming the run and the tool when its report's counts are not
/// what the run expects (SanitizerSpec::expect).
void check_sanitizer_expectation(const std::string& name, const SanitizerSpec& san,
                                 const sanitizer_counts& counts, const std::string& report);

/// The record's provenance of where and when it was made (host, date, commit); a
/// CPU run's date is SOURCE_DATE_EPOCH's where the build sets it.
json run_provenance(const std::string& source_root, bool gpu);

/// A GPU run's provenance completed by the runner: the driver's own version
/// (nvidia-smi, else the kernel module's) as driver_version, and the CUDA version
/// the program reported under that name as driver_cuda_version. An Error naming
/// the run when neither tells the driver's version. A CPU record is left as it is.
void add_gpu_provenance(const std::string& nvidia_smi, const std::string& name, json& record);

}  // namespace bookrun
