// The one Catch2 main for every test program of the book.
// Listings (--list-tags, --list-tests: how the build reads the check-yourself
// tags) are not wrapped at 80 columns.
#define CATCH_CONFIG_CONSOLE_WIDTH 300
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
