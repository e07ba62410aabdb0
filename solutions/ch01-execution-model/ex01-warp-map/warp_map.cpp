// Chapter 1, exercise 1: a solution.
#include "warp_map.hpp"

#include <stdexcept>

namespace ex01 {
namespace {

// The number of threads of a block, after checking its shape.
int threads_in(BlockShape block) {
    if (block.x < 1 || block.y < 1 || block.z < 1)
        throw std::invalid_argument("every extent of a block must be at least 1");
    return block.x * block.y * block.z;
}

// Thread (x, y, z)'s place in the order warps are formed in: x fastest, then y, then z.
int linear_index(int x, int y, int z, BlockShape block) {
    threads_in(block);
    if (x < 0 || x >= block.x || y < 0 || y >= block.y || z < 0 || z >= block.z)
        throw std::invalid_argument("the thread is not in the block");
    return x + y * block.x + z * block.x * block.y;
}

}  // namespace

int warp_of_thread(int x, int y, int z, BlockShape block) {
    return linear_index(x, y, z, block) / kWarpWidth;
}

int lane_of_thread(int x, int y, int z, BlockShape block) {
    return linear_index(x, y, z, block) % kWarpWidth;
}

int warps_in_block(BlockShape block) { return (threads_in(block) + kWarpWidth - 1) / kWarpWidth; }

int active_lanes_in_last_warp(BlockShape block) {
    const int rest = threads_in(block) % kWarpWidth;
    return rest == 0 ? kWarpWidth : rest;
}

std::vector<int> diverging_warps_for_threshold(int block_threads, int threshold) {
    if (block_threads < 1) throw std::invalid_argument("a block has at least one thread");
    // Threads 0..threshold-1 take the branch, the others do not: the answer
    // changes once, between thread threshold - 1 and thread threshold.
    if (threshold <= 0 || threshold >= block_threads) return {};  // all agree
    if (threshold % kWarpWidth == 0) return {};  // the change falls between two warps
    return {threshold / kWarpWidth};
}

}  // namespace ex01
