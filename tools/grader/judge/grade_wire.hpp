/// @file grade_wire.hpp
/// @brief The wire between the judge and the worker (grade_bridge.hpp): each
/// message is CBOR (nlohmann's) behind a small head, and the raw bytes of the
/// large arrays it carries (packed<T>) after it (send_frame). Both sides read a
/// message under the same limits (receive_frame), so that neither can make the
/// other allocate or recurse without bound.
#pragma once

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
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

}  // namespace book::grade
