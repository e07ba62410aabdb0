// stencil_plan.hpp: the geometry of the chapter's stencil kernels, shared by the
// kernels (compiled by nvcc) and the CPU tests (compiled by the host compiler).
//
// The stencil: out[i] = in[i-R] + ... + in[i+R], for 0 <= i < n, where values
// outside [0, n) count as 0 (a zero boundary). R is the radius; each output
// sums 2R + 1 inputs.
//
// Every kernel gives each block a run of consecutive outputs, `outputs per
// block` = threads x outputs per thread, starting at block x outputs per block.
// A block whose window [start - pad, start + outputs + pad) lies inside [0, n)
// is interior: it may load without bounds checks, and with 16-byte loads. The
// others, at most one block at each end of the array, take a checked path.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#if defined(__CUDACC__)
#define CH02_HD __host__ __device__
#else
#define CH02_HD
#endif

namespace ch02 {

/// Floats per 16-byte vector (float4).
inline constexpr int kVec = 4;

/// The halo a vector kernel loads on each side: R rounded up to whole float4s,
/// so that every load of the tile is a 16-byte aligned float4.
CH02_HD constexpr int halo_pad(int radius) { return (radius + kVec - 1) / kVec * kVec; }

/// Outputs one block computes: threads x outputs per thread.
CH02_HD constexpr long long outputs_per_block(int threads, int per_thread) {
    return static_cast<long long>(threads) * per_thread;
}

/// The first output of block `block`.
CH02_HD constexpr long long block_start(long long block, long long per_block) {
    return block * per_block;
}

/// Does block `start` need no bounds checks? True when the whole window it
/// reads, [start - pad, start + per_block + pad), lies inside [0, n).
CH02_HD constexpr bool block_is_interior(long long start, long long per_block, int pad,
                                         long long n) {
    return start - pad >= 0 && start + per_block + pad <= n;
}

/// Floats in the shared tile of a tiled kernel: the block's outputs plus a
/// halo of `pad` on each side.
CH02_HD constexpr long long tile_floats(long long per_block, int pad) {
    return per_block + 2LL * pad;
}

/// In a vector tile (float4 slots): the block's chunk m sits in slot P + m,
/// P = halo_pad(R) / 4, and the halo has P slots on each side. Thread t < 2P of
/// the block loads one halo chunk: this one, relative to the block's first
/// chunk (negative on the left)...
CH02_HD constexpr int halo_chunk(int t, int halo_chunks, int block_chunks) {
    return t < halo_chunks ? t - halo_chunks : block_chunks + (t - halo_chunks);
}

/// ...and stores it in this slot of the tile, which is always
/// halo_chunk(t) + halo_chunks.
CH02_HD constexpr int halo_slot(int t, int halo_chunks, int block_chunks) {
    return t < halo_chunks ? t : block_chunks + t;
}

/// The layout of a temporal tile, in float4 slots. P1 = halo_pad(R) / 4 chunks:
/// one step's halo; P = K x P1: the tile's halo on each side. Slot 0 is the first
/// halo chunk and the block's own chunks start at slot P. Every step computes the
/// slots [first_step_slot, slots - P1): a start congruent to P modulo 8, so that a
/// warp's 32 float4 stores fill four 128-byte rows, not five (the slots it computes
/// beyond the valid region are thrown away).
struct temporal_layout {
    int P1, P, first_step_slot, lead, stride;
    CH02_HD constexpr temporal_layout(int radius, int steps, int chunks)
        : P1(halo_pad(radius) / kVec),
          P(steps * P1),
          first_step_slot(P - 8 * ((P - P1 + 7) / 8)),
          // slots before slot 0: enough for the first step's reads, and P + lead a multiple of 8
          lead(8 * ((P1 + 7) / 8) - first_step_slot),
          // one buffer, rounded up to 8 slots so the second buffer is aligned as the first
          stride((lead + chunks + 2 * P + 7) / 8 * 8) {}
};

/// Blocks to cover n outputs, per_block at a time (0 when n is 0: a launch of
/// zero blocks is an error, so the launchers skip it).
/// @throws std::invalid_argument for n < 0 or per_block < 1; std::overflow_error
///         when the grid would exceed CUDA's 2^31 - 1 blocks.
inline long long blocks_for(long long n, long long per_block) {
    if (n < 0) throw std::invalid_argument("blocks_for: n is negative: " + std::to_string(n));
    if (per_block < 1)
        throw std::invalid_argument("blocks_for: outputs per block must be positive: " +
                                    std::to_string(per_block));
    const long long blocks = n / per_block + (n % per_block != 0 ? 1 : 0);
    if (blocks > 2147483647LL)
        throw std::overflow_error("blocks_for: " + std::to_string(blocks) +
                                  " blocks exceed the grid limit of 2^31 - 1");
    return blocks;
}

/// How many blocks of a launch are interior (block_is_interior), in closed
/// form: blocks b with b * per_block >= pad and (b + 1) * per_block + pad <= n.
inline long long interior_blocks(long long n, long long per_block, int pad) {
    const long long blocks = blocks_for(n, per_block);
    if (pad < 0) throw std::invalid_argument("interior_blocks: pad is negative");
    const long long first = (pad + per_block - 1) / per_block;  // ceil(pad / per_block)
    if (n - pad < per_block) return 0;
    const long long last = (n - pad) / per_block - 1;  // floor((n - pad) / per_block) - 1
    const long long count = last - first + 1;
    return count < 0 ? 0 : (count > blocks ? blocks : count);
}

/// How many blocks of a launch take the checked (edge) path. With n large
/// enough and pad <= per_block this is 2: the first and the last block.
inline long long edge_blocks(long long n, long long per_block, int pad) {
    return blocks_for(n, per_block) - interior_blocks(n, per_block, pad);
}

}  // namespace ch02
