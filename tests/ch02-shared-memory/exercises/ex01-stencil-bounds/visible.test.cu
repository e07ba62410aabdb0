// Exercise 2.1, the stencil at the ends of the array
// (exercises/ch02-shared-memory/ex01-stencil-bounds): stencil_clamped against a
// CPU reference. A GPU test: its main (the book's GPU Catch2 main, catch_gpu_main.cpp) exits
// 77, "skipped", where no GPU is.
// The visible test set: shipped to students. The same tests are built against the
// starter (they must fail) and the solution (they must pass).
// The inputs, the reference, the comparison and the guarded launch are in
// stencil_check.cuh, which the hidden set uses too.
#include <catch2/catch.hpp>

#include <vector>

#include "stencil_bounds.cuh"
#include "stencil_check.cuh"

using namespace ex01_check;

TEST_CASE("nothing outside the array is read or written", "[ch02][exercise][ex01][gpu]") {
    const int n = GENERATE(1, 5, 256, 1000, 1024);
    const int radius = GENERATE(1, 3, 8);
    CAPTURE(n, radius);
    const auto in = whole_numbers(static_cast<std::size_t>(n), 7u + static_cast<unsigned>(n));
    const guarded_run r = run_guarded(in, radius);
    CHECK(first_difference(r.out, clamped_reference(in, radius)) == "");
    CHECK(r.guard_writes == 0);
}

TEST_CASE("sizes that are not a multiple of the block", "[ch02][exercise][ex01][gpu]") {
    const int n = GENERATE(255, 257, 1000, 4097, 100003);
    const int radius = GENERATE(1, 3, 16);
    CAPTURE(n, radius);
    const auto in = whole_numbers(static_cast<std::size_t>(n), 11u + static_cast<unsigned>(n));
    CHECK(first_difference(ex01::stencil_on_gpu(in, radius), clamped_reference(in, radius)) == "");
}

TEST_CASE("arrays shorter than the window", "[ch02][exercise][ex01][gpu]") {
    // n <= 2R: every window runs past both ends; with n = 1 each output is
    // (2R + 1) * in[0].
    const int n = GENERATE(1, 2, 3, 7);
    const int radius = GENERATE(3, 8);
    CAPTURE(n, radius);
    const auto in = whole_numbers(static_cast<std::size_t>(n), 3u + static_cast<unsigned>(n));
    CHECK(first_difference(ex01::stencil_on_gpu(in, radius), clamped_reference(in, radius)) == "");
    const guarded_run r = run_guarded(in, radius);
    CHECK(first_difference(r.out, clamped_reference(in, radius)) == "");
    CHECK(r.guard_writes == 0);
}

TEST_CASE("the ends repeat the edge values", "[ch02][exercise][ex01][gpu]") {
    // in = 1, 2, ..., 10 with R = 3: out[0] = 1 + 1 + 1 + 1 + 2 + 3 + 4 = 13 and
    // out[9] = 7 + 8 + 9 + 10 + 10 + 10 + 10 = 64.
    std::vector<float> in(10);
    for (int i = 0; i < 10; ++i) in[static_cast<std::size_t>(i)] = static_cast<float>(i + 1);
    const auto out = ex01::stencil_on_gpu(in, 3);
    REQUIRE(out.size() == 10);
    CHECK(out[0] == 13.0f);
    CHECK(out[1] == 1.0f + 1.0f + 1.0f + 2.0f + 3.0f + 4.0f + 5.0f);
    CHECK(out[5] == 3.0f + 4.0f + 5.0f + 6.0f + 7.0f + 8.0f + 9.0f);
    CHECK(out[9] == 64.0f);
}

TEST_CASE("a radius wider than a warp", "[ch02][exercise][ex01][gpu]") {
    const int n = GENERATE(1000, 5000);
    const int radius = GENERATE(33, 100);
    CAPTURE(n, radius);
    const auto in = whole_numbers(static_cast<std::size_t>(n), 5u + static_cast<unsigned>(n));
    const guarded_run r = run_guarded(in, radius);
    CHECK(first_difference(r.out, clamped_reference(in, radius)) == "");
    CHECK(r.guard_writes == 0);
}

TEST_CASE("an empty array gives no outputs", "[ch02][exercise][ex01][gpu]") {
    CHECK(ex01::stencil_on_gpu({}, 3).empty());
}
