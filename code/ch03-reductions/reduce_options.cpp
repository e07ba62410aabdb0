// The text forms of the reduce programs' command lines (see reduce_options.hpp).
#include "reduce_options.hpp"

#include <stdexcept>
#include <string>
#include <utility>

namespace ch03 {

namespace {

// A whole number in 1..max from text (digits only), or -1.
long whole_number(std::string_view text, long max) {
    if (text.empty() || text.size() > 9) return -1;
    long v = 0;
    for (char c : text) {
        if (c < '0' || c > '9') return -1;
        v = v * 10 + (c - '0');
    }
    return v >= 1 && v <= max ? v : -1;
}

std::vector<std::string_view> split(std::string_view text, char sep) {
    std::vector<std::string_view> parts;
    std::size_t from = 0;
    for (;;) {
        const std::size_t at = text.find(sep, from);
        parts.push_back(text.substr(from, at == std::string_view::npos ? at : at - from));
        if (at == std::string_view::npos) return parts;
        from = at + 1;
    }
}

}  // namespace

tuning parse_tuning(std::string_view text) {
    const std::vector<std::string_view> parts = split(text, 'x');
    long v[3] = {-1, -1, -1};
    if (parts.size() == 3)
        for (int k = 0; k < 3; ++k) v[k] = whole_number(parts[k], 100000);
    if (v[0] < 0 || v[1] < 0 || v[2] < 0)
        throw std::invalid_argument("'" + std::string(text) +
                                    "' is not a tuning: write threads x blocks per SM x unroll, "
                                    "like 256x4x4");
    const tuning t{static_cast<int>(v[0]), static_cast<int>(v[1]), static_cast<int>(v[2])};
    try {
        check_tuning(t);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument("tuning '" + std::string(text) + "': " + e.what());
    }
    return t;
}

launch_policy parse_policy(std::string_view text) {
    std::vector<size_rule> rules;
    const std::vector<std::string_view> parts = split(text, ',');
    for (std::size_t k = 0; k < parts.size(); ++k) {
        const std::string_view part = parts[k];
        const bool last = k + 1 == parts.size();
        const std::size_t colon = part.find(':');
        int bound = 0;
        std::string_view tune = part;
        if (colon != std::string_view::npos) {
            const std::string_view b = part.substr(0, colon);
            const long v = b.substr(0, 2) == "2e" ? whole_number(b.substr(2), 62) : -1;
            if (v < 0)
                throw std::invalid_argument("policy rule '" + std::string(part) + "': '" +
                                            std::string(b) +
                                            "' is not a size bound like 2e20 (2^20 floats)");
            bound = static_cast<int>(v);
            tune = part.substr(colon + 1);
        }
        if (last && bound != 0)
            throw std::invalid_argument(
                "policy rule '" + std::string(part) +
                "': the last rule takes every larger size: give it no bound");
        if (!last && bound == 0)
            throw std::invalid_argument("policy rule '" + std::string(part) +
                                        "': every rule but the last needs a bound like 2e20:");
        try {
            rules.push_back({bound, parse_tuning(tune)});
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument("policy rule '" + std::string(part) + "': " + e.what());
        }
    }
    try {
        return launch_policy(std::move(rules));
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument("policy '" + std::string(text) + "': " + e.what());
    }
}

variant parse_variant(std::string_view text) {
    for (const variant& v : all_variants()) {
        const std::string name = variant_text(v);
        if (text == name || (v.load == load_kind::plain && text == name.substr(0, name.find('.'))))
            return v;
    }
    std::string known;
    for (const variant& v : all_variants()) known += (known.empty() ? "" : ", ") + variant_text(v);
    throw std::invalid_argument("'" + std::string(text) +
                                "' is no variant; the variants: " + known);
}

std::vector<candidate> parse_candidates(std::string_view text) {
    std::vector<candidate> out;
    for (std::string_view part : split(text, ',')) {
        const std::size_t colon = part.find(':');
        if (colon == std::string_view::npos)
            throw std::invalid_argument("'" + std::string(part) +
                                        "' is not a candidate: write variant:tuning, like "
                                        "tiles.ldg:256x32x4");
        try {
            out.push_back(
                {parse_variant(part.substr(0, colon)), parse_tuning(part.substr(colon + 1))});
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument("candidate '" + std::string(part) + "': " + e.what());
        }
    }
    return out;
}

std::optional<std::string> take_text_option(int& argc, char** argv, std::string_view name) {
    std::optional<std::string> value;
    const std::string with_eq = std::string(name) + "=";
    int kept = 1;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == name) {
            if (i + 1 >= argc) throw std::invalid_argument(std::string(name) + " needs a value");
            value = argv[++i];
        } else if (a.substr(0, with_eq.size()) == with_eq) {
            value = std::string(a.substr(with_eq.size()));
        } else {
            argv[kept++] = argv[i];
        }
        if (value && value->empty())
            throw std::invalid_argument(std::string(name) + " needs a value, not an empty one");
    }
    if (argc > kept) argc = kept;
    return value;
}

}  // namespace ch03
