/// @file grade_bridge.hpp
/// @brief The judge and the judged in two processes: how an exercise's test set
/// (the judge: Catch2, the checks, the references; trusted) calls the student's
/// functions, which run in another process (the worker: the student's code and a
/// small driver that reads inputs, calls the student's functions and writes what
/// they return; untrusted, sandboxed).
///
/// Each exercise has one bridge, tests/<key>/exercises/<ex>/bridge.cpp (or .cu),
/// compiled twice:
///  - with BOOK_GRADE_WORKER, into the worker: BOOK_GRADE_EXPORTS(e) { e.add("f",
///    &ns::f); ... } lists the functions the contract (EXERCISE_FUNCTIONS of
///    exercise.cmake) names, each taking and returning plain values;
///  - without it, into the judge: a definition of each function of the contract's
///    header that sends its arguments to the worker (book::grade::call) and
///    returns its answer, or throws what the student's function threw.
/// The test sets stay ordinary Catch2 tests calling the header's functions; only
/// what they are linked with differs (the student bundle links them with the
/// student's code directly).
///
/// The wire (grade_wire.hpp): each message is CBOR behind a small head, and the
/// raw bytes of the large arrays it carries (packed<T>) after it. A request is
/// {"f": name, "a": [arguments]}; an answer {"r": value} or {"x": exception
/// kind, "m": message}. The worker learns nothing else: not the
/// test set, not the test case, not the seed.
///
/// A worker that dies, answers out of turn or with a value of the wrong type
/// breaks the link: the call throws book::grade::worker_lost (no std::exception,
/// so no CHECK_THROWS_AS of the tests takes it), and the judge's main fails the
/// whole set whatever its assertions said (tools/grader/judge/judge_main.cpp).
///
/// This header is what a bridge includes: the wire, the worker's side
/// (grade_worker.hpp) and the judge's (grade_judge.hpp).
#pragma once

#include "grade_judge.hpp"
#include "grade_wire.hpp"
#include "grade_worker.hpp"
