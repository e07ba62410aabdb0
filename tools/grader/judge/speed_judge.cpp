// The speed judge: one round of speed grading (tools/grader/speed.py drives the
// rounds), trusted, outside the sandbox; it never loads the student's code and
// holds nothing of an exercise but the name of its timed harness.
//
//   <speed_judge> --worker-fds <to worker>,<from worker> --harness <name>
//                 --params <JSON> --seeds <s1>,<s2>,... [--null]
//
// It asks the worker (a fresh one, the student's or the reference's) to prepare
// the harness (grade_worker.hpp, Timed: no seed yet), and, once it answers
// "ready", for each seed: reads the steady clock, sends "#go" with the seed, and
// reads the clock again only when the worker's answer has arrived whole. The
// clock is this process's: nothing in the worker can read or set it. With
// --null (the reference's worker only), each seed is first run without the calls
// (the harness's own cost; its span in "null_ns"). It prints one JSON line:
//   {"ok": true, "ns": [<span of each call>], "null_ns": [...],
//    "outputs": [[<each call's outputs>]]}
//   {"ok": false, "why": "<what went wrong>", "ns": [...], "outputs": [...]}
// (the calls before it went wrong); the outputs are checked by the grader against
// the reference's for the same seeds. Exit status 0 when every call answered, 3
// when the link broke or an answer was not what the protocol says, 2 on a usage
// error. A worker that never answers is ended by the grader's time limit.
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <chrono>

#include "grade_wire.hpp"

namespace {

using book::grade::json;

/// The most outputs one call may return (each costs the judge a value).
constexpr std::size_t kOutputLimit = 1u << 16;

int usage(const char* argv0) {
    std::fprintf(stderr,
                 "usage: %s --worker-fds <to>,<from> --harness <name> --params <JSON> "
                 "--seeds <s1>,<s2>,... [--null]\n",
                 argv0);
    return 2;
}

void print(bool ok, const std::string& why, const json& ns, const json& null_ns,
           const json& outputs) {
    json line{{"ok", ok}, {"ns", ns}, {"null_ns", null_ns}, {"outputs", outputs}};
    if (!ok) line["why"] = book::grade::shown(why);
    // Outputs that are no number a JSON file can hold (NaN, infinity) print as
    // null: never equal to the reference's.
    std::printf("%s\n", line.dump(-1, ' ', true, json::error_handler_t::replace).c_str());
    std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
    std::signal(SIGPIPE, SIG_IGN);
    std::string fds, harness, params_text, seeds_text;
    bool null = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--null") {
            null = true;
            continue;
        }
        if (i + 1 >= argc) return usage(argv[0]);
        const std::string v = argv[++i];
        if (a == "--worker-fds")
            fds = v;
        else if (a == "--harness")
            harness = v;
        else if (a == "--params")
            params_text = v;
        else if (a == "--seeds")
            seeds_text = v;
        else
            return usage(argv[0]);
    }
    if (harness.empty() || seeds_text.empty()) return usage(argv[0]);
    const auto comma = fds.find(',');
    if (comma == std::string::npos) return usage(argv[0]);
    const int to = std::atoi(fds.substr(0, comma).c_str());
    const int from = std::atoi(fds.substr(comma + 1).c_str());
    json params = json::parse(params_text.empty() ? "{}" : params_text, nullptr, false);
    if (params.is_discarded()) return usage(argv[0]);
    std::vector<std::uint64_t> seeds;
    for (std::size_t at = 0; at <= seeds_text.size();) {
        const auto end = std::min(seeds_text.find(',', at), seeds_text.size());
        const std::string s = seeds_text.substr(at, end - at);
        if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 19)
            return usage(argv[0]);
        seeds.push_back(std::strtoull(s.c_str(), nullptr, 10));
        at = end + 1;
    }

    json ns = json::array(), null_ns = json::array(), outputs = json::array();
    const auto ask = [&](const std::string& name, json args, json& answer, std::string& why) {
        if (!book::grade::send_frame(to, json{{"f", name}, {"a", std::move(args)}})) {
            why = "the worker stopped reading (it ended, or was ended) before " + name;
            return false;
        }
        if (!book::grade::receive_frame(from, answer, why)) {
            why += ", in " + name;
            return false;
        }
        if (!answer.is_object() || !answer.contains("r")) {
            why = name + ": the worker answered with no value";
            if (answer.is_object() && answer.contains("m") && answer["m"].is_string())
                why += " (" + answer["m"].get<std::string>() + ")";
            return false;
        }
        return true;
    };
    json answer;
    std::string why;
    if (!ask("#prepare", json::array({harness, params}), answer, why)) {
        print(false, why, ns, null_ns, outputs);
        return 3;
    }
    if (answer["r"] != "ready") {
        print(false, "#prepare: the worker did not answer \"ready\"", ns, null_ns, outputs);
        return 3;
    }
    for (const std::uint64_t seed : seeds) {
        if (null) {
            const auto t0 = std::chrono::steady_clock::now();
            const bool ok = ask("#go", json::array({seed, true}), answer, why);
            const auto t1 = std::chrono::steady_clock::now();
            if (!ok) {
                print(false, why, ns, null_ns, outputs);
                return 3;
            }
            null_ns.push_back(
                std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count());
        }
        const auto t0 = std::chrono::steady_clock::now();
        const bool ok = ask("#go", json::array({seed}), answer, why);
        const auto t1 = std::chrono::steady_clock::now();
        if (!ok) {
            print(false, why, ns, null_ns, outputs);
            return 3;
        }
        const json& r = answer["r"];
        if (!r.is_array() || r.size() > kOutputLimit) {
            print(false,
                  "#go: the answer is no array of at most " + std::to_string(kOutputLimit) +
                      " numbers",
                  ns, null_ns, outputs);
            return 3;
        }
        json values = json::array();
        for (const auto& v : r) {
            if (!v.is_number()) {
                print(false, "#go: an output that is no number", ns, null_ns, outputs);
                return 3;
            }
            values.push_back(v.get<double>());
        }
        ns.push_back(std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count());
        outputs.push_back(std::move(values));
    }
    print(true, "", ns, null_ns, outputs);
    return 0;
}
