// Running a program with repeats: each repeat a fresh process, what it reported,
// a CPU program's second run compared with its first, and the medians a record
// shows of a measuring run's repeats.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <regex>
#include <set>

#include <fmt/format.h>

#include "commands.hpp"
#include "runner.hpp"

namespace fs = std::filesystem;

namespace bookrun {
namespace {

/// Whether the program said it found no GPU (exit 77, on its own).
bool found_no_gpu(const ProcessResult& r) {
    return r.exit_status == kSkip && !r.timed_out && r.signal == 0;
}

/// A file's text, removed after reading ("" when there is none).
std::string take_file(const std::string& path) {
    std::string text;
    if (fs::exists(path)) {
        text = read_file(path);
        std::remove(path.c_str());
    }
    return text;
}

Attempt run_once(const RunSpec& run, const Launch& launch, double timeout, int repeat,
                 const Schema& schema) {
    std::remove(launch.results.c_str());
    std::remove(launch.log.c_str());
    auto env = run.inputs.env;
    env["BOOK_RESULTS"] = launch.results;
    Attempt a;
    const json start = launch.clocks != nullptr ? launch.clocks->read() : json();
    a.r = run_process(launch.argv, env, timeout);
    if (launch.clocks != nullptr) a.clocks = repeat_clocks(start, launch.clocks->read());
    const std::string results_text = take_file(launch.results);
    a.report = launch.sanitized ? take_file(launch.log) : "";
    a.reported = {
        {"results", json::object()}, {"texts", json::object()}, {"provenance", json::object()}};
    if (found_no_gpu(a.r)) return a;
    const std::string which =
        run.repeats > 1 ? fmt::format("{} (repeat {} of {})", run.name, repeat, run.repeats)
                        : run.name;
    try {
        merge_results(a.reported, results_text);
    } catch (const Error& e) {
        throw Error(fmt::format("program {}: {}", which, e.what()));
    }
    check_program_provenance(a.reported["provenance"], run.gpu, schema, which);
    return a;
}

/// The lines of a text ("" has none; a last line without a newline counts).
std::vector<std::string> text_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t end = text.find('\n', at);
        if (end == std::string::npos) end = text.size();
        lines.push_back(text.substr(at, end - at));
        at = end + 1;
    }
    return lines;
}

/// An error naming the first line where two runs' `stream` differ, unless both
/// lines match one of the declared `varies` patterns; "" when they agree.
std::string first_difference(const std::string& stream, const std::string& a, const std::string& b,
                             const std::vector<std::regex>& varies) {
    const auto la = text_lines(a), lb = text_lines(b);
    const auto shown = [](const std::string& line) {
        return line.size() > 200 ? line.substr(0, 200) + "..." : line;
    };
    for (std::size_t i = 0; i < std::max(la.size(), lb.size()); ++i) {
        if (i >= la.size() || i >= lb.size())
            return fmt::format("its {} has {} lines in the first run and {} in the second", stream,
                               la.size(), lb.size());
        if (la[i] == lb[i]) continue;
        const bool declared = std::any_of(varies.begin(), varies.end(), [&](const std::regex& re) {
            return std::regex_search(la[i], re) && std::regex_search(lb[i], re);
        });
        if (!declared)
            return fmt::format(
                "its {} differs at line {}: \"{}\" in the first run, \"{}\" in the "
                "second",
                stream, i + 1, shown(la[i]), shown(lb[i]));
    }
    return "";
}

/// The keys of two JSON objects, together and in order.
std::set<std::string> keys_of_either(const json& a, const json& b) {
    std::set<std::string> keys;
    for (const json* object : {&a, &b})
        for (const auto& [k, v] : object->items()) keys.insert(k);
    return keys;
}

/// The run's --varies patterns; an Error naming the run at one that is no regex.
std::vector<std::regex> varies_patterns(const std::string& name,
                                        const std::vector<std::string>& varies) {
    std::vector<std::regex> out;
    for (const auto& v : varies) {
        try {
            out.emplace_back(v, std::regex::ECMAScript);
        } catch (const std::regex_error& e) {
            throw Error(fmt::format("run {}: --varies '{}' is not a regular expression: {}", name,
                                    v, e.what()));
        }
    }
    return out;
}

/// A CPU program's output must be the same at every run (the page shows one run
/// of it as the output of the sources): its second run, compared stream by
/// stream, text by text and result by result.
void check_same_output(const std::string& name, const std::vector<std::string>& varies_given,
                       const Attempt& first, const Attempt& second) {
    const auto varies = varies_patterns(name, varies_given);
    std::vector<std::string> found;
    auto compare = [&](const std::string& stream, const std::string& a, const std::string& b) {
        const std::string d = first_difference(stream, a, b, varies);
        if (!d.empty()) found.push_back(d);
    };
    compare("stdout", first.r.out, second.r.out);
    compare("stderr", first.r.err, second.r.err);
    const json& ta = first.reported["texts"];
    const json& tb = second.reported["texts"];
    for (const auto& k : keys_of_either(ta, tb))
        compare("text " + k, ta.contains(k) ? ta[k].get<std::string>() : "",
                tb.contains(k) ? tb[k].get<std::string>() : "");
    const json& ra = first.reported["results"];
    const json& rb = second.reported["results"];
    for (const auto& k : keys_of_either(ra, rb))
        if (!ra.contains(k) || !rb.contains(k) || ra[k] != rb[k])
            found.push_back(fmt::format("its result {} is {} in the first run and {} in the second",
                                        k, ra.contains(k) ? ra[k].dump() : "missing",
                                        rb.contains(k) ? rb[k].dump() : "missing"));
    if (found.empty()) return;
    std::string all;
    for (const auto& f : found) all += "\n  " + f;
    throw Error(fmt::format(
        "program {}: a CPU program's output must be the same at every run, but two runs of it "
        "differ:{}\nSeed what is random and print no time or address; or, where a line "
        "must vary, declare it: book_run({} ... VARIES <regex of the lines>)",
        name, all, name.substr(name.find('/') + 1)));
}

/// A CPU program that is not measured is run a second time: what it prints
/// must not change from run to run (beyond the lines its run declares).
void run_again_and_compare(const RunSpec& run, const LiveSpec& live, const Launch& launch,
                           const Attempt& first, const Schema& schema) {
    Attempt again = run_once(run, launch, live.timeout, 2, schema);
    const ProcessResult& r = again.r;
    if (r.timed_out || r.signal != 0 || r.exit_status != first.r.exit_status)
        throw Error(fmt::format(
            "program {} ({}), run a second time to compare its output, {} (the first run "
            "exited {}); last lines of its stderr:\n{}",
            run.name, live.command.at(0), describe_failure(r, live.timeout), first.r.exit_status,
            tail_lines(r.err, 15)));
    check_same_output(run.name, live.varies, first, again);
}

}  // namespace

std::optional<std::vector<Attempt>> run_repeats(const RunSpec& run, const LiveSpec& live,
                                                const Launch& launch, const Schema& schema) {
    // Each repeat is a fresh process: what one run leaves in the driver or the
    // caches (a module loaded, a warm L2) is never carried into the next.
    std::vector<Attempt> attempts;
    const std::string& exe = live.command.at(0);
    for (int i = 1; i <= run.repeats; ++i) {
        Attempt a = run_once(run, launch, live.timeout, i, schema);
        const ProcessResult& r = a.r;
        if (found_no_gpu(r)) {
            std::cerr << r.err;
            if (live.skip_without_gpu) return std::nullopt;
            throw Error(
                fmt::format("program {} ({}) found no GPU to run on (exit 77), but this build "
                            "runs GPU programs live",
                            run.name, exe));
        }
        if (r.timed_out || r.signal != 0 || (r.exit_status != 0 && !launch.may_fail))
            throw Error(fmt::format(
                "program {} ({}{}){} {}; last lines of its stderr:\n{}{}", run.name, exe,
                launch.sanitized ? " under compute-sanitizer " + launch.tool : "",
                run.repeats > 1 ? fmt::format(", repeat {} of {},", i, run.repeats) : "",
                describe_failure(r, live.timeout), tail_lines(r.err, 15),
                a.report.empty() ? ""
                                 : "\nthe sanitizer's report ends:\n" + tail_lines(a.report, 15)));
        attempts.push_back(std::move(a));
    }
    if (!run.gpu && !launch.sanitized && run.repeats == 1)
        run_again_and_compare(run, live, launch, attempts.front(), schema);
    return attempts;
}

double median_of(std::vector<double> v) {
    if (v.empty()) throw Error("the median of no values");
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

json median_results(const std::vector<json>& reps, const std::string& name) {
    if (reps.empty()) throw Error(fmt::format("program {}: no repeats", name));
    json medians = json::object();
    for (auto& [key, first] : reps.front().items()) {
        std::vector<double> values;
        bool integral = true;
        for (std::size_t i = 0; i < reps.size(); ++i) {
            if (!reps[i].contains(key))
                throw Error(
                    fmt::format("program {}: repeat {} did not report result '{}', which "
                                "repeat 1 did: every repeat must report the same results",
                                name, i + 1, key));
            const json& r = reps[i][key];
            if (r.at("unit") != first.at("unit"))
                throw Error(
                    fmt::format("program {}: result '{}' is in {} in repeat 1 and in {} in "
                                "repeat {}",
                                name, key, first["unit"].get<std::string>(),
                                r["unit"].get<std::string>(), i + 1));
            integral = integral && r.at("value").is_number_integer();
            values.push_back(r.at("value").get<double>());
        }
        const double m = median_of(values);
        json value = m;
        if (integral && std::floor(m) == m && std::fabs(m) < 9.0e15)
            value = static_cast<long long>(m);
        medians[key] = {{"value", value}, {"unit", first["unit"]}};
    }
    for (std::size_t i = 1; i < reps.size(); ++i)
        for (auto& [key, r] : reps[i].items())
            if (!reps.front().contains(key))
                throw Error(
                    fmt::format("program {}: repeat {} reported result '{}', which repeat "
                                "1 did not: every repeat must report the same results",
                                name, i + 1, key));
    return medians;
}

std::size_t nearest_repeat(const std::vector<json>& reps, const json& medians) {
    std::size_t best = 0;
    double best_distance = INFINITY;
    for (std::size_t i = 0; i < reps.size(); ++i) {
        double d = 0;
        for (auto& [key, m] : medians.items()) {
            const double mv = m.at("value").get<double>();
            const double v = reps[i].at(key).at("value").get<double>();
            const double scale = std::max(std::fabs(mv), 1e-30);
            d += std::fabs(v - mv) / scale;
        }
        if (d < best_distance) {
            best_distance = d;
            best = i;
        }
    }
    return best;
}

}  // namespace bookrun
