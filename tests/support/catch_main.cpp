// The Catch2 main of the book's CPU tests: what CATCH_CONFIG_MAIN's main does,
// over Catch2's implementation compiled once (catch_session.cpp).
#include "book/test/catch_run.hpp"

int main(int argc, char* argv[]) { return book::test::run_catch_session(argc, argv); }
