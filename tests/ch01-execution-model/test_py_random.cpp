// ch01::PyRandom against CPython. Every expected value below was printed by
// CPython 3.11 (repr of a float is the shortest text that reads back as the
// same double, so == compares bit for bit), for example:
//   python3 -c 'import random; random.seed(7); print([random.random() for _ in range(5)])'
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "py_random.hpp"

namespace {

std::vector<double> first_draws(ch01::PyRandom& rng, int count) {
    std::vector<double> draws;
    for (int i = 0; i < count; ++i) draws.push_back(rng.random());
    return draws;
}

}  // namespace

TEST_CASE("PyRandom matches CPython's random.random() for int seeds", "[ch01][py-random]") {
    struct Case {
        std::int64_t seed;
        std::vector<double> expected;
    };
    const std::vector<Case> cases = {
        {7,
         {0.32383276483316237, 0.15084917392450192, 0.6509344730398537, 0.07243628666754276,
          0.5358820043066892}},
        {0,
         {0.8444218515250481, 0.7579544029403025, 0.420571580830845, 0.25891675029296335,
          0.5112747213686085}},
        {1,
         {0.13436424411240122, 0.8474337369372327, 0.763774618976614, 0.2550690257394217,
          0.49543508709194095}},
        {12345,
         {0.41661987254534116, 0.010169169457068361, 0.8252065092537432, 0.2986398551995928,
          0.3684116894884757}},
        // 2**40: a key of two 32-bit words, [0, 256].
        {std::int64_t{1} << 40,
         {0.1036394562812375, 0.6705558677439764, 0.4266543913526999, 0.38773077278691204,
          0.6264862385425468}},
        // 2**32: the zero low word stays in the key, [0, 1].
        {std::int64_t{1} << 32, {0.11299430095636409, 0.41782886486292836}},
    };
    for (const Case& c : cases) {
        INFO("seed " << c.seed);
        ch01::PyRandom rng(c.seed);
        const std::vector<double> got = first_draws(rng, static_cast<int>(c.expected.size()));
        for (std::size_t i = 0; i < got.size(); ++i) {
            INFO("draw " << i);
            CHECK(got[i] == c.expected[i]);
        }
    }
}

TEST_CASE("PyRandom's raw 32-bit outputs match random.getrandbits(32)", "[ch01][py-random]") {
    // python3 -c 'import random; random.seed(7); print([random.getrandbits(32) for _ in range(4)])'
    ch01::PyRandom rng(7);
    CHECK(rng.next_u32() == 1390851128U);
    CHECK(rng.next_u32() == 4071050724U);
    CHECK(rng.next_u32() == 647892279U);
    CHECK(rng.next_u32() == 1695753998U);
}

TEST_CASE("PyRandom stays in step past several state refills", "[ch01][py-random]") {
    // The 1001st draw uses outputs 2001 and 2002: the state was twisted 4 times.
    // r = random.Random(7); [r.random() for _ in range(1000)]; r.random()
    ch01::PyRandom rng(7);
    for (int i = 0; i < 1000; ++i) rng.random();
    CHECK(rng.random() == 0.950867979111096);
}

TEST_CASE("PyRandom seeds as CPython does: absolute value, key words, re-seeding",
          "[ch01][py-random]") {
    SECTION("a negative seed is its absolute value") {
        ch01::PyRandom neg(-7);
        CHECK(neg.random() == 0.32383276483316237);
    }
    SECTION("an empty key is the key [0], which is seed 0") {
        ch01::PyRandom rng(123);
        rng.seed_by_array({});
        CHECK(rng.random() == 0.8444218515250481);
    }
    SECTION("an explicit key reaches integers wider than 64 bits") {
        // random.seed(2**64 + 5): the key [5, 0, 1].
        ch01::PyRandom rng(0);
        rng.seed_by_array({5U, 0U, 1U});
        CHECK(rng.random() == 0.5105783769365112);
        CHECK(rng.random() == 0.8797586528012199);
    }
    SECTION("seed() restarts the sequence") {
        ch01::PyRandom rng(1);
        rng.random();
        rng.random();
        rng.seed(7);
        CHECK(rng.random() == 0.32383276483316237);
    }
    SECTION("the most negative 64-bit seed does not overflow") {
        // random.seed(-2**63) is random.seed(2**63): the key [0, 2**31].
        ch01::PyRandom rng(INT64_MIN);
        CHECK(rng.random() == 0.5534639983914199);
    }
}
