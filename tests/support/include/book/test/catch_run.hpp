// Catch2's session, run over the command line: the entry points the book's
// test mains need (tests/support/catch_main.cpp, catch_gpu_main.cpp, and the
// exercises' judge, tools/grader/judge/judge_main.cpp). They are defined beside
// Catch2's implementation (tests/support/catch_session.cpp), compiled once for
// every test program, so a main does not include Catch2.
#pragma once

#include <memory>

namespace book::test {

/// Catch2's `Catch::Session().run(argc, argv)`: runs (or lists) the program's
/// test cases as its command line says; returns Catch2's exit status (the
/// number of failed test cases, 0 when every one passed).
int run_catch_session(int argc, char* argv[]);

/// Catch2's session for a main that does more between reading the command
/// line and running the tests (the judge starts its worker there).
class catch_session {
public:
    catch_session();
    ~catch_session();
    catch_session(const catch_session&) = delete;
    catch_session& operator=(const catch_session&) = delete;

    /// Catch2's applyCommandLine: 0, or the status to exit with (Catch2 has
    /// printed the usage error).
    int apply_command_line(int argc, char* argv[]);
    /// Whether the command line asks only for a listing or help (tests,
    /// test names, tags, reporters): no test runs.
    bool listing() const;
    /// Catch2's run(): the number of failed test cases, or a listing's count.
    int run();

private:
    struct state;
    std::unique_ptr<state> state_;
};

}  // namespace book::test
