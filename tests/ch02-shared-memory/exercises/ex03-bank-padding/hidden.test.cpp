// Exercise 2.3, shared-memory banks and padding: the hidden test set
// (tools/grade runs it; the student bundle and the reader's edition leave it
// out). Edge cases the visible set does not name: part of a warp, several
// bytes of one word, addresses beyond 4 GiB, a base address that is not 0,
// and what is refused.
#include <catch2/catch.hpp>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "banks.hpp"

using Addresses = std::vector<std::uint64_t>;

TEST_CASE("part of a warp", "[ch02][exercise][ex03][hidden]") {
    // 16 lanes at stride 2: words 0, 2, ..., 30, in 16 different banks.
    Addresses half;
    for (std::uint64_t lane = 0; lane < 16; ++lane) half.push_back(8 * lane);
    CHECK(ex03::conflict_ways(half) == 1);
    CHECK(ex03::conflict_ways(Addresses{0}) == 1);
    CHECK(ex03::conflict_ways(Addresses{0, 128, 256}) == 3);  // three words of bank 0
}

TEST_CASE("bytes of one word are one word", "[ch02][exercise][ex03][hidden]") {
    // Lane i reads byte 2i: lanes 2k and 2k + 1 read word k; 16 words, 16 banks.
    Addresses bytes;
    for (std::uint64_t lane = 0; lane < 32; ++lane) bytes.push_back(2 * lane);
    CHECK(ex03::conflict_ways(bytes) == 1);
    // Bytes 0..3 of word 0 and bytes 128..131 of word 32: two words of bank 0.
    CHECK(ex03::conflict_ways(Addresses{0, 1, 2, 3, 128, 129, 130, 131}) == 2);
}

TEST_CASE("the bank depends only on the word, at any address", "[ch02][exercise][ex03][hidden]") {
    const std::uint64_t far = (std::uint64_t{1} << 40) + 12;  // word 2^38 + 3
    CHECK(ex03::bank_of(far) == 3);
    Addresses stride32;
    for (std::uint64_t lane = 0; lane < 32; ++lane) stride32.push_back(far + 128 * lane);
    CHECK(ex03::conflict_ways(stride32) == 32);
    Addresses stride1;
    for (std::uint64_t lane = 0; lane < 32; ++lane) stride1.push_back(far + 4 * lane);
    CHECK(ex03::conflict_ways(stride1) == 1);
}

TEST_CASE("wide tiles need padding too", "[ch02][exercise][ex03][hidden]") {
    CHECK(ex03::column_read_ways(1024, 1023) == 32);
    CHECK(ex03::conflict_free_pitch(1024) == 1025);
    CHECK(ex03::conflict_free_pitch(1 << 20) == (1 << 20) + 1);
    CHECK(ex03::column_read_ways(1, 0) == 1);  // a tile one float wide: consecutive words
}

TEST_CASE("what is no warp's load or no tile is refused", "[ch02][exercise][ex03][hidden]") {
    CHECK_THROWS_AS(ex03::conflict_ways(Addresses{}), std::invalid_argument);
    CHECK_THROWS_AS(ex03::conflict_ways(Addresses(33, 0)), std::invalid_argument);
    CHECK_THROWS_AS(ex03::column_read_ways(0, 0), std::invalid_argument);
    CHECK_THROWS_AS(ex03::column_read_ways(32, 32), std::invalid_argument);
    CHECK_THROWS_AS(ex03::column_read_ways(32, -1), std::invalid_argument);
    CHECK_THROWS_AS(ex03::conflict_free_pitch(0), std::invalid_argument);
}
