
// The attack: a worker signals to the worker beside it through what their
// sandboxes share (the read-only /usr, the page cache). Each call the sandbox's
// seccomp filter must refuse is tried; one that succeeds says "CHANNEL OPEN";
// what one worker sees of another's signals says "SEEN".
#include <fcntl.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>

namespace {

struct Channels {
    int fd = -1;
    int notify = -1;
    bool holding = false;

    Channels() {
        std::signal(SIGIO, SIG_IGN);  // dnotify's signal, where it is allowed
        fd = ::open("/usr/bin/true", O_RDONLY);
        // Another worker's locks, looked for during 1.5 s.
        for (int i = 0; i < 30; ++i) {
            struct flock l {};
            l.l_type = F_WRLCK;
            l.l_whence = SEEK_SET;
            if (::fcntl(fd, F_GETLK, &l) == 0 && l.l_type != F_UNLCK) {
                std::fprintf(stderr, "SEEN: a lock of another worker at byte %ld\n",
                             static_cast<long>(l.l_start));
                break;
            }
            ::usleep(50000);
        }
        struct flock l {};
        l.l_type = F_RDLCK;
        l.l_whence = SEEK_SET;
        l.l_start = 7;
        l.l_len = 1;
        if (::fcntl(fd, F_SETLK, &l) == 0) {
            std::fputs("CHANNEL OPEN: fcntl F_SETLK\n", stderr);
            holding = true;
        }
        struct flock o {};
        o.l_type = F_RDLCK;
        o.l_whence = SEEK_SET;
        o.l_start = 9;
        o.l_len = 1;
        if (::fcntl(fd, F_OFD_SETLK, &o) == 0)
            std::fputs("CHANNEL OPEN: fcntl F_OFD_SETLK\n", stderr);
        if (::flock(fd, LOCK_SH | LOCK_NB) == 0) std::fputs("CHANNEL OPEN: flock\n", stderr);
        notify = ::inotify_init1(IN_NONBLOCK);
        if (notify >= 0) {
            std::fputs("CHANNEL OPEN: inotify\n", stderr);
            ::inotify_add_watch(notify, "/usr/bin", IN_OPEN | IN_ACCESS);
        }
        const int dir = ::open("/usr/bin", O_RDONLY | O_DIRECTORY);
        if (dir >= 0 && ::fcntl(dir, F_NOTIFY, DN_ACCESS | DN_MULTISHOT) == 0)
            std::fputs("CHANNEL OPEN: dnotify\n", stderr);
        void* page = ::mmap(nullptr, 4096, PROT_READ, MAP_SHARED, fd, 0);
        unsigned char resident = 0;
        if (page != MAP_FAILED && ::mincore(page, 4096, &resident) == 0)
            std::fputs("CHANNEL OPEN: mincore\n", stderr);
        if (::posix_fadvise(fd, 0, 4096, POSIX_FADV_WILLNEED) == 0)
            std::fputs("CHANNEL OPEN: posix_fadvise\n", stderr);
        char byte;
        struct iovec v {
            &byte, 1
        };
        if (::preadv2(fd, &v, 1, 0, RWF_NOWAIT) == 1)
            std::fputs("CHANNEL OPEN: preadv2 RWF_NOWAIT\n", stderr);
        if (::readahead(fd, 0, 4096) == 0) std::fputs("CHANNEL OPEN: readahead\n", stderr);
    }
    ~Channels() {
        if (notify >= 0) {
            char events[4096];
            const ssize_t n = ::read(notify, events, sizeof events);
            if (n > 0)
                std::fprintf(stderr, "SEEN: %ld bytes of inotify events\n", static_cast<long>(n));
        }
        if (holding) ::usleep(3000000);  // a lock held for the worker beside this one to see
    }
};

Channels channels;

}  // namespace
