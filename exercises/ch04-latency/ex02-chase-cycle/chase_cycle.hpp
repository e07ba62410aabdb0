/// @file chase_cycle.hpp
/// @brief Chapter 4, exercise 2: the order of a pointer chase, a random cycle
/// that visits every line once before it comes back.
#pragma once

#include <cstdint>
#include <vector>

namespace ch04ex2 {

/// The order of a walk over n lines: element i is the line that follows line i.
using Next = std::vector<std::uint32_t>;

/// A random cycle through the n lines 0..n-1: next[i] is the line after line
/// i, and following next from any line visits all n lines before it returns
/// (one cycle, no line its own successor when n > 1). The same seed gives the
/// same cycle; the successor of a line is drawn at random, not its neighbour.
/// n = 1 gives {0}; n = 0 gives {}.
Next random_cycle(std::uint32_t n, std::uint64_t seed);

/// How many steps a walk that follows `next` from `start` takes to come back
/// to `start`. `next` is a permutation of 0..next.size()-1 and start is one of
/// its indices.
std::uint32_t cycle_length(const Next& next, std::uint32_t start);

}  // namespace ch04ex2
