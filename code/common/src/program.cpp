// The GPU program wrapper (see book/program.hpp).
#include "book/program.hpp"

#include <cstdio>
#include <exception>
#include <string>

#include "book/device.hpp"
#include "book/errors.hpp"
#include "book/options.hpp"

namespace book {

int gpu_main(int argc, char** argv, int (*body)(int, char**)) {
    // Line by line, so that a program that crashes keeps what it printed
    // (stdout is a pipe under the runner, fully buffered by default). setvbuf
    // must come before any output.
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    const std::string name = program_name(argc, argv);
    try {
        require_gpu();
        use_allocated_gpu();
        report_device_provenance();
        const int status = body(argc, argv);
        std::fflush(stdout);
        return status;
    } catch (const no_gpu& e) {
        std::fflush(stdout);
        std::fprintf(stderr, "%s: skipped: no CUDA GPU (%s)\n", name.c_str(), e.what());
        return 77;
    } catch (const std::exception& e) {  // book::cuda_error among them
        std::fflush(stdout);
        std::fprintf(stderr, "%s: error: %s\n", name.c_str(), e.what());
        return 1;
    }
}

}  // namespace book
