
// Hostile: before main, write 1 GiB to standard output.
#include <cstdio>
#include <cstring>
namespace {
struct Flood {
    Flood() {
        static char line[4096];
        std::memset(line, 'x', sizeof line - 1);
        for (int i = 0; i < (1 << 18); ++i) std::puts(line);
    }
} flood;
}  // namespace
