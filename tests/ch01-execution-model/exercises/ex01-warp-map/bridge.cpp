// Exercise 1.1's bridge (tools/grader/judge/grade_bridge.hpp): the functions of
// warp_map.hpp, called in the worker, from the judge.
#include "grade_bridge.hpp"
#include "warp_map.hpp"

namespace ex01 {
inline void to_json(book::grade::json& j, const BlockShape& b) { j = {b.x, b.y, b.z}; }
inline void from_json(const book::grade::json& j, BlockShape& b) {
    b = BlockShape{j.at(0).get<int>(), j.at(1).get<int>(), j.at(2).get<int>()};
}
}  // namespace ex01

#ifdef BOOK_GRADE_WORKER
BOOK_GRADE_EXPORTS(e) {
    e.add("warp_of_thread", &ex01::warp_of_thread);
    e.add("lane_of_thread", &ex01::lane_of_thread);
    e.add("warps_in_block", &ex01::warps_in_block);
    e.add("active_lanes_in_last_warp", &ex01::active_lanes_in_last_warp);
    e.add("diverging_warps_for_threshold", &ex01::diverging_warps_for_threshold);
}
#else
using book::grade::call;
int ex01::warp_of_thread(int x, int y, int z, BlockShape b) {
    return call<int>("warp_of_thread", x, y, z, b);
}
int ex01::lane_of_thread(int x, int y, int z, BlockShape b) {
    return call<int>("lane_of_thread", x, y, z, b);
}
int ex01::warps_in_block(BlockShape b) { return call<int>("warps_in_block", b); }
int ex01::active_lanes_in_last_warp(BlockShape b) {
    return call<int>("active_lanes_in_last_warp", b);
}
std::vector<int> ex01::diverging_warps_for_threshold(int threads, int threshold) {
    return call<std::vector<int>>("diverging_warps_for_threshold", threads, threshold);
}
#endif
