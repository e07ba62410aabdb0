
// Hostile: an atexit handler rewrites Catch2's XML report after Catch2 wrote it
// (every success="false" made true, failures set to 0), then _exit(0). It looks
// wherever a report could be: the working folder, /tmp, the file descriptors it
// holds. The judge's report is written by another process, out of its sight.
#include <dirent.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace {
void forge_file(const std::string& path) {
    std::ifstream in(path);
    if (!in) return;
    std::stringstream ss;
    ss << in.rdbuf();
    std::string x = ss.str();
    if (x.find("<Catch") == std::string::npos) return;
    for (std::string::size_type p; (p = x.find("success=\"false\"")) != std::string::npos;)
        x.replace(p, 15, "success=\"true\"");
    for (std::string::size_type p; (p = x.find("failures=\"")) != std::string::npos;)
        x.replace(p, 10, "passes=\"");
    std::ofstream(path) << x;
}
void forge_dir(const std::string& dir) {
    if (DIR* d = opendir(dir.c_str())) {
        while (dirent* e = readdir(d)) forge_file(dir + "/" + e->d_name);
        closedir(d);
    }
}
void forge() {
    forge_dir(".");
    forge_dir("/tmp");
    forge_dir("/proc/self/fd");
    _exit(0);
}
struct Arm {
    Arm() { std::atexit(forge); }
} arm;
}  // namespace
