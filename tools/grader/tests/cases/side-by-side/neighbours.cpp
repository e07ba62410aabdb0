
// Hostile, for steps that run side by side (tools/grade --jobs): before main,
// look for the other exercises' steps, running now as this one runs, and break
// them: write a bad frame to every file descriptor but the worker's own two (a
// judge's pipe that leaked into this sandbox would take it), count the processes
// it could signal (its sandbox's own: bubblewrap and the supervisor), and write
// into every folder of the grading it might see.
// Nothing may reach them: each step sees only its own files and processes, and
// runs as a user of its own.
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {
struct Neighbours {
    Neighbours() {
        char cmd[4096] = {};
        const int c = ::open("/proc/self/cmdline", O_RDONLY);
        const ssize_t n = c < 0 ? 0 : ::read(c, cmd, sizeof cmd - 1);
        if (c >= 0) ::close(c);
        // argv: /work/worker <fd in> <fd out>
        int own[2] = {-1, -1};
        int k = 0;
        for (ssize_t i = 0; i < n && k < 3; ++k) {
            if (k > 0) own[k - 1] = std::atoi(cmd + i);
            i += static_cast<ssize_t>(std::strlen(cmd + i)) + 1;
        }
        if (own[0] < 0) return;  // not the worker
        const unsigned char junk[16] = {0xff, 0xff, 0xff, 0x7f, 1, 0, 0, 0};
        int written = 0;
        for (int fd = 3; fd < 1024; ++fd) {
            if (fd == own[0] || fd == own[1] || fd == c) continue;
            if (::write(fd, junk, sizeof junk) > 0) ++written;
        }
        int seen = 0;  // processes it could signal (signal 0 asks, sends nothing)
        for (pid_t p = 1; p < 1 << 16; ++p)
            if (p != ::getpid() && ::kill(p, 0) == 0) ++seen;
        int folders = 0;
        for (const char* d : {"/work", "/work/obj", "/work/bin", "/kit", "/tmp/..", "/"}) {
            const std::string f = std::string(d) + "/side-by-side";
            const int w = ::open(f.c_str(), O_WRONLY | O_CREAT, 0644);
            if (w >= 0) {
                ++folders;
                ::close(w);
            }
        }
        std::fprintf(stderr, "side by side: %d other descriptors written, %d other processes "
                             "in sight, %d folders written\n", written, seen, folders);
    }
} neighbours;
}  // namespace
