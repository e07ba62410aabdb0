// The C++ port of divergence.py against the Python original's outputs.
//
// golden/variations.json lists each variation once: the port's arguments and
// the equivalent edits of the Python script. tools/bookpy/build/seed_golden.py ran the
// edited scripts and wrote golden/<name>.txt; this test runs the built
// `divergence` (DIVERGENCE_EXE) with the arguments and compares its standard
// output with the golden file byte for byte.
#include <catch2/catch.hpp>

#include <array>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <sys/wait.h>

#include <nlohmann/json.hpp>

#ifndef DIVERGENCE_EXE
#error "DIVERGENCE_EXE must name the built divergence program"
#endif
#ifndef GOLDEN_DIR
#error "GOLDEN_DIR must name tests/ch01-execution-model/golden"
#endif

namespace {

/// A file's bytes; fails the test when it cannot be read.
std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    INFO("reading " << path);
    REQUIRE(in.good());
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// One argument quoted for the POSIX shell.
std::string shell_quote(const std::string& arg) {
    std::string quoted = "'";
    for (char c : arg) {
        if (c == '\'')
            quoted += "'\\''";
        else
            quoted += c;
    }
    return quoted + "'";
}

/// What a command printed, and how it ended.
struct Outcome {
    std::string output;
    int exit_code = -1;  ///< -1 when it did not exit normally.
};

/// Runs `divergence` with `args` through the shell; `redirect` is appended
/// to the command line (to choose which streams are captured).
Outcome run_divergence(const std::vector<std::string>& args, const std::string& redirect) {
    std::string command = shell_quote(DIVERGENCE_EXE);
    for (const std::string& a : args) command += " " + shell_quote(a);
    command += " " + redirect;
    INFO("command: " << command);
    FILE* pipe = popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    Outcome outcome;
    std::array<char, 4096> buffer{};
    std::size_t n = 0;
    while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) {
        outcome.output.append(buffer.data(), n);
    }
    const int status = pclose(pipe);
    if (status != -1 && WIFEXITED(status)) outcome.exit_code = WEXITSTATUS(status);
    return outcome;
}

std::string joined(const std::vector<std::string>& args) {
    std::string s;
    for (const std::string& a : args) s += (s.empty() ? "" : " ") + a;
    return s.empty() ? "(no arguments)" : s;
}

/// The 1-based number of the first line where two texts differ (0 if equal).
int first_differing_line(const std::string& a, const std::string& b) {
    std::istringstream sa(a), sb(b);
    std::string la, lb;
    for (int line = 1;; ++line) {
        const bool more_a = static_cast<bool>(std::getline(sa, la));
        const bool more_b = static_cast<bool>(std::getline(sb, lb));
        if (!more_a && !more_b) return a == b ? 0 : line;  // e.g. a missing final newline
        if (more_a != more_b || la != lb) return line;
    }
}

}  // namespace

TEST_CASE("the port prints what divergence.py prints, for every variation", "[ch01][port]") {
    const std::string golden_dir = GOLDEN_DIR;
    const auto variations = nlohmann::json::parse(read_file(golden_dir + "/variations.json"));
    REQUIRE(variations.is_array());

    std::set<std::string> names;
    for (const auto& v : variations) {
        const std::string name = v.at("name").get<std::string>();
        const auto args = v.at("args").get<std::vector<std::string>>();
        names.insert(name);
        DYNAMIC_SECTION("variation " << name << ": " << joined(args)) {
            const std::string expected = read_file(golden_dir + "/" + name + ".txt");
            const Outcome got = run_divergence(args, "");
            CHECK(got.exit_code == 0);
            INFO("first differing line: " << first_differing_line(got.output, expected)
                                          << "\n--- divergence.py (golden/" << name << ".txt)\n"
                                          << expected << "--- port\n"
                                          << got.output << "---");
            CHECK(got.output == expected);
        }
    }
    // The variations the chapter's "Try it" and the port's options need.
    for (const char* required :
         {"default", "try1", "try2", "try3", "costs", "threads", "seed", "warp16"}) {
        INFO("variation " << required);
        CHECK(names.count(required) == 1);
    }
}

TEST_CASE("the port rejects bad options and undefined rows", "[ch01][port]") {
    SECTION("a bad option value exits 2 with an error on stderr") {
        const Outcome got = run_divergence({"--warp", "0"}, "2>&1 >/dev/null");
        CHECK(got.exit_code == 2);
        CHECK(got.output.rfind("divergence: error: ", 0) == 0);
    }
    SECTION("an unknown option exits 2") {
        const Outcome got = run_divergence({"--no-such-option"}, "2>&1 >/dev/null");
        CHECK(got.exit_code == 2);
        CHECK(got.output.rfind("divergence: error: ", 0) == 0);
    }
    SECTION("fewer threads than a warp leaves no lane-cycles: an error, not a number") {
        // Python: ZeroDivisionError in the first row.
        const Outcome got = run_divergence({"--threads", "16"}, "2>&1 >/dev/null");
        CHECK(got.exit_code == 1);
        CHECK(got.output.rfind("divergence: error: ", 0) == 0);
    }
    SECTION("--help documents the Python edits and exits 0") {
        const Outcome got = run_divergence({"--help"}, "2>/dev/null");
        CHECK(got.exit_code == 0);
        CHECK(got.output.find("rnd.sort()") != std::string::npos);
        CHECK(got.output.find("WARP = N") != std::string::npos);
    }
}
