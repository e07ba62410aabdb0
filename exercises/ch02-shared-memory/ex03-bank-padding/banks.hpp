/// @file banks.hpp
/// @brief Chapter 2, exercise 3: shared-memory banks, the ways of a warp's
/// load, and the padding that removes a bank conflict.
///
/// Shared memory is divided into kBanks banks, each kBankBytes wide: the 4-byte
/// word at byte address a (a / 4 counting words) lies in bank (a / 4) mod 32.
/// In one warp-wide load of 4-byte words, each bank delivers one word per pass;
/// lanes that ask for the same word share it (a broadcast). The load takes as
/// many passes as the busiest bank has distinct words to deliver: its "ways".
/// One way is no conflict; 32 ways, the worst, serialise the warp's 32 lanes.
#pragma once

#include <cstdint>
#include <vector>

namespace ex03 {

/// Banks of shared memory, and the bytes one bank delivers per pass.
inline constexpr int kBanks = 32;
inline constexpr int kBankBytes = 4;

/// Lanes per warp.
inline constexpr int kWarpWidth = 32;

/// The bank of the 4-byte word that holds byte address `address`.
int bank_of(std::uint64_t address);

/// The ways of one warp-wide load of 4-byte words: `addresses` holds the byte
/// address each active lane reads (1 to 32 lanes). Addresses in the same
/// 4-byte word are one word (a broadcast), whatever byte of it they name.
/// @return the largest number of distinct words any one bank must deliver.
/// @throws std::invalid_argument for no address or more than kWarpWidth.
int conflict_ways(const std::vector<std::uint64_t>& addresses);

/// The ways when the 32 lanes of a warp read one column of a tile of floats
/// with kWarpWidth rows and `pitch` floats per row, starting at byte 0: lane i
/// reads the float tile[i][column], at byte address 4 * (i * pitch + column).
/// @throws std::invalid_argument for pitch < 1, or column outside [0, pitch).
int column_read_ways(int pitch, int column);

/// The smallest pitch (floats per row) of at least `width` for which reading
/// any column of a tile of kWarpWidth rows has no bank conflict (1 way).
/// A 32 x 32 tile of floats needs 33: one float of padding per row.
/// @throws std::invalid_argument for width < 1.
int conflict_free_pitch(int width);

}  // namespace ex03
