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
/// The wire: each message is CBOR (nlohmann's) behind a small head, and the raw
/// bytes of the large arrays it carries (packed<T>) after it (send_frame).
/// A request is {"f": name, "a": [arguments]}; an answer {"r": value} or
/// {"x": exception kind, "m": message}. The worker learns nothing else: not the
/// test set, not the test case, not the seed.
///
/// A worker that dies, answers out of turn or with a value of the wrong type
/// breaks the link: the call throws book::grade::worker_lost (no std::exception,
/// so no CHECK_THROWS_AS of the tests takes it), and the judge's main fails the
/// whole set whatever its assertions said (tools/grader/judge/judge_main.cpp).
#pragma once

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace book::grade {

using json = nlohmann::json;

/// The largest message either side accepts (a worker cannot make the judge
/// allocate without bound).
inline constexpr std::uint32_t kFrameLimit = 256u << 20;

/// A message's CBOR is parsed with a budget: at most this deep (the parser
/// recurses once per level) and this many values in all (each costs the judge
/// a node of its own, many times the byte it took on the wire). The book's
/// messages are a few levels deep and carry their large arrays packed, as bytes.
inline constexpr std::size_t kDepthLimit = 32;
inline constexpr std::size_t kValueLimit = std::size_t{1} << 20;

/// The most bytes of a string the worker sent (an exception's message, a
/// function's name) that the judge repeats in what it reports.
inline constexpr std::size_t kShownLimit = 2048;

/// `text`, cut to kShownLimit bytes with a note of how much was left out.
inline std::string shown(const std::string& text) {
    if (text.size() <= kShownLimit) return text;
    return text.substr(0, kShownLimit) + "[... " + std::to_string(text.size() - kShownLimit) +
           " more bytes cut]";
}

inline bool write_all(int fd, const void* data, std::size_t n) {
    const char* p = static_cast<const char*>(data);
    while (n > 0) {
        const ssize_t w = ::write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        p += w;
        n -= static_cast<std::size_t>(w);
    }
    return true;
}

inline bool read_all(int fd, void* data, std::size_t n) {
    char* p = static_cast<char*>(data);
    while (n > 0) {
        const ssize_t r = ::read(fd, p, n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return false;
        p += r;
        n -= static_cast<std::size_t>(r);
    }
    return true;
}

/// Arrays that travel as raw bytes after a message's CBOR (packed<T>): what the
/// message being written carries (filled by to_json), and what the message just
/// read carried (consumed by from_json).
inline std::vector<std::vector<std::uint8_t>>& outgoing_arrays() {
    thread_local std::vector<std::vector<std::uint8_t>> a;
    return a;
}
inline std::vector<std::vector<std::uint8_t>>& incoming_arrays() {
    thread_local std::vector<std::vector<std::uint8_t>> a;
    return a;
}

inline void put_le(unsigned char* p, std::uint64_t n, int bytes) {
    for (int i = 0; i < bytes; ++i) p[i] = static_cast<unsigned char>(n >> (8 * i));
}
inline std::uint64_t get_le(const unsigned char* p, int bytes) {
    std::uint64_t n = 0;
    for (int i = 0; i < bytes; ++i) n |= static_cast<std::uint64_t>(p[i]) << (8 * i);
    return n;
}

/// A message: its CBOR's length and the number of arrays (4 bytes each, little
/// endian), the CBOR, then each array as an 8-byte length and its bytes.
inline bool send_frame(int fd, const json& message) {
    std::vector<std::uint8_t> bytes(8);
    json::to_cbor(message, bytes);  // appends after the head
    auto& arrays = outgoing_arrays();
    const std::size_t size = bytes.size() - 8;
    std::uint64_t total = size;
    for (const auto& a : arrays) total += a.size();
    put_le(bytes.data(), size, 4);
    put_le(bytes.data() + 4, arrays.size(), 4);
    bool ok = total <= kFrameLimit && write_all(fd, bytes.data(), bytes.size());
    for (const auto& a : arrays) {
        unsigned char len[8];
        put_le(len, a.size(), 8);
        ok = ok && write_all(fd, len, 8) && write_all(fd, a.data(), a.size());
    }
    arrays.clear();
    return ok;
}

/// nlohmann's DOM builder with the budget above: it stops the parse (false)
/// before a level or a value past the budget costs anything.
class bounded_dom : public nlohmann::detail::json_sax_dom_parser<json> {
    using base = nlohmann::detail::json_sax_dom_parser<json>;

public:
    explicit bounded_dom(json& root) : base(root, false) {}
    std::string why;

    bool null() { return value() && base::null(); }
    bool boolean(bool v) { return value() && base::boolean(v); }
    bool number_integer(json::number_integer_t v) { return value() && base::number_integer(v); }
    bool number_unsigned(json::number_unsigned_t v) { return value() && base::number_unsigned(v); }
    bool number_float(json::number_float_t v, const json::string_t& s) {
        return value() && base::number_float(v, s);
    }
    bool string(json::string_t& v) { return value() && base::string(v); }
    bool binary(json::binary_t& v) { return value() && base::binary(v); }
    bool key(json::string_t& v) { return value() && base::key(v); }
    bool start_object(std::size_t n) { return open() && base::start_object(n); }
    bool start_array(std::size_t n) { return open() && base::start_array(n); }
    bool end_object() { return --depth_, base::end_object(); }
    bool end_array() { return --depth_, base::end_array(); }

private:
    bool value() {
        if (++values_ <= kValueLimit) return true;
        why = "a message of more than " + std::to_string(kValueLimit) + " values";
        return false;
    }
    bool open() {
        if (!value()) return false;
        if (++depth_ <= kDepthLimit) return true;
        why = "a message nested more than " + std::to_string(kDepthLimit) + " levels deep";
        return false;
    }
    std::size_t values_ = 0;
    std::size_t depth_ = 0;
};

/// One message, or false with why not in `why`.
inline bool receive_frame(int fd, json& message, std::string& why) {
    unsigned char head[8];
    if (!read_all(fd, head, 8)) {
        why = "the worker closed its end (it ended, or was ended)";
        return false;
    }
    const std::uint64_t n = get_le(head, 4);
    const std::uint64_t count = get_le(head + 4, 4);
    if (n > kFrameLimit || count > 4096) {
        why = "a message over the limits (" + std::to_string(n) + " bytes, " +
              std::to_string(count) + " arrays)";
        return false;
    }
    std::vector<std::uint8_t> bytes(n);
    if (!read_all(fd, bytes.data(), n)) {
        why = "a message cut short";
        return false;
    }
    auto& arrays = incoming_arrays();
    arrays.clear();
    std::uint64_t total = n;
    for (std::uint64_t i = 0; i < count; ++i) {
        unsigned char len[8];
        if (!read_all(fd, len, 8)) {
            why = "a message cut short";
            return false;
        }
        const std::uint64_t m = get_le(len, 8);
        total += m;
        if (m > kFrameLimit || total > kFrameLimit) {
            why = "a message over the limit of " + std::to_string(kFrameLimit) + " bytes";
            return false;
        }
        arrays.emplace_back(m);
        if (!read_all(fd, arrays.back().data(), m)) {
            why = "a message cut short";
            return false;
        }
    }
    message = json();
    bounded_dom dom(message);
    bool ok = false;
    try {
        ok = json::sax_parse(bytes, &dom, json::input_format_t::cbor, true);
    } catch (const json::exception&) {
        ok = false;
    }
    if (!ok) {
        why = dom.why.empty() ? "a message that is no CBOR" : dom.why;
        message = json();
        return false;
    }
    return true;
}

/// An array of plain values that travels as its bytes, after the message's CBOR
/// (which holds only its index): for the large arrays of a test.
template <class T>
struct packed {
    static_assert(std::is_trivially_copyable_v<T>);
    std::vector<T> values;
};

template <class T>
void to_json(json& j, const packed<T>& p) {
    const auto* b = reinterpret_cast<const std::uint8_t*>(p.values.data());
    auto& arrays = outgoing_arrays();
    arrays.emplace_back(b, b + p.values.size() * sizeof(T));
    j = json{{"packed", arrays.size() - 1}};
}

template <class T>
void from_json(const json& j, packed<T>& p) {
    const auto index = j.at("packed").get<std::size_t>();
    auto& arrays = incoming_arrays();
    if (index >= arrays.size()) throw std::invalid_argument("book::grade: no such array");
    const auto& bytes = arrays[index];
    if (bytes.size() % sizeof(T) != 0) throw std::invalid_argument("book::grade: a cut array");
    p.values.resize(bytes.size() / sizeof(T));
    if (!bytes.empty()) std::memcpy(p.values.data(), bytes.data(), bytes.size());
}

// ---- the worker's side ---------------------------------------------------------

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

// ---- the judge's side ----------------------------------------------------------

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
