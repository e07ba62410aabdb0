// Test support: the run records the built book shows (see book/test/records.hpp).
#include "book/test/records.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>

#ifndef BOOK_MANIFEST_PATH
#error "BOOK_MANIFEST_PATH must name <build>/book-manifest.json"
#endif

namespace book::test {
namespace {

nlohmann::json read_json(const std::string& path, const std::string& what) {
    std::ifstream in(path);
    INFO(what << " " << path);
    REQUIRE(in.good());
    try {
        return nlohmann::json::parse(in);
    } catch (const nlohmann::json::parse_error& e) {
        FAIL(what << " " << path << " is not JSON: " << e.what());
    }
    return {};
}

// BOOK_TEST_MANIFEST: another manifest, whose records may have one figure changed,
// for the mutation check of the answers (bookpy.build.answer_mutations).
const nlohmann::json& manifest() {
    static const nlohmann::json m = [] {
        const char* other = std::getenv("BOOK_TEST_MANIFEST");
        return read_json(other != nullptr && *other != 0 ? other : BOOK_MANIFEST_PATH,
                         "the build manifest");
    }();
    return m;
}

}  // namespace

nlohmann::json record_of(const std::string& run) {
    static std::map<std::string, nlohmann::json> cache;
    static std::mutex lock;
    const std::lock_guard<std::mutex> hold(lock);
    if (const auto at = cache.find(run); at != cache.end()) return at->second;
    const nlohmann::json& runs = manifest().at("runs");
    INFO("run " << run << " (declared runs: " << BOOK_MANIFEST_PATH << ")");
    if (!runs.contains(run))
        FAIL("no run " << run << " is declared: book_run(" << run.substr(run.find('/') + 1)
                       << " ...) in code/" << run.substr(0, run.find('/'))
                       << "/CMakeLists.txt is missing");
    const std::string path = runs.at(run).at("record").get<std::string>();
    nlohmann::json rec = read_json(path, "the run record of " + run);
    REQUIRE(rec.is_object());
    REQUIRE(rec.value("name", "") == run);
    return cache.emplace(run, std::move(rec)).first->second;
}

double result(const nlohmann::json& rec, const std::string& name) {
    INFO("result " << name << " of run " << rec.value("name", "?"));
    REQUIRE(rec.contains("results"));
    REQUIRE(rec.at("results").contains(name));
    const nlohmann::json& value = rec.at("results").at(name).at("value");
    REQUIRE(value.is_number());
    return value.get<double>();
}

std::string text(const nlohmann::json& rec, const std::string& name) {
    INFO("text " << name << " of run " << rec.value("name", "?"));
    REQUIRE(rec.contains("texts"));
    REQUIRE(rec.at("texts").contains(name));
    REQUIRE(rec.at("texts").at(name).is_string());
    return rec.at("texts").at(name).get<std::string>();
}

double answer_of(const std::string& answers_file, const std::string& qid, const std::string& name) {
    static std::map<std::string, nlohmann::json> cache;
    static std::mutex lock;
    const std::lock_guard<std::mutex> hold(lock);
    auto at = cache.find(answers_file);
    if (at == cache.end())
        at = cache.emplace(answers_file, read_json(answers_file, "the answers' figures")).first;
    INFO("answer value " << qid << ":" << name << " (" << answers_file << ")");
    REQUIRE(at->second.contains(qid));
    REQUIRE(at->second.at(qid).contains(name));
    nlohmann::json v = at->second.at(qid).at(name);
    if (v.is_object()) v = v.at("value");
    REQUIRE(v.is_number());
    // Which values were read: tools/bookpy/build/catch_run.py requires every value of a question
    // to be read by the tests tagged with it.
    if (const char* log = std::getenv("BOOK_ANSWERS_LOG"); log != nullptr && *log != 0) {
        std::ofstream out(log, std::ios::app);
        out << qid << "\t" << name << "\n";
    }
    return v.get<double>();
}

}  // namespace book::test
