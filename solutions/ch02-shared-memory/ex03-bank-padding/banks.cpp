// Chapter 2, exercise 3: a solution.
#include "banks.hpp"

#include <algorithm>
#include <array>
#include <set>
#include <stdexcept>
#include <string>

namespace ex03 {

int bank_of(std::uint64_t address) { return static_cast<int>((address / kBankBytes) % kBanks); }

int conflict_ways(const std::vector<std::uint64_t>& addresses) {
    if (addresses.empty() || addresses.size() > static_cast<std::size_t>(kWarpWidth))
        throw std::invalid_argument("conflict_ways: a warp's load has 1 to 32 addresses, not " +
                                    std::to_string(addresses.size()));
    // The distinct words each bank must deliver: a word asked for by several
    // lanes is delivered once, to all of them.
    std::array<std::set<std::uint64_t>, kBanks> words;
    for (const std::uint64_t a : addresses) words[bank_of(a)].insert(a / kBankBytes);
    std::size_t ways = 0;
    for (const auto& w : words) ways = std::max(ways, w.size());
    return static_cast<int>(ways);
}

int column_read_ways(int pitch, int column) {
    if (pitch < 1) throw std::invalid_argument("column_read_ways: pitch must be at least 1");
    if (column < 0 || column >= pitch)
        throw std::invalid_argument("column_read_ways: column " + std::to_string(column) +
                                    " is outside [0, " + std::to_string(pitch) + ")");
    std::vector<std::uint64_t> addresses;
    for (int lane = 0; lane < kWarpWidth; ++lane)
        addresses.push_back(static_cast<std::uint64_t>(kBankBytes) *
                            (static_cast<std::uint64_t>(lane) * static_cast<std::uint64_t>(pitch) +
                             static_cast<std::uint64_t>(column)));
    return conflict_ways(addresses);
}

int conflict_free_pitch(int width) {
    if (width < 1) throw std::invalid_argument("conflict_free_pitch: width must be at least 1");
    // Lane i's word is i * pitch + column: 32 distinct banks exactly when pitch
    // shares no factor with 32, that is when pitch is odd.
    return width % 2 == 1 ? width : width + 1;
}

}  // namespace ex03
