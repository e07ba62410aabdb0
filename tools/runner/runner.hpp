// bookrun: runs the book's programs and keeps their run records.
// The pieces are split so that tests can reach each one.
#pragma once

#include <chrono>
#include <map>
#include <optional>
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

struct ProcessResult {
    int exit_status = -1;    ///< exit code when the program exited normally
    int signal = 0;          ///< signal number when it was killed by one
    bool timed_out = false;  ///< killed because it ran past the timeout
    double wall_s = 0.0;
    std::string out, err;
};

/// Runs argv with extra environment variables, capturing stdout and stderr,
/// killing the whole process group after timeout_s seconds.
ProcessResult run_process(const std::vector<std::string>& argv,
                          const std::map<std::string, std::string>& env, double timeout_s);

/// "exited with status 3", "was killed by signal 11 (Segmentation fault)",
/// "timed out after 5 s".
std::string describe_failure(const ProcessResult& r, double timeout_s);

// ---- inputs and their hash -------------------------------------------------

struct InputSpec {
    std::string source_root;                ///< paths in the record are relative to it
    std::string cxx = "c++";                ///< compiler asked for the header closure
    std::vector<std::string> sources;       ///< absolute paths
    std::vector<std::string> include_dirs;
    std::string flags;                      ///< the project's flag identity string
    std::vector<std::string> args;          ///< the program's arguments
};

/// FNV-1a, 64 bits, as 16 hex digits.
std::string fnv1a_hex(const std::string& data);

/// Parses a Makefile-style dependency list ("out: a b \\\n c") into its prerequisites.
std::vector<std::string> parse_depfile(const std::string& text);

/// Sources plus the project headers they include (from the compiler's -MM
/// dependency output), as absolute paths, limited to files under source_root.
std::vector<std::string> input_files(const InputSpec& spec);

/// {"files": {relpath: hash}, "flags": ..., "args": [...], "hash": ...}
json compute_inputs(const InputSpec& spec, const std::vector<std::string>& files);

/// Human-readable differences between two "inputs" objects ("code/x.cu changed").
std::vector<std::string> diff_inputs(const json& recorded, const json& current);

// ---- records -----------------------------------------------------------------

/// Folds the JSON lines a program wrote through book::report into a record.
void merge_results(json& record, const std::string& results_text);

/// Evaluates a checks file against record["results"]; returns one entry per check.
json evaluate_checks(const json& checks_file, const json& record);

/// The failed checks as readable lines (empty when all passed).
std::vector<std::string> failed_checks(const json& evaluated);

/// Throws Error naming the file when a required field is missing or of the wrong type.
void validate_record(const json& record, const std::string& where, bool needs_gpu);

/// Reads a JSON file; throws Error naming the file (and line) when it is unreadable or malformed.
json read_json_file(const std::string& path);

/// Writes text to path through a temporary file and a rename, so a reader
/// never sees a half-written file. Creates parent folders.
void write_file_atomically(const std::string& path, const std::string& text);

/// The fields that change on every run, kept in <name>.volatile.json.
extern const std::vector<std::string> kVolatileProvenance;

/// Splits a record into its stable part and its volatile part.
std::pair<json, json> split_volatile(const json& record);

/// Joins a recording's stable and volatile parts back into one record.
json join_volatile(json stable, const json& volatile_part);

// ---- tools -------------------------------------------------------------------

/// The SASS of one kernel (cuobjdump -sass): one instruction a line after its
/// address (branch targets refer to addresses), encodings removed.
std::string extract_sass(const std::string& cuobjdump_output, const std::string& function);

/// Parses `ncu --csv` output into {"<label>:<metric>": {value, unit}}.
json parse_ncu_csv(const std::string& csv, const std::vector<std::string>& labels);

}  // namespace bookrun
