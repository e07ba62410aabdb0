// Exercise 2.3, shared-memory banks and padding: the hidden test set
// (tools/grade runs it; the student bundle and the reader's edition leave it
// out). Edge cases the visible set does not name: part of a warp, several
// bytes of one word, addresses beyond 4 GiB, a base address that is not 0,
// and what is refused.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include "banks.hpp"

using Addresses = std::vector<std::uint64_t>;

namespace {

// The header's definitions, written out by brute force: the bank of a word, the
// distinct words each bank delivers, and the pitch found by trying each one.
int reference_ways(const Addresses& addresses) {
    int most = 0;
    for (int bank = 0; bank < 32; ++bank) {
        std::vector<std::uint64_t> words;
        for (const std::uint64_t a : addresses)
            if ((a / 4) % 32 == static_cast<std::uint64_t>(bank) &&
                std::find(words.begin(), words.end(), a / 4) == words.end())
                words.push_back(a / 4);
        most = std::max(most, static_cast<int>(words.size()));
    }
    return most;
}

int reference_column_ways(int pitch, int column) {
    Addresses a;
    for (std::uint64_t lane = 0; lane < 32; ++lane)
        a.push_back(
            4 * (lane * static_cast<std::uint64_t>(pitch) + static_cast<std::uint64_t>(column)));
    return reference_ways(a);
}

int reference_pitch(int width) {
    for (int pitch = width;; ++pitch) {
        bool free = true;
        // Columns c and c + 32 of a row lie in the same bank: 32 columns say all.
        for (int column = 0; column < std::min(pitch, 32) && free; ++column)
            free = reference_column_ways(pitch, column) == 1;
        if (free) return pitch;
    }
}

// One warp's load, drawn: 1 to 32 lanes reading words of a few rows of a few
// banks (so that banks repeat and lanes share words), at a drawn base address,
// some of them at a byte inside the word.
Addresses drawn_load(std::mt19937_64& gen) {
    const std::uint64_t base = (gen() % 2 ? gen() >> 20 : gen() % 4096) & ~std::uint64_t{3};
    const std::uint64_t rows = 1 + gen() % 6, banks = 1 + gen() % 32;
    Addresses a(1 + gen() % 32);
    for (auto& address : a) address = base + 4 * ((gen() % rows) * 32 + gen() % banks) + gen() % 4;
    return a;
}

}  // namespace

TEST_CASE("loads and tiles drawn each run, against the definitions",
          "[ch02][exercise][ex03][hidden]") {
    std::mt19937_64 gen(Catch::rngSeed() + 31u);  // drawn each run (--rng-seed)
    for (int i = 0; i < 300; ++i) {
        const Addresses load = drawn_load(gen);
        CAPTURE(load);
        CHECK(ex03::conflict_ways(load) == reference_ways(load));
        const std::uint64_t far = gen();
        CAPTURE(far);
        CHECK(ex03::bank_of(far) == static_cast<int>((far / 4) % 32));
    }
    for (int i = 0; i < 100; ++i) {
        const int pitch = 1 + static_cast<int>(gen() % 100000);
        const int column = static_cast<int>(gen() % static_cast<std::uint64_t>(pitch));
        CAPTURE(pitch, column);
        CHECK(ex03::column_read_ways(pitch, column) == reference_column_ways(pitch, column));
        const int width = 1 + static_cast<int>(gen() % 100000);
        CAPTURE(width);
        CHECK(ex03::conflict_free_pitch(width) == reference_pitch(width));
    }
}

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
