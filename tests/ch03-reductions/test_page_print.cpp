// page_print (code/ch03-reductions/page_print.hpp): the programs of chapter 3
// print no line wider than the book's page.
#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>

#include "page_print.hpp"

using ch03::fit_to_page;
using ch03::page_columns_counter;

TEST_CASE("page_print counts columns across calls and refuses a wide line", "[ch03][output]") {
    page_columns_counter c;
    CHECK_NOTHROW(fit_to_page(c, std::string(80, 'x')));  // exactly the page
    CHECK(c.column() == 80);
    CHECK_THROWS_WITH(fit_to_page(c, "y"),
                      Catch::Contains("81 columns") && Catch::Contains("(80)"));
    CHECK(c.column() == 80);  // nothing of a refused text counts

    page_columns_counter d;
    fit_to_page(d, "a table row, printed ");
    fit_to_page(d, "in pieces\n");
    CHECK(d.column() == 0);
    fit_to_page(d, std::string(50, 'x'));
    CHECK_THROWS_WITH(fit_to_page(d, std::string(31, 'z') + "\nshort\n"),
                      Catch::Contains("81 columns") && Catch::Contains("'zzz"));

    page_columns_counter e;  // a wide line after a newline in the same text
    CHECK_THROWS(fit_to_page(e, "short\n" + std::string(90, 'w') + "\n"));

    page_columns_counter f;  // UTF-8: a character, not a byte, is a column
    std::string accents;
    for (int i = 0; i < 80; ++i) accents += "\xc3\xa9";  // 80 x e-acute, 160 bytes
    CHECK_NOTHROW(fit_to_page(f, accents + "\n"));
}

TEST_CASE("format_text formats as printf does", "[ch03][output]") {
    auto format = [](const char* fmt, ...) {
        std::va_list args;
        va_start(args, fmt);
        std::string s = ch03::format_text(fmt, args);
        va_end(args);
        return s;
    };
    CHECK(format("%-6s|%5.2f|%zu", "ab", 3.14159, std::size_t{42}) == "ab    | 3.14|42");
    CHECK(format("%s", std::string(1000, 'q').c_str()).size() == 1000);
}
