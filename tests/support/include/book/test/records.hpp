// Test support: the run records the built book shows, for Catch2 tests.
//
//   const auto rec = book::test::record("ch01-execution-model/div-sweep");
//   CHECK(book::test::result(rec, "ratio_w32") > 1.8);
//
// In a chapter's own tests (tests/<key>/, where book_catch_test defines
// BOOK_TEST_CHAPTER), a run of that chapter may be named alone, as the chapter's
// text names it: record("div-sweep").
//
// A record is the one the book's pages show: <build>/records/<key>/<run>.json,
// produced by this build (live, or imported from the committed recording where
// the GPU does not run here). Only runs the build declares (book_run, listed in
// <build>/book-manifest.json) can be read, so a record left over from a deleted
// run never satisfies a test. Each helper fails the test (REQUIRE) with what is
// missing and where it looked.
#pragma once

#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

namespace book::test {

/// The record of run `<key>/<run>` that the built book shows.
nlohmann::json record_of(const std::string& key);

/// The record of `run`: a full key `<key>/<run>`, or, in a test of a chapter's
/// folder, a run of that chapter named alone.
inline nlohmann::json record(const std::string& run) {
#ifdef BOOK_TEST_CHAPTER
    if (run.find('/') == std::string::npos) return record_of(BOOK_TEST_CHAPTER "/" + run);
#endif
    return record_of(run);
}

/// The value of result `name` of a record (a number the program reported).
double result(const nlohmann::json& record, const std::string& name);

/// The text `name` of a record (for example `sass:diverge`).
std::string text(const nlohmann::json& record, const std::string& name);

/// A figure that the answer of check-yourself question `qid` states: the value
/// `name` of tests/<key>/answers.json, the one place the page ({answer}`name`
/// inside the question) and the test read it from. Compare it with what the
/// model or a record computes:
///
///   CHECK(book::test::answer("ch01-block-of-48", "warps") == ch01::warps_of(48));
///
/// Every value of a question must be read by each test tagged [cy:<qid>]
/// (tools/bookpy/build/catch_run.py checks it), so a figure the page states is never left
/// unchecked.
double answer_of(const std::string& answers_file, const std::string& qid, const std::string& name);

#ifdef BOOK_TEST_ANSWERS
inline double answer(const std::string& qid, const std::string& name) {
    // BOOK_TEST_ANSWERS_FILE: another copy of the file, with one figure changed, for
    // the mutation check of the answers (bookpy.build.answer_mutations).
    const char* other = std::getenv("BOOK_TEST_ANSWERS_FILE");
    return answer_of(other != nullptr && *other != 0 ? other : BOOK_TEST_ANSWERS, qid, name);
}
#endif

}  // namespace book::test
