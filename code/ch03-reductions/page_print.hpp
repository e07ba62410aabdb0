/// @file page_print.hpp
/// @brief printf for the chapter's programs, held to the width of a page.
///
/// The book shows the programs' output as it was printed, in a column of 80
/// characters. page_print prints what std::printf would, but first counts the
/// columns each line reaches (across calls, as a table row is often printed in
/// pieces) and refuses a line wider than the page: the program then fails with
/// an error that quotes the line, instead of the book showing a cut table.
#pragma once

#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ch03 {

/// The widest line a program of the chapter may print.
inline constexpr std::size_t page_columns = 80;

/// Tracks the column the output has reached.
class page_columns_counter {
public:
    /// The column after `text` when it starts at the current column, counting
    /// UTF-8 code points and starting again after each newline; the widest
    /// column reached goes to `widest`.
    std::size_t after(std::string_view text, std::size_t& widest) const {
        std::size_t column = column_;
        widest = column;
        for (char c : text) {
            if (c == '\n') {
                column = 0;
            } else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {  // not a continuation byte
                ++column;
                if (column > widest) widest = column;
            }
        }
        return column;
    }
    void set(std::size_t column) noexcept { column_ = column; }
    std::size_t column() const noexcept { return column_; }

private:
    std::size_t column_ = 0;
};

/// The column counter of this program's standard output.
inline page_columns_counter& stdout_columns() {
    static page_columns_counter counter;
    return counter;
}

/// Format like std::vsnprintf.
inline std::string format_text(const char* format, std::va_list args) {
    std::va_list again;
    va_copy(again, args);
    const int size = std::vsnprintf(nullptr, 0, format, again);
    va_end(again);
    if (size < 0) throw std::logic_error(std::string("bad format: ") + format);
    std::vector<char> buffer(static_cast<std::size_t>(size) + 1);
    std::vsnprintf(buffer.data(), buffer.size(), format, args);
    return std::string(buffer.data(), static_cast<std::size_t>(size));
}

/// Check `text` against the page's width at the counter's column and advance
/// the counter. @throws std::logic_error quoting the line that is too wide.
inline void fit_to_page(page_columns_counter& counter, std::string_view text) {
    std::size_t widest = 0;
    const std::size_t next = counter.after(text, widest);
    if (widest > page_columns) {
        const std::size_t end = text.find('\n');
        throw std::logic_error("an output line of " + std::to_string(widest) +
                               " columns is wider than the page (" + std::to_string(page_columns) +
                               "): '" + std::string(text.substr(0, end)) + "'");
    }
    counter.set(next);
}

/// std::printf, but a line wider than page_columns throws std::logic_error
/// (and nothing of it is printed).
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
inline void
page_print(const char* format, ...) {
    std::va_list args;
    va_start(args, format);
    std::string text;
    try {
        text = format_text(format, args);
    } catch (...) {
        va_end(args);
        throw;
    }
    va_end(args);
    fit_to_page(stdout_columns(), text);
    std::fputs(text.c_str(), stdout);
}

}  // namespace ch03
