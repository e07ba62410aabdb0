/// @file grade_judge.hpp
/// @brief The judge's side of the bridge (grade_bridge.hpp): call() sends a
/// request to the worker and returns its answer as the type the contract's
/// function returns, or throws what the student's function threw; a broken link
/// throws worker_lost. judge_main.cpp opens the link and checks the worker's
/// functions against the contract's (contract_functions).
#pragma once

#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "grade_wire.hpp"

namespace book::grade {

#if defined(BOOK_GRADE_FUNCTIONS) && !defined(BOOK_GRADE_WORKER)
/// The contract's functions (EXERCISE_FUNCTIONS), for the judge's main to check
/// the worker against: defined once, in the bridge's judge side.
const char* contract_functions() { return BOOK_GRADE_FUNCTIONS; }
#else
const char* contract_functions();
#endif

/// Thrown by call() once the link to the worker is broken. Not a std::exception:
/// a test's CHECK_THROWS_AS(..., std::invalid_argument) does not take it.
struct worker_lost {
    std::string why;
};

struct Link {
    int to_worker = -1;
    int from_worker = -1;
    std::string broken;  ///< why the link broke; empty while it holds
    long calls = 0;
};

inline Link& link() {
    static Link l;
    return l;
}

[[noreturn]] inline void lose(const std::string& why) {
    if (link().broken.empty()) link().broken = why;
    throw worker_lost{link().broken};
}

/// One request to the worker, its answer on success; throws what the student's
/// function threw (the kinds the worker tells apart) or worker_lost.
inline json request(const std::string& name, json args) {
    Link& l = link();
    if (!l.broken.empty()) throw worker_lost{l.broken};
    ++l.calls;
    if (!send_frame(l.to_worker, json{{"f", name}, {"a", std::move(args)}}))
        lose("the worker stopped reading (it ended, or was ended) before " + name);
    json answer;
    std::string why;
    if (!receive_frame(l.from_worker, answer, why)) lose(why + ", in " + name);
    if (!answer.is_object()) lose("an answer to " + name + " that is not an object");
    if (answer.contains("r")) return std::move(answer["r"]);
    const auto* kind_v = answer.contains("x") ? &answer["x"] : nullptr;
    const auto* what_v = answer.contains("m") ? &answer["m"] : nullptr;
    const std::string kind =
        kind_v != nullptr && kind_v->is_string() ? kind_v->get<std::string>() : "";
    // What the student's function threw: repeated in the report, so cut short.
    const std::string what = shown(
        what_v != nullptr && what_v->is_string() ? what_v->get<std::string>() : std::string{});
    if (kind == "invalid_argument") throw std::invalid_argument(what);
    if (kind == "length_error") throw std::length_error(what);
    if (kind == "out_of_range") throw std::out_of_range(what);
    if (kind == "domain_error") throw std::domain_error(what);
    if (kind == "logic_error") throw std::logic_error(what);
    if (kind == "runtime_error") throw std::runtime_error(what);
    if (kind == "exception" || kind == "unknown") throw std::runtime_error(what);
    lose("an answer to " + name + " with neither a value nor an exception");
}

/// Call the worker's function `name` with `args...`; its answer as an R.
template <class R, class... A>
R call(const std::string& name, const A&... args) {
    json answer = request(name, json::array({json(args)...}));
    if constexpr (std::is_void_v<R>) {
        return;
    } else {
        try {
            return answer.get<R>();
        } catch (const json::exception&) {
            lose("the answer of " + name + " is not of the type it returns");
        }
    }
}

}  // namespace book::grade
