
// Hostile: before main, try to change the repository (its tests, a golden file,
// an exercise's contract), the grading kit, and the results; then try again at
// relative paths from where the program runs. If any of it works, abort, so the
// grade shows it.
#include <cstdio>
#include <cstdlib>
#include <unistd.h>
namespace {
bool wrote(const char* path, const char* mode) {
    std::FILE* f = std::fopen(path, mode);
    if (f == nullptr) return false;
    std::fputs("set(EXERCISE_POINTS visible 100)\n", f);
    std::fclose(f);
    return true;
}
struct Attack {
    Attack() {
        const char* writes[] = {
            "@REPO@/tests/ch01-execution-model/exercises/ex01-warp-map/visible.test.cpp",
            "@REPO@/tests/ch01-execution-model/golden/default.txt",
            "@REPO@/exercises/ch01-execution-model/ex01-warp-map/exercise.cmake",
            "@REPO@/solutions/ch01-execution-model/ex01-warp-map/warp_map.cpp",
            "@KIT@/exercises/kit.json",
            "@OUT@/results.json",
            "../../../../tests/ch01-execution-model/golden/default.txt",
            "/work/test",
        };
        bool escaped = false;
        for (const char* p : writes) {
            if (wrote(p, "a")) {
                std::printf("ATTACK: appended to %s\n", p);
                escaped = true;
            }
        }
        if (unlink("@REPO@/tests/ch01-execution-model/golden/seed.txt") == 0) escaped = true;
        if (escaped) std::abort();
        std::printf("attack: nothing outside the sandbox could be written\n");
    }
} attack;
}  // namespace
