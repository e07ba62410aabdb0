// Exercise 2.3, shared-memory banks and padding
// (exercises/ch02-shared-memory/ex03-bank-padding): hand-worked answers (the
// arithmetic is in the comments), and the patterns the chapter measured with
// bank_conflicts (code/ch02-shared-memory/bank_conflicts.cu).
// The visible test set: shipped to students. The same tests are built against the
// starter (they must fail) and the solution (they must pass).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
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
        CHECK(ex03::conflict_free_pitch(width) == reference_pitch(width));
    }
}

TEST_CASE("loads drawn each run, against the definitions", "[ch02][exercise][ex03]") {
    std::mt19937_64 gen(Catch::rngSeed() + 3u);  // drawn each run (--rng-seed)
    for (int i = 0; i < 200; ++i) {
        const Addresses load = drawn_load(gen);
        CAPTURE(load);
        CHECK(ex03::bank_of(load[0]) == static_cast<int>((load[0] / 4) % 32));
        CHECK(ex03::conflict_ways(load) == reference_ways(load));
    }
    for (int i = 0; i < 100; ++i) {
        const int pitch = 1 + static_cast<int>(gen() % 300);
        const int column = static_cast<int>(gen() % static_cast<std::uint64_t>(pitch));
        CAPTURE(pitch, column);
        CHECK(ex03::column_read_ways(pitch, column) == reference_column_ways(pitch, column));
        const int width = 100 + static_cast<int>(gen() % 5000);
        CAPTURE(width);
        CHECK(ex03::conflict_free_pitch(width) == reference_pitch(width));
    }
}
