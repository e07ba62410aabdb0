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

/// This process's environment with `env` set over it, as "K=V" strings.
std::vector<std::string> environment_with(const std::map<std::string, std::string>& env) {
    std::vector<std::string> out;
    for (char** e = environ; *e != nullptr; ++e) {
        std::string entry(*e);
        auto key = entry.substr(0, entry.find('='));
        if (env.count(key) == 0) out.push_back(entry);
    }
    for (const auto& [k, v] : env) out.push_back(k + "=" + v);
    return out;
}

/// Starts argv in a process group of its own, its stdout and stderr into the
/// pipes' write ends; returns its id.
pid_t spawn(std::vector<std::string> argv, std::vector<std::string> env, int out_pipe[2],
            int err_pipe[2]) {
    std::vector<char*> envp, args;
    for (auto& s : env) envp.push_back(s.data());
    envp.push_back(nullptr);
    for (auto& s : argv) args.push_back(s.data());
    args.push_back(nullptr);
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
    return pid;
}

/// When a run is killed: its start plus its timeout, in seconds.
using Deadline = std::chrono::time_point<std::chrono::steady_clock, std::chrono::duration<double>>;

/// Reads both pipes into r (up to kCaptureLimit each, the rest counted) until
/// the program closes them, or kills its group at the deadline (r.timed_out).
void capture(int fds[2], pid_t pid, Deadline deadline, ProcessResult& r) {
    std::string* sinks[2] = {&r.out, &r.err};
    std::size_t* dropped[2] = {&r.out_dropped, &r.err_dropped};
    while (fds[0] >= 0 || fds[1] >= 0) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                        deadline - std::chrono::steady_clock::now())
                        .count();
        if (left <= 0) {
            r.timed_out = true;
            ::kill(-pid, SIGKILL);
            return;
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
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv,
                          const std::map<std::string, std::string>& env, double timeout_s) {
    if (argv.empty()) throw Error("no program to run");
    int out_pipe[2], err_pipe[2];
    if (::pipe(out_pipe) != 0 || ::pipe(err_pipe) != 0)
        throw Error(fmt::format("pipe: {}", std::strerror(errno)));
    const auto start = std::chrono::steady_clock::now();
    const pid_t pid = spawn(argv, environment_with(env), out_pipe, err_pipe);
    ProcessResult r;
    int fds[2] = {out_pipe[0], err_pipe[0]};
    capture(fds, pid, start + std::chrono::duration<double>(timeout_s), r);
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
