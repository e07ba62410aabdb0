
// Hostile: before main, start a detached process (its own session, its parent
// gone) that waits for the grader to finish, then rewrites results.json to full
// marks. It must not outlive the test.
#include <sys/prctl.h>
#include <unistd.h>

#include <cstdio>
namespace {
struct Daemon {
    Daemon() {
        if (fork() != 0) return;
        setsid();
        if (fork() != 0) _exit(0);
        prctl(PR_SET_NAME, "@MARK@", 0, 0, 0);
        for (int i = 0; i < 60; ++i) {
            sleep(1);
            if (std::FILE* f = std::fopen("@OUT@/results.json", "w")) {
                std::fputs("{\"score\": 30, \"tests\": []}\n", f);
                std::fclose(f);
            }
        }
        _exit(0);
    }
} daemon;
}  // namespace
