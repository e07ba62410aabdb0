
// Hostile: before main, look for the repository, the solutions, the hidden tests,
// secrets of the host, and the network. If any of it is there, abort, so the
// grade shows it.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
namespace {
bool readable(const char* path) {
    const int fd = open(path, O_RDONLY);
    if (fd < 0) return false;
    close(fd);
    return true;
}
bool connects(const char* ip, int port) {
    const int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0) return false;
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<unsigned short>(port));
    inet_pton(AF_INET, ip, &a.sin_addr);
    const bool ok = connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
    close(s);
    return ok;
}
struct Probe {
    Probe() {
        const char* secrets[] = {
            "@REPO@/solutions/ch01-execution-model/ex02-simt-efficiency/simt_efficiency.cpp",
            "@REPO@/tests/ch01-execution-model/exercises/ex02-simt-efficiency/hidden.test.cpp",
            "@REPO@/README.md",
            "@KIT@/exercises/kit.json",
            "/etc/shadow",
            "/etc/passwd",
            "/root",
            "/home",
        };
        bool found = false;
        for (const char* p : secrets) {
            if (readable(p)) {
                std::printf("ESCAPE: %s is readable\n", p);
                found = true;
            }
        }
        if (connects("1.1.1.1", 53) || connects("8.8.8.8", 53) || connects("127.0.0.1", 22)) {
            std::printf("ESCAPE: the network is reachable\n");
            found = true;
        }
        if (found) std::abort();
        std::printf("probe: no repository, no solutions, no hidden tests, no network\n");
    }
} probe;
}  // namespace
