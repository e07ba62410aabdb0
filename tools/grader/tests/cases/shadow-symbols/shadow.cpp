
// Hostile: the starter's wrong answers, and definitions of the symbols the tests
// link against, so that the checks agree with them: the chapter's warp model
// (ch01::warp_of, warps_per_block, idle_lanes_in_last_warp, linear_thread_id,
// diverging_warps) answering as the starter does, and a strong
// Catch::compareEqual that calls every pair of ints equal. The tests are linked
// into the judge, with the book's own model and Catch2; none of this reaches it.
#include <catch2/catch.hpp>

#include <functional>
#include <vector>

#include "warp_model.hpp"

namespace ch01 {
int warp_of(int, int) { return 0; }
int warps_per_block(int, int) { return 0; }
int idle_lanes_in_last_warp(int, int) { return 32; }
int linear_thread_id(Dim3, Dim3) { return 0; }
std::vector<int> diverging_warps(int, const std::function<bool(int)>&, int) { return {}; }
}  // namespace ch01

namespace Catch {
template <>
bool compareEqual<int, int>(const int&, const int&) {
    return true;
}
}  // namespace Catch
