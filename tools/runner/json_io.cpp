// Reading and writing the runner's files: JSON with the line of every value
// (so that an error names file and line), whole files, and atomic writes.
#include <unistd.h>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "runner.hpp"

namespace fs = std::filesystem;

namespace bookrun {

namespace {

/// Walks a JSON text as nlohmann's parser reads it, counting lines.
struct CountingIterator {
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;
    const char* p = nullptr;
    int* line = nullptr;
    int* last = nullptr;  // the line of the last character read that is not white space
    reference operator*() const { return *p; }
    CountingIterator& operator++() {
        // (The lexer reads one character past a number: that is white space or
        // punctuation, so a token's line is that of its last non-space character.)
        if (*p == '\n')
            ++*line;
        else if (*p != ' ' && *p != '\t' && *p != '\r')
            *last = *line;
        ++p;
        return *this;
    }
    CountingIterator operator++(int) {
        auto old = *this;
        ++*this;
        return old;
    }
    bool operator==(const CountingIterator& o) const { return p == o.p; }
    bool operator!=(const CountingIterator& o) const { return p != o.p; }
};

/// A SAX handler that notes the line of every value by its JSON pointer.
struct LineNotes {
    struct Frame {
        std::string pointer;
        bool array = false;
        std::size_t next = 0;
        std::string key_pointer;
    };
    const int* line;
    std::map<std::string, int> lines;
    std::vector<Frame> stack;

    static std::string escape(const std::string& key) {
        std::string out;
        for (char c : key)
            out += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
        return out;
    }
    std::string value_start() {
        if (stack.empty()) {
            lines.emplace("", *line);
            return "";
        }
        auto& top = stack.back();
        if (!top.array) return top.key_pointer;
        std::string p = top.pointer + "/" + std::to_string(top.next++);
        lines.emplace(p, *line);
        return p;
    }
    bool scalar() {
        value_start();
        return true;
    }
    bool null() { return scalar(); }
    bool boolean(bool) { return scalar(); }
    bool number_integer(json::number_integer_t) { return scalar(); }
    bool number_unsigned(json::number_unsigned_t) { return scalar(); }
    bool number_float(json::number_float_t, const std::string&) { return scalar(); }
    bool string(std::string&) { return scalar(); }
    bool binary(json::binary_t&) { return scalar(); }
    bool start_object(std::size_t) {
        stack.push_back({value_start(), false, 0, ""});
        return true;
    }
    bool key(std::string& k) {
        stack.back().key_pointer = stack.back().pointer + "/" + escape(k);
        lines.emplace(stack.back().key_pointer, *line);
        return true;
    }
    bool end_object() {
        stack.pop_back();
        return true;
    }
    bool start_array(std::size_t) {
        stack.push_back({value_start(), true, 0, ""});
        return true;
    }
    bool end_array() {
        stack.pop_back();
        return true;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) {
        return false;
    }
};

}  // namespace

json parse_with_lines(const std::string& text, const std::string& path) {
    try {
        return json::parse(text);
    } catch (const json::parse_error& e) {
        size_t stop = std::min<size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
        long line = 1 + std::count(text.begin(), text.begin() + static_cast<long>(stop), '\n');
        throw Error(fmt::format("{}:{}: malformed JSON: {}", path, line, e.what()));
    }
}

std::map<std::string, int> json_lines(const std::string& text) {
    int line = 1, token_line = 1;
    LineNotes notes{&token_line, {}, {}};
    CountingIterator first{text.data(), &line, &token_line};
    CountingIterator last{text.data() + text.size(), &line, &token_line};
    json::sax_parse(first, last, &notes);
    return notes.lines;
}
std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(fmt::format("{}: cannot read the file", path));
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

json read_json_file(const std::string& path) { return parse_with_lines(read_file(path), path); }

void write_file_atomically(const std::string& path, const std::string& text) {
    fs::path p(path);
    if (p.has_parent_path()) fs::create_directories(p.parent_path());
    std::string tmp = fmt::format("{}.tmp.{}", path, ::getpid());
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << text;
        out.flush();
        if (!out) {
            std::remove(tmp.c_str());
            throw Error(fmt::format("{}: cannot write", tmp));
        }
    }
    fs::rename(tmp, path);
}

}  // namespace bookrun
