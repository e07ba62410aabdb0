// Exercise 1.3, the warp vote: the hidden test set (tools/grade runs it; the
// student bundle and the reader's edition leave it out). Edge cases the visible
// set does not name: a value equal to the threshold is not above it, and the
// extreme values of int.
#include <catch2/catch.hpp>

#include <climits>
#include <cstddef>
#include <vector>

#include "warp_vote.cuh"

TEST_CASE("a value equal to the threshold is not above it", "[ch01][exercise][ex03][gpu][hidden]") {
    const std::vector<int> sevens(64, 7);
    CHECK(ex03::count_on_gpu(sevens, 7) == std::vector<unsigned>{0, 0});
    CHECK(ex03::count_on_gpu(sevens, 6) == std::vector<unsigned>{32, 32});
}

TEST_CASE("the extreme values of int", "[ch01][exercise][ex03][gpu][hidden]") {
    // 100 elements: INT_MAX where i % 3 == 0, INT_MIN elsewhere.
    std::vector<int> data(100);
    std::vector<unsigned> want(ex03::warps_for(data.size()), 0u);
    for (std::size_t i = 0; i < data.size(); ++i) {
        data[i] = i % 3 == 0 ? INT_MAX : INT_MIN;
        if (i % 3 == 0) ++want[i / 32];
    }
    CHECK(ex03::count_on_gpu(data, 0) == want);
    CHECK(ex03::count_on_gpu(data, INT_MAX - 1) == want);
    CHECK(ex03::count_on_gpu(data, INT_MAX) == std::vector<unsigned>(want.size(), 0u));
}
