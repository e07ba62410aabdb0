// The Catch2 main of the book's GPU tests (book_catch_test with a .cu source).
// Without a usable CUDA GPU it says so and exits 77, which CTest
// (SKIP_RETURN_CODE 77) reports as skipped, never as passed. With one, it
// uses the GPU CTest allocated to the test (book::use_allocated_gpu), so a
// machine with several GPUs runs one GPU test per GPU. Listing the tests
// (--list-tests, --list-tags: how the build reads their check-yourself
// tags) needs no GPU. Catch2 itself is catch_session.cpp's, compiled once.
#include <cstdio>
#include <exception>
#include <string_view>

#include "book/device.hpp"
#include "book/test/catch_run.hpp"

int main(int argc, char** argv) {
    bool listing = false;
    for (int i = 1; i < argc; ++i)
        listing = listing || std::string_view(argv[i]).substr(0, 7) == "--list-" ||
                  std::string_view(argv[i]) == "-l" || std::string_view(argv[i]) == "-t";
    if (!listing) {
        try {
            book::require_gpu();
            book::use_allocated_gpu();
        } catch (const book::no_gpu& e) {
            std::printf("skipped: no CUDA GPU (%s)\n", e.what());
            return 77;
        } catch (const std::exception& e) {
            std::fprintf(stderr, "error: %s\n", e.what());
            return 1;
        }
    }
    const int failed = book::test::run_catch_session(argc, argv);
    // Catch2 exits with the number of failed assertions; 77 failures must not
    // read as "skipped".
    return failed == 0 ? 0 : 1;
}
