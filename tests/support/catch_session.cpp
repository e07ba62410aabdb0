// Catch2's implementation (its session, reporters and command line), compiled
// once for every test program of the book, and the entry point the two mains
// call (catch_main.cpp, catch_gpu_main.cpp: a few lines each, without Catch2's
// header). Listings (--list-tags, --list-tests: how the build reads the
// check-yourself tags) are not wrapped at 80 columns.
#define CATCH_CONFIG_CONSOLE_WIDTH 300
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "book/test/catch_run.hpp"

int book::test::run_catch_session(int argc, char* argv[]) {
    return Catch::Session().run(argc, argv);
}
