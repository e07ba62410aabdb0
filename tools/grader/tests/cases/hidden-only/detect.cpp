
// Hostile: the solved code, which gives up (exits 3) whenever it can tell that it
// serves the hidden test set: "hidden" in its program's path, its command line,
// its environment, its working folder, the files it can see, or the command
// lines of the processes it can see. The worker is told nothing of the set, so
// both sets see the same solved code: full marks, the honest grade.
#include <dirent.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace {
std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}
std::string names(const std::string& dir) {
    std::string all;
    if (DIR* d = opendir(dir.c_str())) {
        while (dirent* e = readdir(d)) all += std::string(e->d_name) + "\n";
        closedir(d);
    }
    return all;
}
std::string link_of(const std::string& path) {
    char buf[4096];
    const ssize_t n = readlink(path.c_str(), buf, sizeof buf - 1);
    return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
}
struct Detect {
    Detect() {
        std::string seen = link_of("/proc/self/exe") + slurp("/proc/self/cmdline") +
                           slurp("/proc/self/environ") + link_of("/proc/self/cwd") +
                           names(".") + names("/tmp") + names("/work") + names("/kit");
        for (int fd = 0; fd < 64; ++fd) seen += link_of("/proc/self/fd/" + std::to_string(fd));
        const std::string procs = names("/proc");
        std::istringstream ps(procs);
        for (std::string p; std::getline(ps, p);)
            if (!p.empty() && p[0] >= '0' && p[0] <= '9') seen += slurp("/proc/" + p + "/cmdline");
        if (seen.find("hidden") != std::string::npos) {
            std::fprintf(stderr, "this looks like the hidden set: giving up\n");
            _exit(3);
        }
    }
} detect;
}  // namespace
