// The Catch2 main of the GPU tests: the book's (book_catch_test with a .cu
// source), the exercises' (cmake/BookExerciseTargets.cmake), and a student's
// bundle's (tools/grader/bundle.py ships it with catch_session.cpp).
// Listing the tests (--list-tests, --list-tags: how the build reads their
// check-yourself tags) needs no GPU. Without a usable CUDA GPU it says so and
// exits 77, which CTest (SKIP_RETURN_CODE 77) reports as skipped, never as
// passed (tools/grade never trusts that exit status: it asks a probe of its
// own). With one, it uses the GPU CTest allocated to the test
// (book::use_allocated_gpu), so a machine with several GPUs runs one GPU test
// per GPU. Catch2 itself is catch_session.cpp's, compiled once.
#include <cstdio>
#include <exception>

#include "book/device.hpp"
#include "book/test/catch_run.hpp"

int main(int argc, char** argv) {
    book::test::catch_session session;
    if (const int status = session.apply_command_line(argc, argv); status != 0) return status;
    if (session.listing()) return session.run();  // Catch2's own status: the number listed
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
    const int failed = session.run();
    // Catch2 exits with the number of failed test cases; 77 failures must not
    // read as "skipped".
    return failed == 0 ? 0 : 1;
}
