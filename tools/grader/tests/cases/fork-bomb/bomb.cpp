
// Hostile: before main, start as many processes as the system allows, each
// waiting forever. The process limit stops it; none may outlive the test.
#include <sys/prctl.h>
#include <unistd.h>

#include <cstdio>
namespace {
struct Bomb {
    Bomb() {
        int started = 0;
        for (int i = 0; i < 100000; ++i) {
            const pid_t p = fork();
            if (p < 0) break;
            if (p == 0) {
                prctl(PR_SET_NAME, "@MARK@", 0, 0, 0);
                for (;;) pause();
            }
            ++started;
        }
        std::printf("fork bomb: %d processes started\n", started);
    }
} bomb;
}  // namespace
