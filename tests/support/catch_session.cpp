// Catch2's implementation (its session, reporters and command line), compiled
// once for every test program of the book, and the entry points the mains
// call (catch_main.cpp, catch_gpu_main.cpp, tools/grader/judge/judge_main.cpp:
// without Catch2's header). Listings (--list-tags, --list-tests: how the build
// reads the check-yourself tags) are not wrapped at 80 columns.
//
// The book builds it with Catch2 version 2 (one header, Debian 12); a student's
// bundle also with version 3 (Ubuntu 24.04), through the catch2/catch.hpp its
// CMakeLists.txt writes, which defines BOOK_CATCH2_V3
// (tools/grader/bundle/CMakeLists.txt; exercises.bundle.catch2-v3). Version 3
// is a compiled library: its implementation and its console width were set
// when it was built, so neither is asked for here.
#if !defined(BOOK_CATCH2_V3)
#define CATCH_CONFIG_CONSOLE_WIDTH 300
#define CATCH_CONFIG_RUNNER
#endif
#include <catch2/catch.hpp>

#include "book/test/catch_run.hpp"

int book::test::run_catch_session(int argc, char* argv[]) {
    return Catch::Session().run(argc, argv);
}

struct book::test::catch_session::state {
    Catch::Session session;
};

book::test::catch_session::catch_session() : state_(std::make_unique<state>()) {}

book::test::catch_session::~catch_session() = default;

int book::test::catch_session::apply_command_line(int argc, char* argv[]) {
    return state_->session.applyCommandLine(argc, argv);
}

bool book::test::catch_session::listing() const {
    const Catch::ConfigData& config = state_->session.configData();
#if CATCH_VERSION_MAJOR >= 3
    return config.listTests || config.listTags || config.listReporters || config.listListeners ||
           config.showHelp;
#else
    return config.listTests || config.listTestNamesOnly || config.listTags ||
           config.listReporters || config.showHelp;
#endif
}

int book::test::catch_session::run() { return state_->session.run(); }
