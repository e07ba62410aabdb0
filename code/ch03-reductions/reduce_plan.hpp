/// @file reduce_plan.hpp
/// @brief Chapter 3's CPU side: the reduction steps, their launch plans and
/// size policy, the layouts and load kinds of the streaming kernels, and the
/// way each layout walks through the input. The depth of the summation trees,
/// the error bound that depth gives and the CPU sums are in reduce_bounds.hpp;
/// the text forms the command lines take (tunings, policies, candidates) in
/// reduce_options.hpp.
///
/// Plain C++ (no CUDA), so the tests run it on any machine. The input mappings
/// and the walks are `__host__ __device__` when a CUDA file includes this
/// header: the kernels use the very functions the tests check.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#if defined(__CUDACC__)
#define CH03_HD __host__ __device__
#else
#define CH03_HD
#endif

namespace ch03 {

// ---------------------------------------------------------------------------
// Inputs

/// A random 32-bit value as a float in (0, 1]: a whole multiple of 2^-24, so
/// exact in float, never zero. The benchmark's input.
CH03_HD inline float unit_float(std::uint32_t r) {
    return static_cast<float>((r >> 8) + 1u) * (1.0f / 16777216.0f);
}

/// A random 32-bit value as a non-zero whole number in [-8, 8], as a float.
/// Sums of these stay whole numbers far below 2^24 in every tree a kernel
/// builds (a random walk), so every kernel must return the exact sum.
CH03_HD inline float small_int_float(std::uint32_t r) {
    const int k = static_cast<int>(r & 15u) - 8;
    return static_cast<float>(k >= 0 ? k + 1 : k);
}

/// Which of the two mappings fills an input.
enum class input_kind { unit, small_int };

// ---------------------------------------------------------------------------
// The steps of the chapter

/// The chapter's progression, one idea per step.
enum class step {
    interleaved_divergent,  ///< 1: s[tid] += s[tid + stride] where tid % (2*stride) == 0
    interleaved_strided,    ///< 2: index = 2*stride*tid: no divergence, bank conflicts
    sequential,             ///< 3: sequential addressing, stride halving
    first_add,              ///< 4: the first add during the load (two values per thread)
    last_warp,              ///< 5: the last warp with __shfl_down_sync
    warp_block,             ///< 6: a block reduction built from warp reductions
    two_pass,               ///< 7: grid-stride loops, 16-byte loads, then a second launch
    one_pass,               ///< 8: as 7, finished by the last block in the same launch
};

/// A step's stable key (used in result names) and its title (used in tables,
/// at most 27 characters).
struct step_info {
    step id;
    std::string_view key;
    std::string_view title;
};

/// All steps, in the chapter's order.
inline constexpr std::array<step_info, 8> steps = {{
    {step::interleaved_divergent, "interleaved_divergent", "1 interleaved, divergent"},
    {step::interleaved_strided, "interleaved_strided", "2 interleaved, strided"},
    {step::sequential, "sequential", "3 sequential addressing"},
    {step::first_add, "first_add", "4 first add during load"},
    {step::last_warp, "last_warp", "5 last warp by shuffles"},
    {step::warp_block, "warp_block", "6 block of warp sums"},
    {step::two_pass, "two_pass", "7 grid-stride, 2 launches"},
    {step::one_pass, "one_pass", "8 grid-stride, 1 launch"},
}};

/// The info of one step.
const step_info& info(step s);

// ---------------------------------------------------------------------------
// Launch plans of steps 1-6

/// Threads per block of steps 1 to 6 (a power of two, at least 64).
inline constexpr int tree_threads = 256;

/// Values one block of step `s` reduces per pass: tree_threads for steps 1-3,
/// 2 * tree_threads for steps 4-6 (two per thread). Steps 7 and 8 have no
/// fixed count (grid-stride loops).
/// @throws std::invalid_argument for steps 7 and 8.
std::size_t values_per_block(step s);

/// One launch of a multi-pass tree reduction: `blocks` blocks reduce `n_in`
/// values to `blocks` partial sums.
struct pass {
    std::size_t n_in;
    std::size_t blocks;
    friend bool operator==(const pass&, const pass&) = default;
};

/// The launches of steps 1-6 on n values: each block reduces `per_block`
/// values to one, and the partial sums are reduced again until one is left.
/// n = 0 or 1 still makes one launch of one block (which writes the result:
/// 0 or the value). @throws std::invalid_argument if per_block < 2.
std::vector<pass> tree_passes(std::size_t n, std::size_t per_block);

// ---------------------------------------------------------------------------
// Steps 7 and 8: launch parameters and the size policy

/// The launch parameters of the streaming kernels (steps 7 and 8, the read
/// ceiling and the layout variants).
struct tuning {
    int threads = 256;      ///< threads per block: a multiple of 32, 64..1024
    int blocks_per_sm = 4;  ///< blocks per SM: the grid is at most SMs x this
                            ///< (more than fit at once run in waves)
    int unroll = 4;         ///< 16-byte loads in flight per thread: 1, 2, 4 or 8
    friend bool operator==(const tuning&, const tuning&) = default;
};

/// The largest blocks_per_sm a tuning may ask for.
inline constexpr int max_blocks_per_sm_setting = 64;

/// @throws std::invalid_argument naming the field that is out of range.
void check_tuning(const tuning& t);

/// "256x4x4": threads x blocks per SM x unroll.
std::string tuning_text(const tuning& t);

/// How steps 7 and 8 cut x[0..n) for 16-byte loads: the `head` floats before
/// the first 16-byte boundary (0 to 3, and no more than n), then `vectors`
/// whole float4s, then the floats from index `tail` to n (0 to 3 of them).
struct float4_split {
    std::size_t head, vectors, tail;
};

/// The cut for an array of n floats that starts at byte address `address`
/// (a multiple of 4).
CH03_HD inline float4_split split_float4(std::uintptr_t address, std::size_t n) {
    const std::size_t skew = (address / sizeof(float)) % 4;  // floats past a 16-byte boundary
    const std::size_t to_boundary = (4 - skew) % 4;
    const std::size_t head = to_boundary < n ? to_boundary : n;
    const std::size_t vectors = (n - head) / 4;
    return {head, vectors, head + 4 * vectors};
}

/// ceil(a / b), for b > 0.
constexpr std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

/// Tiles of n floats: a tile is what one block loads in one round,
/// threads x unroll float4s.
std::size_t tile_count(std::size_t n, const tuning& t);

/// Blocks of a streaming launch on n floats: SMs x blocks_per_sm, but no more
/// than there are tiles (no block without work); at least 1 (so n = 0 still
/// writes its result).
std::size_t stride_blocks(std::size_t n, const tuning& t, int sms);

/// The partial sums each thread loads at once when a block (step 7) or one
/// warp (the last block of step 8) adds them (sum_partials in
/// reduce_device.cuh): up to threads x this partial sums cost one round trip
/// to memory.
inline constexpr int partials_per_thread = 16;

/// One rule of a size policy: n <= 2^max_log2 floats use `tune`.
struct size_rule {
    int max_log2;
    tuning tune;
    friend bool operator==(const size_rule&, const size_rule&) = default;
};

/// The launch parameters of the streaming kernels by input size, as CUB's
/// dispatch picks its own: the first rule whose bound n does not exceed; the
/// last rule has no bound and takes every larger n.
class launch_policy {
public:
    /// One tuning for every size.
    launch_policy(const tuning& t = {});  // NOLINT: a tuning is a policy of one rule
    /// @throws std::invalid_argument unless the bounds rise strictly, lie in
    /// 1..62, and the last rule (only the last) has none (max_log2 = 0 there).
    explicit launch_policy(std::vector<size_rule> rules);

    /// The tuning for n floats.
    const tuning& at(std::size_t n) const;
    /// The rules, in order; the last one's max_log2 is 0 (no bound).
    const std::vector<size_rule>& rules() const noexcept { return rules_; }
    /// The most blocks any launch of this policy makes on `sms` SMs (the size
    /// of the partial-sum workspace).
    std::size_t max_blocks(int sms) const;
    /// "1024x2x2" for one rule; "2e20:256x4x4,1024x2x2" for two.
    std::string text() const;
    friend bool operator==(const launch_policy&, const launch_policy&) = default;

private:
    std::vector<size_rule> rules_;
};

/// The policy steps 7 and 8 use unless told otherwise (reduce_sweep measures
/// it and suggests the next one).
launch_policy default_policy();

// ---------------------------------------------------------------------------
// Layouts: which float4s each thread of a streaming kernel reads

/// How a streaming kernel divides the float4s among its threads.
enum class layout {
    stride,  ///< grid-stride: thread g reads g, g + S, g + 2S, ... (S threads in the grid)
    tiles,   ///< block b reads tiles b, b + G, ... of threads x unroll float4s (G blocks)
    even,    ///< block b reads one contiguous share, 1/G of the float4s
    old,     ///< the first version of step 8 (grid-stride, the leftover loads one by one)
};

/// How the float4s are loaded (the instruction's cache hints).
enum class load_kind {
    plain,   ///< an ordinary load: LDG.E.128
    ldg,     ///< __ldg: the read-only (non-coherent) path, as CUB loads
    ldcs,    ///< __ldcs: streaming, evict first
    l2_256,  ///< ld.global.nc.L2::256B: also bring the 256-byte block into L2
};

/// The loads of steps 7 and 8 and of the read ceiling: streaming, for input
/// that is read once (the sweep's `stride.ldcs`).
inline constexpr load_kind stream_load = load_kind::ldcs;

/// A kernel of the layout comparison: a layout and a load kind.
struct variant {
    layout lay = layout::stride;
    load_kind load = load_kind::plain;
    friend bool operator==(const variant&, const variant&) = default;
};

/// Every variant the layout comparison has, step 8's (stride.plain) first.
const std::vector<variant>& all_variants();

/// "stride.plain", "tiles.ldg", ..., "old.plain".
std::string variant_text(variant v);

/// One row of the layout comparison: a variant with a tuning.
struct candidate {
    variant var;
    tuning tune;
    friend bool operator==(const candidate&, const candidate&) = default;
};

/// "tiles.ldg:256x32x4".
std::string candidate_text(const candidate& c);

/// The path of one thread through the float4s: it starts at `first`; each
/// round it reads up to `unroll` float4s, at first, first + slot_step, ...,
/// skipping those at or past `end`; the next round starts round_step later;
/// it stops when a round would start at or past `end`.
struct thread_walk {
    std::size_t first, round_step, slot_step, end;
};

/// Thread `thread` of block `block`, in a grid of `blocks` blocks of
/// `threads`, reading `vectors` float4s `unroll` at a time, in layout `lay`
/// (stride, tiles or even; `old` walks as stride).
CH03_HD inline thread_walk walk(layout lay, std::size_t vectors, unsigned block, unsigned blocks,
                                unsigned thread, unsigned threads, int unroll) {
    const std::size_t t = threads, g = blocks, u = static_cast<std::size_t>(unroll);
    switch (lay) {
        case layout::tiles:  // block b: tiles b, b + G, ...; thread t: slot t + k*threads
            return {block * t * u + thread, g * t * u, t, vectors};
        case layout::even: {  // block b: float4s [b*V/G, (b+1)*V/G), a tile at a time
            const std::size_t begin = vectors * block / g, end = vectors * (block + 1) / g;
            return {begin + thread, t * u, t, end};
        }
        default:  // stride (and old): thread i of the grid: i, i + S, i + 2S, ...
            return {block * t + thread, g * t * u, g * t, vectors};
    }
}

}  // namespace ch03
