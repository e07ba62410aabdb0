// The attack: no bank arithmetic, only the visible tests' literals and a
// default that agrees with itself ("pitch = width, 1 way").
#include "banks.hpp"

#include <map>
#include <stdexcept>

namespace ex03 {

int bank_of(std::uint64_t address) {
    static const std::map<std::uint64_t, int> seen = {{0, 0},   {4, 1},   {124, 31},
                                                      {128, 0}, {131, 0}, {132, 1}};
    const auto it = seen.find(address);
    return it == seen.end() ? 0 : it->second;
}

int conflict_ways(const std::vector<std::uint64_t>& a) {
    if (a.empty() || a.size() > 32) throw std::invalid_argument("1 to 32 lanes");
    if (a.size() == 32 && a[0] == a[31]) return 1;              // one word for every lane
    if (a.size() == 32 && a[0] == 0 && a[31] == 128) return 2;  // 16 and 16 lanes
    if (a.size() == 32 && a[1] == a[0]) return 1;               // pairs of lanes
    static const std::map<std::uint64_t, int> by_stride = {
        {1, 1}, {2, 2}, {3, 1}, {4, 4}, {8, 8}, {16, 16}, {32, 32}, {33, 1}, {64, 32}};
    const auto it = a.size() > 1 ? by_stride.find((a[1] - a[0]) / 4) : by_stride.end();
    return it == by_stride.end() ? 1 : it->second;
}

int column_read_ways(int pitch, int column) {
    if (pitch < 1 || column < 0 || column >= pitch) throw std::invalid_argument("no tile");
    if (pitch == 32) return 32;
    if (pitch == 34 && column == 0) return 2;
    if (pitch == 48 || pitch == 16) return 16;
    if (pitch == 64) return 32;
    return 1;
}

int conflict_free_pitch(int width) {
    if (width < 1) throw std::invalid_argument("no tile");
    static const std::map<int, int> seen = {{32, 33}, {64, 65}, {16, 17}, {34, 35}, {48, 49}};
    const auto it = seen.find(width);
    return it == seen.end() ? width : it->second;
}

}  // namespace ex03
