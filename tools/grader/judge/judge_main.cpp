// The judge's Catch2 main (tools/grader/judge/grade_bridge.hpp says what the judge
// and the worker are). The test set's checks run here, in a process that never
// loads the student's code; every call of a student's function goes to the
// worker.
//
//   <judge> --worker-fds <to worker>,<from worker> [Catch2 options]
//       the grader started the worker (in its sandbox) and holds the other ends
//   <judge> --worker <program> [--skip-without-gpu <probe>] [Catch2 options]
//       the judge starts the worker itself (CTest, on the book's own code); with
//       a GPU exercise, it exits 77 (skipped) where the probe finds no GPU
//
// Before the tests, it asks the worker which functions it exposes: they must be
// those the contract names (EXERCISE_FUNCTIONS of exercise.cmake, compiled
// into the bridge's judge side), or the judge stops. It exits 0 only when every assertion
// passed and the link to the worker held to the end (a worker that died, hung up
// or answered nonsense fails the set, whatever the assertions said); 1 when an
// assertion failed; 3 when the link broke; 2 on a usage error.
//
// Catch2 itself is tests/support/catch_session.cpp's, compiled once for every
// test program of the book (book/test/catch_run.hpp); this file includes its
// header only to register the translation of worker_lost.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "book/test/catch_run.hpp"
#include "grade_judge.hpp"

// A call that found the link to the worker broken, as the report shows it: why
// it broke, not Catch2's "Unknown exception" (worker_lost is no std::exception).
CATCH_TRANSLATE_EXCEPTION(const book::grade::worker_lost& lost) {
    return "not evaluated: the link to the worker broke (" + lost.why + ")";
}

namespace {

std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : s) {
        if (c == ',') {
            if (!cur.empty()) out.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty()) out.push_back(cur);
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    std::signal(SIGPIPE, SIG_IGN);  // a worker that ended: write() fails, the link breaks
    std::vector<char*> args{argv[0]};
    std::string fds, program, probe;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if ((a == "--worker-fds" || a == "--worker") && i + 1 < argc) {
            (a == "--worker" ? program : fds) = argv[++i];
        } else if (a == "--skip-without-gpu" && i + 1 < argc) {
            probe = argv[++i];
        } else {
            args.push_back(argv[i]);
        }
    }
    book::test::catch_session session;
    if (const int s = session.apply_command_line(static_cast<int>(args.size()), args.data());
        s != 0)
        return s;
    if (session.listing()) return session.run();  // a listing needs no worker

    // CTest's runs of a GPU exercise: the book's GPU probe says whether a GPU is
    // there (77, skipped, where none is; never passed). tools/grade asks its own.
    if (!probe.empty()) {
        const pid_t p = ::fork();
        if (p == 0) {
            ::execl(probe.c_str(), probe.c_str(), static_cast<char*>(nullptr));
            ::_exit(127);
        }
        int ws = 0;
        ::waitpid(p, &ws, 0);
        if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
            std::printf("skipped: no CUDA GPU (the book's GPU probe found none)\n");
            return 77;
        }
    }

    auto& link = book::grade::link();
    pid_t child = -1;
    if (!program.empty()) {
        int to[2], from[2];
        if (::pipe(to) != 0 || ::pipe(from) != 0) {
            std::perror("pipe");
            return 2;
        }
        child = ::fork();
        if (child == 0) {
            ::close(to[1]);
            ::close(from[0]);
            const std::string in = std::to_string(to[0]), out = std::to_string(from[1]);
            ::execl(program.c_str(), program.c_str(), in.c_str(), out.c_str(),
                    static_cast<char*>(nullptr));
            std::perror(program.c_str());
            ::_exit(127);
        }
        ::close(to[0]);
        ::close(from[1]);
        link.to_worker = to[1];
        link.from_worker = from[0];
    } else if (const auto comma = fds.find(','); !fds.empty() && comma != std::string::npos) {
        link.to_worker = std::atoi(fds.substr(0, comma).c_str());
        link.from_worker = std::atoi(fds.substr(comma + 1).c_str());
    } else {
        std::fprintf(stderr, "%s: --worker <program> or --worker-fds <to>,<from> is needed\n",
                     argv[0]);
        return 2;
    }

    // Pipes of 1 MiB (the most an unprivileged process may ask), so that a large
    // array crosses in a few writes rather than thousands of 64 KiB turns.
    ::fcntl(link.to_worker, F_SETPIPE_SZ, 1 << 20);
    ::fcntl(link.from_worker, F_SETPIPE_SZ, 1 << 20);
    int status = 0;
    try {
        auto exposed =
            book::grade::request("?", book::grade::json::array()).get<std::vector<std::string>>();
        auto wanted = split(book::grade::contract_functions());
        std::sort(exposed.begin(), exposed.end());
        std::sort(wanted.begin(), wanted.end());
        if (exposed != wanted) {
            // The worker's names are its own: each cut short, and only the first few.
            std::string e, w;
            for (std::size_t i = 0; i < exposed.size() && i < 16; ++i)
                e +=
                    " " + (exposed[i].size() <= 64 ? exposed[i] : exposed[i].substr(0, 64) + "...");
            if (exposed.size() > 16) e += " (and " + std::to_string(exposed.size() - 16) + " more)";
            for (const auto& n : wanted) w += " " + n;
            link.broken = "the worker exposes" + e + "; the contract names" + w;
        }
    } catch (const book::grade::worker_lost&) {
    } catch (const std::exception& x) {
        link.broken =
            std::string("the worker's list of functions: ") + book::grade::shown(x.what());
    }
    if (link.broken.empty()) status = session.run() == 0 ? 0 : 1;
    ::close(link.to_worker);
    ::close(link.from_worker);
    if (child > 0) {
        int ws = 0;
        ::waitpid(child, &ws, 0);
        if (WIFSIGNALED(ws) && link.broken.empty())
            link.broken = "the worker was killed by signal " + std::to_string(WTERMSIG(ws));
    }
    if (!link.broken.empty()) {
        std::fprintf(stderr, "the set fails: the link to the worker broke after %ld calls: %s\n",
                     link.calls, link.broken.c_str());
        return 3;
    }
    return status;
}
