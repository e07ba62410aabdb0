// Exercise 4.1, Little's law both ways: the hidden test set (tools/grade runs
// it; the student bundle and the reader's edition leave it out). The same
// promises on cases the visible set does not name: the fewest loads, checked
// to be enough and to be the fewest; a knee exactly on a load's boundary; the
// model's line at the knee itself.
#include <catch2/catch.hpp>

#include <random>

#include "knee.hpp"
#include "little.hpp"

TEST_CASE("the fewest loads: enough, and one fewer is not", "[ch04][exercise][ex01][hidden]") {
    std::mt19937 gen(Catch::rngSeed() + 41u);  // drawn each run (--rng-seed)
    std::uniform_real_distribution<double> knee(1000.0, 200000.0);
    for (int i = 0; i < 40; ++i) {
        const double k = knee(gen);
        const int warps = 1 + static_cast<int>(gen() % 64), width = 4 << (gen() % 3);
        CAPTURE(k, warps, width);
        const int loads = ch04ex1::loads_to_reach(k, warps, width);
        CHECK(loads >= 1);
        CHECK(ch04::bytes_in_flight(warps, loads, width) >= k);
        if (loads > 1) CHECK(ch04::bytes_in_flight(warps, loads - 1, width) < k);
    }
    // On the boundary: exactly 2 loads' worth needs 2, not 3.
    CHECK(ch04ex1::loads_to_reach(ch04::bytes_in_flight(8, 2, 8), 8, 8) == 2);
}

TEST_CASE("at the knee the line meets the ceiling", "[ch04][exercise][ex01][hidden]") {
    std::mt19937 gen(Catch::rngSeed() + 43u);
    std::uniform_real_distribution<double> tbs(0.5, 8.0), latency(200.0, 1500.0);
    for (int i = 0; i < 20; ++i) {
        const double b = tbs(gen), l = latency(gen);
        const int sms = 16 + static_cast<int>(gen() % 160);
        CAPTURE(b, l, sms);
        const double knee = ch04ex1::knee_bytes_per_sm(b, l, sms);
        CHECK(ch04ex1::predicted_tbs(knee, sms, l, b) == Approx(b));
        CHECK(ch04ex1::predicted_tbs(0.5 * knee, sms, l, b) == Approx(0.5 * b));
        CHECK(ch04ex1::bytes_in_flight(1, 1, 4) == 128.0);
    }
}
