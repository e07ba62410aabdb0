// Readers of the texts in chapter 3's run records (SASS and compute-sanitizer
// reports), shared by the check-yourself and chapter-claims tests. Each works
// on the text as the record holds it; a test that uses one fails with the line
// it looked for when the text does not have it.
#pragma once

#include <cstddef>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace ch03test {

/// The lines of a text.
inline std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

/// How many lines of `text` match the regular expression `pattern` (anywhere in
/// the line).
inline std::size_t count_lines(const std::string& text, const std::string& pattern) {
    const std::regex rx(pattern);
    std::size_t n = 0;
    for (const std::string& line : lines_of(text))
        if (std::regex_search(line, rx)) ++n;
    return n;
}

/// The index of the first line at or after `from` that matches `pattern`, or
/// the number of lines if none does.
inline std::size_t find_line(const std::vector<std::string>& lines, const std::string& pattern,
                             std::size_t from = 0) {
    const std::regex rx(pattern);
    for (std::size_t i = from; i < lines.size(); ++i)
        if (std::regex_search(lines[i], rx)) return i;
    return lines.size();
}

}  // namespace ch03test
