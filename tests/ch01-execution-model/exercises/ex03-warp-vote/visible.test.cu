// Exercise 1.3, the warp vote (exercises/ch01-execution-model/ex03-warp-vote):
// count_on_gpu against a CPU reference on random data. A GPU test: its main
// (the book's GPU Catch2 main, catch_gpu_main.cpp) exits 77, "skipped", where no GPU is.
// The visible test set: shipped to students. The same tests are built against the
// starter (they must fail) and the solution (they must pass).
#include <catch2/catch.hpp>

#include <climits>
#include <cstddef>
#include <random>
#include <string>
#include <vector>

#include "vote_check.cuh"
#include "warp_vote.cuh"

namespace {

// What count_matching promises, one warp of 32 elements at a time.
std::vector<unsigned> cpu_counts(const std::vector<int>& data, int threshold) {
    std::vector<unsigned> counts(ex03::warps_for(data.size()), 0u);
    for (std::size_t i = 0; i < data.size(); ++i)
        if (data[i] > threshold) ++counts[i / ex03::kWarpWidth];
    return counts;
}

std::vector<int> make_random_data(std::size_t n, unsigned seed) {
    std::mt19937 gen(seed + Catch::rngSeed());  // drawn each run (--rng-seed)
    std::uniform_int_distribution<int> value(-1000, 1000);
    std::vector<int> data(n);
    for (auto& v : data) v = value(gen);
    return data;
}

// "" when the counts agree, else where they first differ.
std::string first_difference(const std::vector<unsigned>& got, const std::vector<unsigned>& want) {
    if (got.size() != want.size())
        return "got " + std::to_string(got.size()) + " counts, want " + std::to_string(want.size());
    for (std::size_t w = 0; w < got.size(); ++w)
        if (got[w] != want[w])
            return "warp " + std::to_string(w) + ": got " + std::to_string(got[w]) + ", want " +
                   std::to_string(want[w]);
    return "";
}

}  // namespace

TEST_CASE("count_on_gpu matches the CPU reference on random data", "[ch01][exercise][ex03][gpu]") {
    const int n = GENERATE(1, 31, 32, 33, 1000, 1 << 20);
    const int threshold = GENERATE(-1001, -500, 0, 999, 1000);
    CAPTURE(n, threshold);
    const auto data =
        make_random_data(static_cast<std::size_t>(n), 1234u + static_cast<unsigned>(n));
    CHECK(first_difference(ex03::count_on_gpu(data, threshold), cpu_counts(data, threshold)) == "");
}

TEST_CASE("the last warp counts only the elements that exist", "[ch01][exercise][ex03][gpu]") {
    // Every element is above 0: full warps count 32, a partial warp its elements.
    CHECK(ex03::count_on_gpu(std::vector<int>(1, 5), 0) == std::vector<unsigned>{1});
    CHECK(ex03::count_on_gpu(std::vector<int>(33, 5), 0) == std::vector<unsigned>{32, 1});
    CHECK(ex03::count_on_gpu(std::vector<int>(95, 5), 0) == std::vector<unsigned>{32, 32, 31});
    CHECK(ex03::count_on_gpu(std::vector<int>(257, 5), 0) ==
          std::vector<unsigned>{32, 32, 32, 32, 32, 32, 32, 32, 1});
    CHECK(ex03::count_on_gpu(std::vector<int>{}, 0).empty());
}

TEST_CASE("extreme thresholds: everything or nothing is above", "[ch01][exercise][ex03][gpu]") {
    const auto data = make_random_data(1000, 99u);
    // 1000 = 31 * 32 + 8.
    std::vector<unsigned> all(31, 32u);
    all.push_back(8u);
    CHECK(first_difference(ex03::count_on_gpu(data, INT_MIN), all) == "");
    CHECK(first_difference(ex03::count_on_gpu(data, INT_MAX), std::vector<unsigned>(32, 0u)) == "");
}

TEST_CASE("a lane's vote lands in its own bit", "[ch01][exercise][ex03][gpu]") {
    // One element above the threshold, at each place of a 64-element array in turn.
    std::string first_mismatch;
    for (int at = 0; at < 64 && first_mismatch.empty(); ++at) {
        std::vector<int> data(64, 0);
        data[static_cast<std::size_t>(at)] = 1;
        std::vector<unsigned> want(2, 0u);
        want[static_cast<std::size_t>(at / 32)] = 1u;
        const std::string d = first_difference(ex03::count_on_gpu(data, 0), want);
        if (!d.empty()) first_mismatch = "element " + std::to_string(at) + ": " + d;
    }
    CHECK(first_mismatch == "");
}

TEST_CASE("count_matching itself, launched by the tests' driver", "[ch01][exercise][ex03][gpu]") {
    // Block sizes, grids with warps to spare, sizes and thresholds drawn each run
    // (--rng-seed): the counts must come from the kernel, on the device.
    std::mt19937 gen(Catch::rngSeed() + 77u);
    for (int k = 0; k < 12; ++k) {
        const std::size_t n = k == 0 ? 0 : gen() % 20000;
        const int threads = 32 * static_cast<int>(1 + gen() % 32);
        const std::size_t lanes = ex03::warps_for(n) * 32;
        const int blocks = static_cast<int>((lanes + static_cast<std::size_t>(threads) - 1) /
                                            static_cast<std::size_t>(threads)) +
                           static_cast<int>(gen() % 3) + (n == 0 ? 1 : 0);
        std::vector<int> data(n);
        for (int& v : data) v = static_cast<int>(gen() % 2001) - 1000;
        const int threshold = static_cast<int>(gen() % 2001) - 1000;
        CAPTURE(n, threads, blocks, threshold);
        const auto got = ex03_check::launch_count(data, threshold, threads, blocks);
        const auto want = ex03_check::expected_launch(data, threshold, threads, blocks);
        REQUIRE(got.size() == want.size());
        std::size_t first = got.size();
        for (std::size_t w = 0; w < got.size() && first == got.size(); ++w)
            if (got[w] != want[w]) first = w;
        CAPTURE(first);
        CHECK(first == got.size());  // the first warp whose word differs, if any
    }
}
