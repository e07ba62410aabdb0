// Catch2's session, run over the command line: the one entry point the book's
// test mains need (tests/support/catch_main.cpp, catch_gpu_main.cpp). It is
// defined beside Catch2's implementation (tests/support/catch_session.cpp),
// compiled once for every test program, so a main does not include Catch2.
#pragma once

namespace book::test {

/// Catch2's `Catch::Session().run(argc, argv)`: runs (or lists) the program's
/// test cases as its command line says; returns Catch2's exit status (the
/// number of failed test cases, 0 when every one passed).
int run_catch_session(int argc, char* argv[]);

}  // namespace book::test
