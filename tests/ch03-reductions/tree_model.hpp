// A model of the shared-memory trees of steps 1 to 3 (code/ch03-reductions/
// reduce_kernels.cu): which words of s[] each warp reads at each level, and the
// bank conflicts that follow from them. Shared by the check-yourself and
// chapter-claims tests.
#pragma once

#include <algorithm>
#include <map>
#include <set>
#include <vector>

namespace ch03test::tree {

inline constexpr int kBanks = 32;
inline constexpr int kBlock = 256;  // threads per block of steps 1 to 3 (ch03::tree_threads)

// The most distinct 4-byte words that one bank serves in one warp-wide access:
// the number of passes (wavefronts) the access takes. 0 for no access.
inline int ways(const std::vector<int>& words) {
    std::map<int, std::set<int>> per_bank;
    for (int w : words) per_bank[w % kBanks].insert(w);
    int most = 0;
    for (const auto& [bank, distinct] : per_bank)
        most = std::max(most, static_cast<int>(distinct.size()));
    return most;
}

// The words warp `warp` reads at the level with stride `s` (the first load of
// the addition, s[k], or the second, s[k + s]) in step 1, 2 or 3, as the
// kernels in code/ch03-reductions/reduce_kernels.cu index them.
inline std::vector<int> words_read(int step, int s, int warp, bool second) {
    std::vector<int> words;
    for (int lane = 0; lane < 32; ++lane) {
        const int tid = 32 * warp + lane;
        int k = -1;
        if (step == 1 && tid % (2 * s) == 0) k = tid;            // interleaved, divergent
        if (step == 2 && 2 * s * tid < kBlock) k = 2 * s * tid;  // interleaved, strided
        if (step == 3 && tid < s) k = tid;                       // sequential
        if (k >= 0) words.push_back(second ? k + s : k);
    }
    return words;
}

// The strides of the levels of each step's tree, in order.
inline std::vector<int> strides(int step) {
    std::vector<int> out;
    if (step == 3)
        for (int s = kBlock / 2; s > 0; s /= 2) out.push_back(s);
    else
        for (int s = 1; s < kBlock; s *= 2) out.push_back(s);
    return out;
}

// The bank conflicts (passes beyond the first) of all loads of one block of a
// step's tree, by the model.
inline long model_load_conflicts_per_block(int step) {
    long conflicts = 0;
    for (int s : strides(step))
        for (int warp = 0; warp < kBlock / 32; ++warp)
            for (bool second : {false, true}) {
                const int w = ways(words_read(step, s, warp, second));
                if (w > 1) conflicts += w - 1;
            }
    return conflicts;
}

}  // namespace ch03test::tree
