// bookrun's entry point. Everything else, its command line included, is in
// the library bookrun_core (cli.cpp), which the runner's tests link too.
#include "runner.hpp"

int main(int argc, char** argv) { return bookrun::command_line_main(argc, argv); }
