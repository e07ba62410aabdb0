// Reading chapter 2's run records beyond their numbers: the value an expectation
// computed, and what the texts of a record say (Compute Sanitizer's reports, a
// kernel's SASS). Used by the chapter's check-yourself and claim tests; tested on
// excerpts of real reports by test_record_texts.cpp.
#pragma once

#include <catch2/catch.hpp>

#include <cstddef>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ch02test {

/// The value the expectation `id` of a record computed (value / over where it has
/// `over`): the number a chapter quotes with {value}`run:check:<id>`.
inline double check_value(const nlohmann::json& rec, const std::string& id) {
    INFO("record " << rec.value("name", "?") << ", check " << id);
    REQUIRE(rec.contains("checks"));
    for (const auto& c : rec.at("checks"))
        if (c.value("id", "") == id) {
            REQUIRE(c.contains("value"));
            return c.at("value").get<double>();
        }
    FAIL("the record has no check " << id);
    return 0;
}

/// The lines of a text.
inline std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

/// Does a memcheck report hold an error by thread (thread,0,0) in block
/// (block,0,0) whose description, within the next three lines, says `phrase`
/// ("before the nearest allocation", "after the nearest allocation")?
inline bool memcheck_says(const std::string& report, int thread, int block,
                          const std::string& phrase) {
    const std::string who = "by thread (" + std::to_string(thread) + ",0,0) in block (" +
                            std::to_string(block) + ",0,0)";
    const auto lines = lines_of(report);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].find(who) == std::string::npos) continue;
        for (std::size_t j = i + 1; j < lines.size() && j <= i + 3; ++j)
            if (lines[j].find(phrase) != std::string::npos) return true;
    }
    return false;
}

/// racecheck's summary line: "RACECHECK SUMMARY: H hazards displayed (E errors, W warnings)".
struct race_summary {
    long long hazards = 0, errors = 0, warnings = 0;
};

inline race_summary racecheck_summary(const std::string& report) {
    static const std::regex line(
        R"(RACECHECK SUMMARY: (\d+) hazards? displayed \((\d+) errors?, (\d+) warnings?\))");
    std::smatch m;
    INFO("racecheck report:\n" << report.substr(0, 2000));
    REQUIRE(std::regex_search(report, m, line));
    return {std::stoll(m[1]), std::stoll(m[2]), std::stoll(m[3])};
}

/// The count of the summary line "ERROR SUMMARY: N errors" (memcheck, synccheck,
/// initcheck), read as the runner reads it: the last line that ends so, not
/// "ERROR SUMMARY: M errors were not printed. ...", which a long report adds.
inline long long error_summary(const std::string& report) {
    static const std::regex summary(R"(ERROR SUMMARY: (\d+) errors?\s*)");
    long long count = -1;
    for (const auto& line : lines_of(report)) {
        const auto at = line.find("ERROR SUMMARY: ");
        std::smatch m;
        const std::string tail = at == std::string::npos ? "" : line.substr(at);
        if (std::regex_match(tail, m, summary)) count = std::stoll(m[1]);
    }
    INFO("report:\n" << report.substr(0, 2000));
    REQUIRE(count >= 0);
    return count;
}

/// threadIdx.x of every "by thread (x,0,0)" a report names, in order.
inline std::vector<int> reported_threads(const std::string& report) {
    static const std::regex who(R"(by thread \((\d+),0,0\))");
    std::vector<int> threads;
    for (auto it = std::sregex_iterator(report.begin(), report.end(), who);
         it != std::sregex_iterator(); ++it)
        threads.push_back(std::stoi((*it)[1]));
    return threads;
}

/// The global load instructions of a kernel's SASS (a record's sass:<kernel>
/// text): 16-byte loads (LDG.E.128...) and narrower ones.
struct load_count {
    int wide = 0, narrow = 0;
};

inline load_count global_loads(const std::string& sass) {
    static const std::regex ldg(R"(\bLDG\.E(\.\w+)*)");
    load_count c;
    for (const auto& line : lines_of(sass)) {
        std::smatch m;
        if (!std::regex_search(line, m, ldg)) continue;
        if (m.str().find(".128") != std::string::npos)
            ++c.wide;
        else
            ++c.narrow;
    }
    return c;
}

}  // namespace ch02test
