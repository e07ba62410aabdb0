// bookrun: runs the book's programs and keeps their run records.
// The pieces are split so that tests can reach each one.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace bookrun {

using json = nlohmann::json;

/// An error the user must see: printed as "bookrun: error: <what>".
struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// ---- processes -------------------------------------------------------------

/// At most this much of each stream is kept in memory while a program runs
/// (the rest is counted, not kept): a guard against a runaway program, far
/// above the cap on what a record stores (Schema::stream_bytes).
constexpr std::size_t kCaptureLimit = std::size_t{64} << 20;

struct ProcessResult {
    int exit_status = -1;    ///< exit code when the program exited normally
    int signal = 0;          ///< signal number when it was killed by one
    bool timed_out = false;  ///< killed because it ran past the timeout
    double wall_s = 0.0;
    std::string out, err;
    std::size_t out_dropped = 0, err_dropped = 0;  ///< bytes past kCaptureLimit, not kept
};

/// Runs argv with extra environment variables, capturing stdout and stderr,
/// killing the whole process group after timeout_s seconds.
ProcessResult run_process(const std::vector<std::string>& argv,
                          const std::map<std::string, std::string>& env, double timeout_s);

/// "exited with status 3", "was killed by signal 11 (Segmentation fault)",
/// "timed out after 5 s".
std::string describe_failure(const ProcessResult& r, double timeout_s);

// ---- hashes ------------------------------------------------------------------

/// FNV-1a, 64 bits, as 16 hex digits (the input files' hash).
std::string fnv1a_hex(const std::string& data);

/// SHA-256 as 64 hex digits (the record's digest).
std::string sha256_hex(const std::string& data);

// ---- what a run is given (inputs.cpp) ----------------------------------------

struct InputSpec {
    std::string source_root;               ///< paths in the record are relative to it
    std::string cxx = "c++";               ///< compiler asked for the header closure
    std::vector<std::string> sources;      ///< absolute paths
    std::vector<std::string> lib_sources;  ///< sources of libraries the program links
    std::vector<std::string> include_dirs;
    std::vector<std::string> cuda_archs = {"90"};  ///< __CUDA_ARCH__ passes, as in sm_90
    std::string flags;                             ///< the project's flag identity string
    std::vector<std::string> args;                 ///< the program's arguments
    std::map<std::string, std::string> env;        ///< environment of the run (hashed)
    std::map<std::string, std::string> toolchain;  ///< tool versions this build gives
    /// A folder where header lists are kept between runs (not hashed): a list is
    /// reused while the compiler's command line and every file it named are
    /// unchanged, so the runs of one program ask the compiler once.
    std::string scan_cache;
};

/// Parses repeated KEY=VALUE options into a map; throws Error naming the
/// option on a missing '=', an empty key, or a key given twice.
std::map<std::string, std::string> parse_key_values(const std::vector<std::string>& items,
                                                    const std::string& option);

// ---- the header scan (headers.cpp) -------------------------------------------

/// Parses a Makefile-style dependency list ("out: a b \\\n c") into its prerequisites.
std::vector<std::string> parse_depfile(const std::string& text);

/// Whether p lies inside the folder root (root itself is not inside it).
bool inside_tree(const std::filesystem::path& root, const std::filesystem::path& p);

/// Whether a source is CUDA (.cu, .cuh), which nvcc reads in several passes.
bool is_cuda_source(const std::string& path);

/// What the header scan found for a program's sources.
struct HeaderScan {
    std::set<std::string> files;    ///< the headers inside the source tree
    std::set<std::string> missing;  ///< includes the compiler could not find (-MG)
    bool reused = false;            ///< some list came from spec.scan_cache
};

/// The headers `all` (and, as nvcc's passes see them, `cuda`) include: the host
/// compiler preprocesses every source as C++, the CUDA ones also with __CUDACC__
/// and with __CUDA_ARCH__ for each of spec.cuda_archs; headers outside the
/// source tree (system, CUDA) are left out.
HeaderScan scan_headers(const InputSpec& spec, const std::vector<std::string>& all,
                        const std::vector<std::string>& cuda);

/// "<file>:<line>: cannot find the header ..." for the first quoted include of
/// `files` among `missing`; "" when there is none (a missing <...> include is a
/// system or CUDA header, not an input).
std::string unfound_include(const std::set<std::string>& files,
                            const std::set<std::string>& missing);

// ---- a run's input files and their hash (inputs.cpp) ----------------------------

/// Sources (and library sources) plus the project headers they include, as
/// absolute paths under source_root. A .cu source is preprocessed as C++ three
/// ways (plain, with __CUDACC__, and with __CUDA_ARCH__ for each arch) and the
/// header lists joined, so a header included only for CUDA counts; a header
/// outside the source tree (system, CUDA) does not. A quoted include that no
/// pass can find is an Error naming the file and line that includes it.
std::vector<std::string> input_files(const InputSpec& spec);

/// {"files": {relpath: hash}, "flags": ..., "args": [...], "env": {...},
///  "toolchain": {...}, "hash": ...}. The hash covers files, flags, args and
/// env (what every machine can compute); the toolchain is compared key by key.
json compute_inputs(const InputSpec& spec, const std::vector<std::string>& files);

struct InputDiff {
    std::vector<std::string> changes;       ///< each makes the recording stale
    std::vector<std::string> not_compared;  ///< what this build could not compare
};

/// An argument as it is hashed and recorded: the source root, a machine path,
/// written as <source>.
std::string portable_arg(const std::string& arg, const std::filesystem::path& root);

/// Human-readable differences between two "inputs" objects ("code/x.cu changed").
InputDiff diff_inputs(const json& recorded, const json& current);

// ---- the record schema (book/record-schema.json) --------------------------------

struct Schema {
    std::string path;
    json doc;
    int version = 0;
    std::size_t stream_bytes = 0;
    std::vector<std::string> volatile_provenance, volatile_record, build_only;
    /// The provenance keys a GPU program may report itself (all others are the runner's).
    std::vector<std::string> program_provenance;
    /// "provenance.date" -> a regular expression, "wall_s" -> "positive".
    std::map<std::string, std::string> volatile_formats;
    /// Fields stored as arrays of lines in a recording file ("stdout"), and
    /// objects whose every member is ("texts").
    std::vector<std::string> line_fields, line_objects;
};

/// The schema file next to the sources this bookrun was built from.
std::string default_schema_path();

/// Reads and checks a schema file; throws Error naming it when it is not one.
Schema load_schema(const std::string& path);
Schema parse_schema(const json& doc, const std::string& path);

/// Throws Error naming `where` and the field when the record does not have the
/// schema's shape (a field missing, of the wrong type, or unknown), and naming
/// both versions when the record is of another schema version than the file's.
void validate_record(const json& record, const std::string& where, bool needs_gpu,
                     const Schema& schema);

// ---- what a record shows -------------------------------------------------------

/// The record's canonical JSON: keys sorted, no spaces, UTF-8 as is.
std::string canonical_json(const json& j);

/// "sha256:<hex>" over the record without its digest, volatile and build-only fields.
std::string record_digest(const json& record, const Schema& schema);

/// Throws Error naming `where` when the record's digest is missing or does not
/// match what it shows (an edit by hand): it must be re-recorded.
void check_digest(const json& record, const std::string& where, const Schema& schema);

/// Throws Error naming `what` (e.g. "program ch/x stdout") with the byte offset
/// and line of the first byte that is not valid UTF-8.
void check_utf8(const std::string& text, const std::string& what);

/// Cuts a stream over `cap` bytes back to a line (or character) boundary and
/// ends it with a marker line saying how many bytes were cut. Returns
/// {"bytes_total", "bytes_cut"} when it cut, null when the stream fits.
json cap_stream(std::string& text, std::size_t cap);

// ---- records -----------------------------------------------------------------

/// Folds the JSON lines a program wrote through book::report into a record.
void merge_results(json& record, const std::string& results_text);

/// Reads a checks file strictly: an unknown key, a bound that is not a number,
/// a check with no bound, a missing id or value, a duplicate id are each an
/// Error naming the file, the check and its line. A check may carry "gpus", the
/// GPU models it holds on (names as the device reports them); each must be one
/// of `reference_gpus` (book/gpus.json), or it is an Error at its line.
json read_checks_file(const std::string& path, const std::vector<std::string>& reference_gpus = {});
json parse_checks(const std::string& text, const std::string& path,
                  const std::vector<std::string>& reference_gpus = {});

/// Evaluates checks (as read by read_checks_file) against record["results"].
/// A check scoped to some GPUs ("gpus") is evaluated on a record of another GPU
/// all the same (its value is worth showing), but is marked "not_applicable"
/// with the reason and is never ok: it neither passes nor fails there. A scoped
/// check on a record that names no GPU (provenance gpu_name) is an Error.
json evaluate_checks(const json& checks_file, const json& record);

/// Whether an evaluated check was not applicable to its record's GPU.
bool not_applicable(const json& evaluated_check);

/// The failed checks as readable lines (empty when all passed); a check that
/// was not applicable has not failed.
std::vector<std::string> failed_checks(const json& evaluated);

/// "3 checks passed" or "3 checks passed, 1 not applicable here (scoped to ...)".
std::string passed_summary(const json& evaluated);

/// The line of every value in a JSON text, by JSON pointer ("/checks/0/min").
std::map<std::string, int> json_lines(const std::string& text);

/// Parses a JSON text; throws Error naming path and the line where it is malformed.
json parse_with_lines(const std::string& text, const std::string& path);

/// Reads a JSON file; throws Error naming the file (and line) when it is unreadable or malformed.
json read_json_file(const std::string& path);

/// Reads a whole file; throws Error naming it when it cannot.
std::string read_file(const std::string& path);

/// Writes text to path through a temporary file and a rename, so a reader
/// never sees a half-written file. Creates parent folders.
void write_file_atomically(const std::string& path, const std::string& text);

/// Evaluates checks on every repeat of a record that has "repeats" (each
/// repeat's results over the record's own, such as ncu:*), else on its results:
/// a check is ok only when it holds in every repeat; its value is the median
/// of the repeats' values, and "values" keeps each.
json evaluate_checks_repeated(const json& checks_file, const json& record);

/// The medians of each result over the repeats (every repeat must report the
/// same results, in the same units); throws Error naming the run otherwise.
json median_results(const std::vector<json>& repeat_results, const std::string& name);

/// The repeat whose results lie nearest the medians (the least sum of
/// relative distances): the one whose stdout a record shows.
std::size_t nearest_repeat(const std::vector<json>& repeat_results, const json& medians);

/// The median of a list of numbers (the mean of the middle two for an even count).
double median_of(std::vector<double> v);

/// Throws Error naming the program when it reported provenance the runner owns:
/// a CPU program may report none, a GPU program only schema.program_provenance.
void check_program_provenance(const json& reported, bool gpu, const Schema& schema,
                              const std::string& name);

/// Throws Error naming the file and field when a recording's volatile part is
/// not what the schema's volatile.formats say (a commit, a date, a positive time).
void check_volatile_formats(const json& volatile_part, const std::string& where,
                            const Schema& schema);

/// A recording file's form of a record: stdout, stderr and every text as arrays
/// of lines (recording_lines in the schema), and back.
json to_recording_lines(json stable, const Schema& schema);
json from_recording_lines(json stable, const std::string& where, const Schema& schema);

/// Splits a record into its stable part and its volatile part (as the schema says).
std::pair<json, json> split_volatile(const json& record, const Schema& schema);

/// Joins a recording's stable and volatile parts back into one record.
json join_volatile(json stable, const json& volatile_part);

// ---- the reports a run reads: SASS (sass.cpp), ncu (ncu.cpp), compute-sanitizer (sanitizer.cpp)

/// The SASS of one kernel (cuobjdump -sass): one instruction a line after its
/// address (branch targets refer to addresses), encodings removed. The kernel
/// is named by its mangled name or its identifier; a name that fits two kernels
/// is an Error.
std::string extract_sass(const std::string& cuobjdump_output, const std::string& function);

/// The non-empty items of a comma-separated list (NCU_METRICS, NCU_LABELS).
std::vector<std::string> split_commas(const std::string& s);

/// One ncu --kernel-name filter for several regexes: "regex:(a)|(b)".
std::string ncu_kernel_filter(const std::vector<std::string>& regexes);

/// Parses `ncu --csv` output into {"<label>:<metric>": {value, unit, kernel}},
/// launches in order; with labels, their count must be the launches'.
json parse_ncu_csv(const std::string& csv, const std::vector<std::string>& labels);

/// What a compute-sanitizer report counts. memcheck, synccheck and initcheck
/// end with "ERROR SUMMARY: 3 errors" (no warnings); racecheck ends with
/// "RACECHECK SUMMARY: 100 hazards displayed (1289 errors, 15540 warnings)",
/// and files hazards it cannot prove (between lanes of one warp) as warnings.
struct sanitizer_counts {
    int errors = 0;
    int warnings = 0;
};

/// The counts of a compute-sanitizer report; throws Error when the report has
/// no summary line.
sanitizer_counts sanitizer_summary(const std::string& report);

/// The error count of a compute-sanitizer report (sanitizer_summary().errors).
int sanitizer_errors(const std::string& report);

/// A sanitizer report with what changes from run to run masked: addresses
/// (0x7f...) and the source root's absolute path.
std::string mask_sanitizer_report(const std::string& report, const std::string& source_root);

// ---- provenance (provenance.cpp) ------------------------------------------------

/// The driver version from `nvidia-smi --query-gpu=driver_version
/// --format=csv,noheader` output or /proc/driver/nvidia/version; empty if none.
std::string parse_driver_version(const std::string& text);

// ---- the clocks a measuring run ran under (provenance.cpp) -------------------------

/// One reading of `nvidia-smi --query-gpu=clocks.sm,clocks.mem,
/// clocks_throttle_reasons.active --format=csv,noheader,nounits`: {"sm_mhz",
/// "mem_mhz", "throttle_reasons" (the bitmask as nvidia-smi prints it, "0x...")}.
/// Throws Error quoting the output when it is not one such line.
json parse_clocks(const std::string& output);

/// The reasons in a throttle bitmask that slow the GPU down (NVML's
/// nvmlClocksThrottleReasons): SW power cap (0x4), HW slowdown (0x8), SW thermal
/// slowdown (0x20), HW thermal slowdown (0x40), HW power brake slowdown (0x80), and
/// any bit NVML did not define when this was written, by its value. GPU idle (0x1),
/// the applications clocks setting (0x2), sync boost (0x10) and the display clock
/// setting (0x100) do not slow a running kernel: none of them is named.
std::vector<std::string> slowdown_reasons(std::uint64_t mask);

/// A repeat's clocks as a record keeps them (its volatile "clocks", one per
/// repeat): {"start", "end"} readings and, where either reading names a slowdown
/// reason, "throttled" (the reasons); or {"not_read": why} when a reading failed.
json repeat_clocks(const json& start, const json& end);

/// "repeat 2 of 3 ran while the GPU throttled: SW power cap", one line for each
/// repeat of the record's "clocks" that throttled (none for a record without them).
std::vector<std::string> throttle_notes(const json& record);

/// Throws Error naming `where` when a record's "clocks" say a repeat throttled for
/// other reasons than its readings' bitmasks give (a hand edit).
void check_clocks(const json& clocks, const std::string& where);

/// Reads the clocks of the GPU a run uses with nvidia-smi, under a timeout. A
/// reading that fails (no nvidia-smi, a non-zero exit, a timeout, output that is
/// no reading) is {"not_read": why}, never an error; after a failure, the later
/// readings of the run are not tried and give the same reason.
struct ClockReader {
    std::string nvidia_smi;  ///< a path, or a name looked up on PATH
    std::string device;      ///< nvidia-smi -i: the GPU the run's CUDA device 0 is
    double timeout_s = 10;
    std::string failed;  ///< why a reading failed ("" while none has)
    json read();
};

/// The GPU a run uses, as nvidia-smi -i names it: the first of CUDA_VISIBLE_DEVICES
/// (an index or a UUID), else CTest's resource group's GPU, else 0.
std::string clock_device();

// ---- the command line (cli.cpp) ---------------------------------------------------

/// The runner's command line (cli.cpp): what `bookrun` does with argv; its exit status.
int command_line_main(int argc, char** argv);

}  // namespace bookrun
