/// @file options.hpp
/// @brief Command-line options for the book's programs.
///
/// A thin front for CLI11, which does the parsing in one compiled file of the
/// shared library (code/common/src/options.cpp), so that each program does
/// not compile CLI11's headers again (they cost about 20 s per CUDA file).
#pragma once

#include <climits>
#include <optional>
#include <string>

namespace book {

/// The program's name as its messages print it: argv[0] without its folder
/// ("program" when there is none).
std::string program_name(int argc, char** argv);

/// The options of one program.
///
/// @code
/// book::options opts("Time a branch that splits every warp");
/// bool quick = false;
/// opts.flag("--quick", quick, "small sizes, for compute-sanitizer");
/// if (auto status = opts.parse(argc, argv)) return *status;
/// @endcode
class options {
public:
    /// @param description what the program does, shown by `--help`
    explicit options(std::string description);
    ~options();
    options(const options&) = delete;
    options& operator=(const options&) = delete;

    /// A flag: `name` (like `--quick`) sets `target` to true.
    void flag(const std::string& name, bool& target, const std::string& help);

    /// An integer option, kept within [min, max]; `--help` shows its default.
    void option(const std::string& name, int& target, const std::string& help,
                long long min = INT_MIN, long long max = INT_MAX);

    /// A `long` option (`std::int64_t` on Linux), kept within [min, max].
    void option(const std::string& name, long& target, const std::string& help,
                long long min = LONG_MIN, long long max = LONG_MAX);

    /// A `long long` option, kept within [min, max].
    void option(const std::string& name, long long& target, const std::string& help,
                long long min = LLONG_MIN, long long max = LLONG_MAX);

    /// Parse the command line. Returns nothing when the program should go on,
    /// or the status to exit with now: 0 after printing `--help`, 2 after
    /// printing `<program>: error: <what>` for a bad command line.
    std::optional<int> parse(int argc, char** argv);

private:
    struct impl;
    // Owned: made by the constructor, deleted by the destructor (a plain pointer,
    // so that this header does not include the memory header, which every CUDA file
    // pays for).
    impl* impl_;
};

}  // namespace book
