
// Hostile, graded with --trusted (no sandbox, no PID namespace): before main,
// fork twice into a session of its own (out of the process group the grader
// kills) and wait to rewrite results.json to full marks after tools/grade has
// returned. The run's supervisor and tools/grade are child subreapers: the
// detached process becomes their child and is ended with the run.
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
