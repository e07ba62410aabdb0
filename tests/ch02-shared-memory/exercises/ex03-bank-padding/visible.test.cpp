// Exercise 2.3, shared-memory banks and padding
// (exercises/ch02-shared-memory/ex03-bank-padding): hand-worked answers (the
// arithmetic is in the comments), and the patterns the chapter measured with
// bank_conflicts (code/ch02-shared-memory/bank_conflicts.cu).
// The visible test set: shipped to students. The same tests are built against the
// starter (they must fail) and the solution (they must pass).
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "banks.hpp"

using Addresses = std::vector<std::uint64_t>;

namespace {

// Lane i reads the 4-byte word i * stride: the byte addresses of the warp.
Addresses strided_words(std::uint64_t stride, std::uint64_t first_word = 0) {
    Addresses a;
    for (std::uint64_t lane = 0; lane < 32; ++lane) a.push_back(4 * (first_word + lane * stride));
    return a;
}

}  // namespace

TEST_CASE("the bank of a byte address", "[ch02][exercise][ex03]") {
    CHECK(ex03::bank_of(0) == 0);
    CHECK(ex03::bank_of(4) == 1);
    CHECK(ex03::bank_of(124) == 31);  // word 31
    CHECK(ex03::bank_of(128) == 0);   // word 32 wraps round to bank 0
    CHECK(ex03::bank_of(131) == 0);   // the last byte of word 32
    CHECK(ex03::bank_of(4 * 33) == 1);
}

TEST_CASE("strided loads: the chapter's patterns", "[ch02][exercise][ex03]") {
    // bank_conflicts' rows: lane i reads word i * stride.
    CHECK(ex03::conflict_ways(strided_words(1)) == 1);  // 32 banks, one word each
    CHECK(ex03::conflict_ways(strided_words(2)) == 2);  // lanes i and i + 16 share a bank
    CHECK(ex03::conflict_ways(strided_words(3)) == 1);  // an odd stride visits every bank
    CHECK(ex03::conflict_ways(strided_words(4)) == 4);
    CHECK(ex03::conflict_ways(strided_words(8)) == 8);
    CHECK(ex03::conflict_ways(strided_words(16)) == 16);
    CHECK(ex03::conflict_ways(strided_words(32)) == 32);  // every lane in bank 0
    CHECK(ex03::conflict_ways(strided_words(33)) == 1);
    CHECK(ex03::conflict_ways(strided_words(64)) == 32);
}

TEST_CASE("lanes reading one word share it", "[ch02][exercise][ex03]") {
    CHECK(ex03::conflict_ways(Addresses(32, 256)) == 1);  // every lane: the same word
    // 16 lanes read word 0 and 16 read word 32: both in bank 0, two words.
    Addresses two;
    for (int lane = 0; lane < 32; ++lane) two.push_back(lane < 16 ? 0 : 128);
    CHECK(ex03::conflict_ways(two) == 2);
    // Lane i reads word i / 2: pairs of lanes share a word, 16 banks, one word each.
    Addresses pairs;
    for (std::uint64_t lane = 0; lane < 32; ++lane) pairs.push_back(4 * (lane / 2));
    CHECK(ex03::conflict_ways(pairs) == 1);
}

TEST_CASE("a column of a 32 x 32 tile, and of a padded one", "[ch02][exercise][ex03]") {
    for (int column = 0; column < 32; ++column) {
        CAPTURE(column);
        CHECK(ex03::column_read_ways(32, column) == 32);  // tile[i][c]: word 32 i + c, bank c
        CHECK(ex03::column_read_ways(33, column) == 1);   // word 33 i + c: bank (i + c) mod 32
    }
    CHECK(ex03::column_read_ways(34, 0) == 2);   // lanes i and i + 16 meet: 34 * 16 = 17 * 32
    CHECK(ex03::column_read_ways(48, 5) == 16);  // gcd(48, 32) = 16 lanes per bank
    CHECK(ex03::column_read_ways(31, 30) == 1);
}

TEST_CASE("the padding that removes the conflict", "[ch02][exercise][ex03]") {
    CHECK(ex03::conflict_free_pitch(32) == 33);  // the chapter's 32 x 33 tile
    CHECK(ex03::conflict_free_pitch(33) == 33);  // already conflict-free
    CHECK(ex03::conflict_free_pitch(64) == 65);
    CHECK(ex03::conflict_free_pitch(16) == 17);
    CHECK(ex03::conflict_free_pitch(1) == 1);
    for (int width = 1; width <= 100; ++width) {
        CAPTURE(width);
        const int pitch = ex03::conflict_free_pitch(width);
        REQUIRE(pitch >= width);
        for (int column = 0; column < pitch; ++column)
            REQUIRE(ex03::column_read_ways(pitch, column) == 1);
        for (int smaller = width; smaller < pitch; ++smaller)  // and no smaller pitch works
            CHECK(ex03::column_read_ways(smaller, 0) > 1);
    }
}
