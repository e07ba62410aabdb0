// Exercise 2.4, two steps per trip to memory
// (exercises/ch02-shared-memory/ex04-two-steps): two_steps against two
// applications of a CPU reference. A GPU test: its main
// (the book's GPU Catch2 main, catch_gpu_main.cpp) exits 77, "skipped", where no GPU is.
// The visible test set: shipped to students. The same tests are built against the
// starter (they must fail) and the solution (they must pass).
// The inputs, the reference, the comparison and the guarded launch are in
// two_steps_check.cuh, which the hidden set uses too.
#include <catch2/catch.hpp>

#include <vector>

#include "two_steps.cuh"
#include "two_steps_check.cuh"

using namespace ex04_check;

TEST_CASE("two steps, nothing outside the array read or written", "[ch02][exercise][ex04][gpu]") {
    // n = 6 and 7: the array ends within the halo of 2R; n = 1000: four blocks.
    const int n = GENERATE(1, 5, 6, 7, 12, 256, 1000);
    CAPTURE(n);
    const auto in = whole_numbers(static_cast<std::size_t>(n), 7u + static_cast<unsigned>(n));
    const guarded_run r = run_guarded(in);
    CHECK(first_difference(r.out, two_steps_reference(in)) == "");
    CHECK(r.guard_writes == 0);
}

TEST_CASE("two steps, sizes that are not a multiple of the block", "[ch02][exercise][ex04][gpu]") {
    const int n = GENERATE(255, 257, 1000, 4097);
    CAPTURE(n);
    const auto in = whole_numbers(static_cast<std::size_t>(n), 11u + static_cast<unsigned>(n));
    CHECK(first_difference(ex04::two_steps_on_gpu(in), two_steps_reference(in)) == "");
}

TEST_CASE("the first step is 0 outside the array too", "[ch02][exercise][ex04][gpu]") {
    // in = 1, ..., 1 (10 of them): the first step is 4 5 6 7 7 7 7 6 5 4, and
    // out[0] = 4 + 5 + 6 + 7 = 22. A first step that is not 0 outside the array
    // adds its values at -3, -2, -1 (1 + 2 + 3) and gives 28.
    const std::vector<float> in(10, 1.0f);
    const auto out = ex04::two_steps_on_gpu(in);
    REQUIRE(out.size() == 10);
    CHECK(out[0] == 22.0f);
    CHECK(out[1] == 4.0f + 5.0f + 6.0f + 7.0f + 7.0f);
    CHECK(out[5] == 5.0f + 6.0f + 7.0f + 7.0f + 7.0f + 7.0f + 6.0f);
    CHECK(out[9] == 22.0f);
    CHECK(first_difference(out, two_steps_reference(in)) == "");
}

TEST_CASE("two steps across a block boundary", "[ch02][exercise][ex04][gpu]") {
    // One nonzero input near the boundary between blocks 0 and 1 (output 256):
    // it reaches 2R = 6 outputs on each side, some of them in the other block.
    const int at = GENERATE(250, 251, 253, 255, 256, 258, 261, 262);
    CAPTURE(at);
    std::vector<float> in(600, 0.0f);
    in[static_cast<std::size_t>(at)] = 1.0f;
    const guarded_run r = run_guarded(in);
    CHECK(first_difference(r.out, two_steps_reference(in)) == "");
    CHECK(r.guard_writes == 0);
}

TEST_CASE("two steps of an empty array give no outputs", "[ch02][exercise][ex04][gpu]") {
    CHECK(ex04::two_steps_on_gpu({}).empty());
}
