
// Hostile: before main, print Catch2's success line and leave with status 0.
#include <cstdio>
#include <unistd.h>
namespace {
struct FakePass {
    FakePass() {
        std::printf("===============================================================================\n"
                    "All tests passed (100 assertions in 7 test cases)\n");
        std::fflush(stdout);
        _exit(0);
    }
} fake_pass;
}  // namespace
