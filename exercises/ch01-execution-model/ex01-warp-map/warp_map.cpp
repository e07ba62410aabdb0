// Chapter 1, exercise 1: your code goes here. Read README.md first.
// Each function below compiles but returns a wrong answer: replace the TODOs.
#include "warp_map.hpp"

#include <stdexcept>

namespace ex01 {

int warp_of_thread(int x, int y, int z, BlockShape block) {
    (void)x, (void)y, (void)z, (void)block;
    return 0;  // TODO: the thread's linear index, divided into warps
}

int lane_of_thread(int x, int y, int z, BlockShape block) {
    (void)x, (void)y, (void)z, (void)block;
    return 0;  // TODO: the thread's place within its warp
}

int warps_in_block(BlockShape block) {
    (void)block;
    return 0;  // TODO: round up, a partial warp is still a warp
}

int active_lanes_in_last_warp(BlockShape block) {
    (void)block;
    return 0;  // TODO: 1..32
}

std::vector<int> diverging_warps_for_threshold(int block_threads, int threshold) {
    (void)block_threads, (void)threshold;
    return {};  // TODO: which warps hold threads on both sides of the threshold?
}

}  // namespace ex01
