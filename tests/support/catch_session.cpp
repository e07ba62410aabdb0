// Catch2's implementation (its session, reporters and command line), compiled
// once for every test program of the book, and the entry points the mains
// call (catch_main.cpp, catch_gpu_main.cpp, tools/grader/judge/judge_main.cpp:
// without Catch2's header). Listings (--list-tags, --list-tests: how the build
// reads the check-yourself tags) are not wrapped at 80 columns.
#define CATCH_CONFIG_CONSOLE_WIDTH 300
#define CATCH_CONFIG_RUNNER
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
    return config.listTests || config.listTestNamesOnly || config.listTags ||
           config.listReporters || config.showHelp;
}

int book::test::catch_session::run() { return state_->session.run(); }
