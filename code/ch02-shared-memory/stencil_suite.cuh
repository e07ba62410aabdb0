// stencil_suite.cuh: the chapter's stencil kernels as a table the programs can
// walk: each kernel's name, what it changes, its geometry and its launcher.
//
// R is a template parameter of the kernels, so each radius a program may ask
// for is compiled in advance: compiled_radii. A launcher covers n outputs with
// blocks_for(n, outputs per block) blocks (none for n = 0) and the dynamic
// shared memory its tile needs.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "book/cuda.hpp"
#include "stencil_kernels.cuh"
#include "stencil_plan.hpp"
#include "stencil_table.hpp"

namespace ch02 {

/// The radii compiled into the programs: the sweep's, and 33, 64, 100 (more than a warp).
using compiled_radii = std::integer_sequence<int, 1, 2, 3, 4, 8, 16, 32, 33, 64, 100, 128>;

/// The radii of the R sweep.
inline const std::vector<int> kSweepRadii = {1, 2, 3, 4, 8, 16, 32, 64, 128};

namespace detail {

template <class Kernel>
void launch(Kernel kernel, long long per_block, std::size_t smem, const float* in, float* out,
            long long n, int threads) {
    if (threads < 1 || threads > 1024)
        throw std::invalid_argument("threads per block must be in [1, 1024], got " +
                                    std::to_string(threads));
    const long long blocks = blocks_for(n, per_block);
    if (blocks == 0) return;  // n = 0: nothing to compute, and a 0-block launch is an error
    if (smem > 48 * 1024)
        BOOK_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             static_cast<int>(smem)));
    kernel<<<static_cast<unsigned>(blocks), threads, smem>>>(in, out, n);
    BOOK_CHECK_LAUNCH();
}

template <int R>
void run_plain(const float* in, float* out, long long n, int threads) {
    launch(stencil_plain<R>, threads, 0, in, out, n, threads);
}
template <int R>
void run_tiled(const float* in, float* out, long long n, int threads) {
    launch(stencil_tiled<R>, threads, sizeof(float) * tile_floats(threads, R), in, out, n, threads);
}
template <int R, int K>
void run_strided(const float* in, float* out, long long n, int threads) {
    launch(stencil_strided<R, K>, outputs_per_block(threads, K), 0, in, out, n, threads);
}
template <int R, int V>
void run_vec(const float* in, float* out, long long n, int threads) {
    launch(stencil_vec<R, V>, outputs_per_block(threads, kVec * V), 0, in, out, n, threads);
}
template <int R, int V>
void run_tiled_vec(const float* in, float* out, long long n, int threads) {
    if (threads < 2 * halo_pad(R) / kVec)
        throw std::invalid_argument("stencil_tiled_vec needs at least " +
                                    std::to_string(2 * halo_pad(R) / kVec) +
                                    " threads per block at R = " + std::to_string(R));
    const long long per_block = outputs_per_block(threads, kVec * V);
    launch(stencil_tiled_vec<R, V>, per_block, sizeof(float) * tile_floats(per_block, halo_pad(R)),
           in, out, n, threads);
}
template <int R, int V>
void run_tiled_async(const float* in, float* out, long long n, int threads) {
    if (threads < 2 * halo_pad(R) / kVec)
        throw std::invalid_argument("stencil_tiled_async needs at least " +
                                    std::to_string(2 * halo_pad(R) / kVec) +
                                    " threads per block at R = " + std::to_string(R));
    const long long per_block = outputs_per_block(threads, kVec * V);
    const long long tiles = blocks_for(n, per_block);
    if (tiles == 0) return;
    const std::size_t smem = 2 * sizeof(float) * tile_floats(per_block, halo_pad(R));
    auto kernel = stencil_tiled_async<R, V>;
    if (smem > 48 * 1024)
        BOOK_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             static_cast<int>(smem)));
    // As many blocks as fit on the GPU at once (no more than there are tiles).
    int per_sm = 0;
    BOOK_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem));
    const long long fit =
        static_cast<long long>(per_sm) * book::device_attribute(cudaDevAttrMultiProcessorCount);
    const long long blocks = fit < tiles ? fit : tiles;
    if (blocks < 1) throw std::runtime_error("stencil_tiled_async: no block fits on an SM");
    kernel<<<static_cast<unsigned>(blocks), threads, smem>>>(in, out, n);
    BOOK_CHECK_LAUNCH();
}
template <int V>
void run_copy_vec(const float* in, float* out, long long n, int threads) {
    launch(copy_vec<V>, outputs_per_block(threads, kVec * V), 0, in, out, n, threads);
}

template <int R>
std::vector<kernel_info> kernels_for() {
    const int P = halo_pad(R) / kVec;
    const double vec_loads = (2.0 * P + 1.0) / kVec;  // float4 loads per output
    std::vector<kernel_info> k = {
        {"plain", "1 output/thread, 2R+1 global loads", 1, 4, 2.0 * R + 1, false, run_plain<R>},
        {"tiled", "1 output/thread, shared tile + halo", 1, 4, 1.0, false, run_tiled<R>},
        {"plain_k4", "4 outputs/thread, blockDim apart", 4, 16, 2.0 * R + 1, false,
         run_strided<R, 4>},
        {"vec_x1", "4 outputs/thread, float4 loads", 4, 16, vec_loads, false, run_vec<R, 1>},
        {"tiled_vec_x1", "4 outputs/thread, float4s into a tile", 4, 16, 0.25, false,
         run_tiled_vec<R, 1>},
        {"vec_x4", "16 outputs/thread, float4 loads", 16, 64, vec_loads, false, run_vec<R, 4>},
        {"tiled_vec_x4", "16 outputs/thread, float4s into a tile", 16, 64, 0.25, false,
         run_tiled_vec<R, 4>},
        {"tiled_async_x4", "tiled_vec_x4 + cp.async of next tile", 16, 64, 0.25, false,
         run_tiled_async<R, 4>},
    };
    if constexpr (R == 3) {  // the tuning variants, at the target's radius only
        k.push_back({"vec_x2", "8 outputs/thread, float4 loads", 8, 32, vec_loads, false,
                     run_vec<R, 2>, true});
        k.push_back({"vec_x8", "32 outputs/thread, float4 loads", 32, 128, vec_loads, false,
                     run_vec<R, 8>, true});
        k.push_back({"tiled_vec_x2", "8 outputs/thread, float4s into a tile", 8, 32, 0.25, false,
                     run_tiled_vec<R, 2>, true});
        k.push_back({"tiled_vec_x8", "32 outputs/thread, float4s into a tile", 32, 128, 0.25, false,
                     run_tiled_vec<R, 8>, true});
    }
    return k;
}

template <int... Rs>
std::vector<kernel_info> dispatch(int radius, std::integer_sequence<int, Rs...>) {
    std::vector<kernel_info> out;
    bool found = false;
    ((radius == Rs ? (out = kernels_for<Rs>(), found = true) : false), ...);
    if (!found) {
        std::string list;
        ((list += (list.empty() ? "" : ", ") + std::to_string(Rs)), ...);
        throw std::invalid_argument("radius " + std::to_string(radius) +
                                    " is not compiled in; the compiled radii are " + list);
    }
    return out;
}

template <int... Rs>
std::vector<int> radii(std::integer_sequence<int, Rs...>) {
    return {Rs...};
}

}  // namespace detail

/// The stencil kernels compiled for `radius` (std::invalid_argument if none are).
inline std::vector<kernel_info> stencil_kernels(int radius) {
    return detail::dispatch(radius, compiled_radii{});
}

/// Every compiled radius, in increasing order.
inline std::vector<int> compiled_radius_list() { return detail::radii(compiled_radii{}); }

/// The copies with the vector kernels' geometry (the access pattern, no stencil).
inline std::vector<kernel_info> copy_kernels() {
    return {{"copy_vec_x1", "copy, 4 floats/thread, float4", 4, 16, 0.25, true,
             detail::run_copy_vec<1>},
            {"copy_vec_x4", "copy, 16 floats/thread, float4", 16, 64, 0.25, true,
             detail::run_copy_vec<4>}};
}

}  // namespace ch02
