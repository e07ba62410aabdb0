// Exercise 4.1, Little's law both ways (exercises/ch04-latency/ex01-knee):
// against the chapter's model (code/ch04-latency/little.hpp). The visible test
// set: shipped to students. The same tests are built against the starter (they
// must fail) and the solution (they must pass).
#include <catch2/catch.hpp>

#include <random>

#include "knee.hpp"
#include "little.hpp"

TEST_CASE("bytes in flight: every lane of every warp", "[ch04][exercise][ex01]") {
    CHECK(ch04ex1::bytes_in_flight(16, 4, 16) == 32768.0);
    CHECK(ch04ex1::bytes_in_flight(64, 1, 4) == 8192.0);
    std::mt19937 gen(Catch::rngSeed() + 1u);  // drawn each run (--rng-seed)
    for (int i = 0; i < 20; ++i) {
        const int warps = 1 + static_cast<int>(gen() % 64), loads = 1 + static_cast<int>(gen() % 8);
        const int width = 4 << (gen() % 3);
        CAPTURE(warps, loads, width);
        CHECK(ch04ex1::bytes_in_flight(warps, loads, width) ==
              ch04::bytes_in_flight(warps, loads, width));
    }
}

TEST_CASE("the knee: bandwidth x latency / SMs, in bytes", "[ch04][exercise][ex01]") {
    CHECK(ch04ex1::knee_bytes_per_sm(3.0, 600.0, 132) == Approx(1.8e6 / 132));
    std::mt19937 gen(Catch::rngSeed() + 2u);
    std::uniform_real_distribution<double> tbs(0.5, 8.0), latency(200.0, 1500.0);
    for (int i = 0; i < 20; ++i) {
        const double b = tbs(gen), l = latency(gen);
        const int sms = 16 + static_cast<int>(gen() % 160);
        CAPTURE(b, l, sms);
        CHECK(ch04ex1::knee_bytes_per_sm(b, l, sms) == Approx(ch04::knee_bytes_per_sm(b, l, sms)));
    }
}

TEST_CASE("the model's line: proportional below the knee, the ceiling above",
          "[ch04][exercise][ex01]") {
    const double ceiling = 3.2, latency = 700.0;
    const int sms = 132;
    const double knee = ch04::knee_bytes_per_sm(ceiling, latency, sms);
    CHECK(ch04ex1::predicted_tbs(knee / 4, sms, latency, ceiling) == Approx(ceiling / 4));
    CHECK(ch04ex1::predicted_tbs(knee / 2, sms, latency, ceiling) == Approx(ceiling / 2));
    CHECK(ch04ex1::predicted_tbs(knee * 3, sms, latency, ceiling) == Approx(ceiling));
    std::mt19937 gen(Catch::rngSeed() + 3u);
    std::uniform_real_distribution<double> bytes(256.0, 262144.0);
    for (int i = 0; i < 20; ++i) {
        const double b = bytes(gen);
        CAPTURE(b);
        CHECK(ch04ex1::predicted_tbs(b, sms, latency, ceiling) ==
              Approx(ch04::model_tbs(b, sms, latency, ceiling)));
    }
}

TEST_CASE("loads per lane to reach the knee", "[ch04][exercise][ex01]") {
    // 16 warps of 16-byte loads bring 8 KiB per load per lane: 20,000 bytes need 3.
    CHECK(ch04ex1::loads_to_reach(20000.0, 16, 16) == 3);
    CHECK(ch04ex1::loads_to_reach(8192.0, 16, 16) == 1);
    CHECK(ch04ex1::loads_to_reach(8193.0, 16, 16) == 2);
    CHECK(ch04ex1::loads_to_reach(100.0, 64, 16) == 1);  // already past it with one
}
