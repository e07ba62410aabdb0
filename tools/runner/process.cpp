// Running a program under a timeout and capturing what it prints.
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>

#include <fmt/format.h>

#include "runner.hpp"

extern char** environ;

namespace bookrun {
namespace {

void close_fd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv,
                          const std::map<std::string, std::string>& env, double timeout_s) {
    if (argv.empty()) throw Error("no program to run");
    int out_pipe[2], err_pipe[2];
    if (::pipe(out_pipe) != 0 || ::pipe(err_pipe) != 0)
        throw Error(fmt::format("pipe: {}", std::strerror(errno)));

    std::vector<std::string> env_strings;
    for (char** e = environ; *e != nullptr; ++e) {
        std::string entry(*e);
        auto key = entry.substr(0, entry.find('='));
        if (env.count(key) == 0) env_strings.push_back(entry);
    }
    for (const auto& [k, v] : env) env_strings.push_back(k + "=" + v);
    std::vector<char*> envp, args;
    for (auto& s : env_strings) envp.push_back(s.data());
    envp.push_back(nullptr);
    std::vector<std::string> argv_copy = argv;
    for (auto& s : argv_copy) args.push_back(s.data());
    args.push_back(nullptr);

    const auto start = std::chrono::steady_clock::now();
    pid_t pid = ::fork();
    if (pid < 0) throw Error(fmt::format("fork: {}", std::strerror(errno)));
    if (pid == 0) {
        ::setpgid(0, 0);
        ::dup2(out_pipe[1], 1);
        ::dup2(err_pipe[1], 2);
        ::close(out_pipe[0]);
        ::close(out_pipe[1]);
        ::close(err_pipe[0]);
        ::close(err_pipe[1]);
        ::execve(args[0], args.data(), envp.data());
        ::dprintf(2, "cannot execute %s: %s\n", args[0], std::strerror(errno));
        ::_exit(127);
    }
    ::setpgid(pid, pid);
    ::close(out_pipe[1]);
    ::close(err_pipe[1]);

    ProcessResult r;
    int fds[2] = {out_pipe[0], err_pipe[0]};
    std::string* sinks[2] = {&r.out, &r.err};
    std::size_t* dropped[2] = {&r.out_dropped, &r.err_dropped};
    const auto deadline = start + std::chrono::duration<double>(timeout_s);
    while (fds[0] >= 0 || fds[1] >= 0) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                        deadline - std::chrono::steady_clock::now())
                        .count();
        if (left <= 0) {
            r.timed_out = true;
            ::kill(-pid, SIGKILL);
            break;
        }
        pollfd p[2];
        nfds_t n = 0;
        int which[2];
        for (int i = 0; i < 2; ++i)
            if (fds[i] >= 0) {
                p[n] = {fds[i], POLLIN, 0};
                which[n++] = i;
            }
        int ready = ::poll(p, n, static_cast<int>(std::min<long long>(left, 1000)));
        if (ready < 0 && errno != EINTR) throw Error(fmt::format("poll: {}", std::strerror(errno)));
        for (nfds_t k = 0; k < n; ++k) {
            if ((p[k].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
            char buf[65536];
            ssize_t got = ::read(fds[which[k]], buf, sizeof buf);
            if (got > 0) {
                std::string& sink = *sinks[which[k]];
                auto keep = std::min(static_cast<std::size_t>(got), kCaptureLimit - sink.size());
                sink.append(buf, keep);
                *dropped[which[k]] += static_cast<std::size_t>(got) - keep;
            } else if (got == 0 || errno != EINTR)
                close_fd(fds[which[k]]);
        }
    }
    close_fd(fds[0]);
    close_fd(fds[1]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    // A child may leave grandchildren behind in its group: end them too.
    ::kill(-pid, SIGKILL);
    r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (WIFEXITED(status)) r.exit_status = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
    return r;
}

std::string describe_failure(const ProcessResult& r, double timeout_s) {
    if (r.timed_out) return fmt::format("timed out after {:g} s and was killed", timeout_s);
    if (r.signal != 0)
        return fmt::format("was killed by signal {} ({})", r.signal, ::strsignal(r.signal));
    return fmt::format("exited with status {}", r.exit_status);
}

}  // namespace bookrun
