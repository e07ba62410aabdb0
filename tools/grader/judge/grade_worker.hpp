/// @file grade_worker.hpp
/// @brief The worker's side of the bridge (grade_bridge.hpp): the functions a
/// worker exposes by name (Exports, filled by the bridge's BOOK_GRADE_EXPORTS),
/// each called with the arguments of a request and answering its value, and the
/// timed harness of speed grading (Timed, timed_request). worker_main.cpp serves
/// the requests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "grade_wire.hpp"

namespace book::grade {

namespace detail {

template <class F>
struct signature : signature<decltype(&F::operator())> {};
template <class R, class... A>
struct signature<R (*)(A...)> {
    using result = R;
    using args = std::tuple<std::decay_t<A>...>;
};
template <class R, class C, class... A>
struct signature<R (C::*)(A...) const> {
    using result = R;
    using args = std::tuple<std::decay_t<A>...>;
};

template <class F, class Tuple, std::size_t... I>
json apply(F& f, const json& a, std::index_sequence<I...>) {
    using R = typename signature<F>::result;
    Tuple t{a.at(I).template get<std::tuple_element_t<I, Tuple>>()...};
    if constexpr (std::is_void_v<R>) {
        std::apply(f, std::move(t));
        return nullptr;
    } else {
        return json(std::apply(f, std::move(t)));
    }
}

}  // namespace detail

/// A timed harness (speed grading: tools/grader/speed.py, speed_judge.cpp): trusted
/// test code, compiled into the worker with the bridge, that times nothing itself.
///  - prepare(params): before the judge's clock runs; allocates, warms up the
///    student's code on an input of its own, and learns no seed;
///  - go(seed, null): while the judge's clock runs; makes the inputs from the seed
///    (on the device, for a GPU exercise), flushes the L2 before each call, calls
///    the student's function on each and waits for the device, and returns every
///    output, which the grader compares with the reference's for the seed. With
///    null, all of it but the calls: the harness's own cost, which the grader
///    times in the reference's worker only and takes off both sides' times.
/// The seed comes only with "go": code in the worker can read whatever the
/// harness holds, so nothing it could work on may exist before the clock starts.
struct Timed {
    std::function<void(const json& params)> prepare;
    std::function<json(std::uint64_t seed, bool null)> go;
};

/// The functions a worker exposes, by name.
class Exports {
public:
    /// A timed harness, named for the judge's "#prepare" (not one of the contract's
    /// functions: the list "?" answers leaves it out).
    void timed(const std::string& name, Timed t) { timed_[name] = std::move(t); }
    Timed* find_timed(const std::string& name) {
        const auto it = timed_.find(name);
        return it == timed_.end() ? nullptr : &it->second;
    }

    template <class F>
    void add(const std::string& name, F f) {
        using Args = typename detail::signature<F>::args;
        table_[name] = [f](const json& a) mutable -> json {
            if (!a.is_array() || a.size() != std::tuple_size_v<Args>)
                throw std::invalid_argument("book::grade: wrong number of arguments");
            return detail::apply<F, Args>(f, a,
                                          std::make_index_sequence<std::tuple_size_v<Args>>{});
        };
        names_.push_back(name);
    }
    const std::vector<std::string>& names() const { return names_; }
    const std::function<json(const json&)>* find(const std::string& name) const {
        const auto it = table_.find(name);
        return it == table_.end() ? nullptr : &it->second;
    }

private:
    std::map<std::string, std::function<json(const json&)>> table_;
    std::vector<std::string> names_;
    std::map<std::string, Timed> timed_;
};

/// The worker's answer to a request of the timed protocol ("#prepare" [name,
/// params], then "#go" [seed] or [seed, null], as often as the judge likes), or nullptr when
/// `name` is not one of its words. One harness is prepared at a time.
inline json timed_request(Exports& e, const std::string& name, const json& a) {
    thread_local Timed* prepared = nullptr;
    if (name == "#prepare") {
        if (!a.is_array() || a.size() != 2 || !a[0].is_string())
            throw std::invalid_argument("book::grade: #prepare takes a name and parameters");
        Timed* t = e.find_timed(a[0].get<std::string>());
        if (t == nullptr)
            throw std::logic_error("book::grade: no timed harness " +
                                   shown(a[0].get<std::string>()));
        prepared = nullptr;
        t->prepare(a[1]);
        prepared = t;
        return json{{"r", "ready"}};
    }
    if (name == "#go") {
        if (prepared == nullptr) throw std::logic_error("book::grade: #go before #prepare");
        if (!a.is_array() || a.empty() || a.size() > 2 || !a[0].is_number_unsigned() ||
            (a.size() == 2 && !a[1].is_boolean()))
            throw std::invalid_argument("book::grade: #go takes a seed (and null)");
        return json{
            {"r", prepared->go(a[0].get<std::uint64_t>(), a.size() == 2 && a[1].get<bool>())}};
    }
    return nullptr;
}

/// The bridge's worker side: BOOK_GRADE_EXPORTS(e) { e.add(...); }
#define BOOK_GRADE_EXPORTS(e) void book_grade_exports(::book::grade::Exports& e)

}  // namespace book::grade
