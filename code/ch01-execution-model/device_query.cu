// device_query: read the execution-model limits of this GPU, live.
//
// Every number the chapter quotes about "an SM holds at most N warps" or
// "a cluster holds at most 8 blocks" comes from this program's run on the
// chip, not from a datasheet. The cluster limits are asked of the occupancy
// calculator for a real kernel, and a 16-block cluster is actually launched.
#include <cooperative_groups.h>

#include <cstdio>
#include <string>
#include <vector>

#include "book/cuda.hpp"

namespace cg = cooperative_groups;

namespace {

// Warp schedulers per SM: four on every GPU since Volta, Hopper included
// (NVIDIA H100 Tensor Core GPU Architecture whitepaper, 2022). The CUDA
// runtime does not report this number, so it is stated here, with its source.
constexpr int kSchedulers = 4;

// Each block writes how many blocks its cluster has, as the hardware sees it.
__global__ void cluster_probe(unsigned* blocks_in_cluster) {
    const cg::cluster_group cluster = cg::this_cluster();
    if (threadIdx.x == 0) blocks_in_cluster[blockIdx.x] = cluster.num_blocks();
    cluster.sync();  // every block of the cluster is resident together
}

struct Row {
    std::string name;
    double value;
    std::string unit;
    std::string meaning;
};

// The largest cluster the occupancy calculator would place for cluster_probe.
int max_cluster_size(int threads, int blocks) {
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(blocks);
    config.blockDim = dim3(threads);
    int size = 0;
    BOOK_CUDA_CHECK(cudaOccupancyMaxPotentialClusterSize(&size, cluster_probe, &config));
    return size;
}

// Launch cluster_probe with clusters of `size` blocks; 1 if every block saw
// a cluster of exactly that size, 0 if not (or if the launch was refused).
int try_cluster_launch(int size, int clusters, int threads) {
    const int blocks = size * clusters;
    book::device_buffer<unsigned> seen(blocks);
    BOOK_CUDA_CHECK(cudaMemset(seen.data(), 0, seen.bytes()));
    cudaLaunchAttribute attr{};
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = static_cast<unsigned>(size);
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(blocks);
    config.blockDim = dim3(threads);
    config.attrs = &attr;
    config.numAttrs = 1;
    const cudaError_t status = cudaLaunchKernelEx(&config, cluster_probe, seen.data());
    if (status != cudaSuccess) {
        std::printf("a launch with clusters of %d blocks was refused: %s\n", size,
                    cudaGetErrorString(status));
        (void)cudaGetLastError();  // a refused configuration is not sticky; clear it
        return 0;
    }
    BOOK_CHECK_LAUNCH();
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());
    int ok = 1;
    for (unsigned s : seen.to_host()) ok &= (s == static_cast<unsigned>(size)) ? 1 : 0;
    return ok;
}

int run(int argc, char** argv) {
    book::options opts("Read this GPU's execution-model limits");
    bool quick = false;
    opts.flag("--quick", quick, "run fast (for compute-sanitizer); this program is always quick");
    if (const auto status = opts.parse(argc, argv)) return *status;

    int device = 0;
    BOOK_CUDA_CHECK(cudaGetDevice(&device));
    cudaDeviceProp p{};
    BOOK_CUDA_CHECK(cudaGetDeviceProperties(&p, device));
    const double kib = 1024.0, mib = 1024.0 * 1024.0, gib = mib * 1024.0;

    // The cluster limits for a small kernel: portable by default, then with
    // the non-portable sizes allowed.
    const int probe_threads = 128;
    const int portable = max_cluster_size(probe_threads, 16 * p.multiProcessorCount);
    BOOK_CUDA_CHECK(
        cudaFuncSetAttribute(cluster_probe, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    const int nonportable = max_cluster_size(probe_threads, 16 * p.multiProcessorCount);
    const int cluster16_ok = try_cluster_launch(16, quick ? 2 : 8, probe_threads);

    const std::vector<Row> rows = {
        {"sm_count", double(p.multiProcessorCount), "count", "streaming multiprocessors (SMs)"},
        {"compute_capability_major", double(p.major), "count", "compute capability, major"},
        {"compute_capability_minor", double(p.minor), "count", "compute capability, minor"},
        {"warp_size", double(p.warpSize), "threads", "threads in a warp"},
        {"max_threads_per_sm", double(p.maxThreadsPerMultiProcessor), "threads",
         "resident threads per SM, at most"},
        {"max_warps_per_sm", double(p.maxThreadsPerMultiProcessor / p.warpSize), "warps",
         "resident warps per SM, at most"},
        {"max_warps_per_scheduler",
         double(p.maxThreadsPerMultiProcessor / p.warpSize / kSchedulers), "warps",
         "resident warps per warp scheduler (4 per SM, whitepaper), at most"},
        {"max_blocks_per_sm", double(p.maxBlocksPerMultiProcessor), "blocks",
         "resident blocks per SM, at most"},
        {"regs_per_sm", double(p.regsPerMultiprocessor), "registers", "32-bit registers per SM"},
        {"regs_per_block", double(p.regsPerBlock), "registers",
         "32-bit registers per block, at most"},
        {"smem_per_sm_kb", p.sharedMemPerMultiprocessor / kib, "KiB", "shared memory per SM"},
        {"smem_per_block_optin_kb", p.sharedMemPerBlockOptin / kib, "KiB",
         "shared memory per block, opted in"},
        {"smem_per_block_default_kb", p.sharedMemPerBlock / kib, "KiB",
         "shared memory per block, by default"},
        {"l2_mb", p.l2CacheSize / mib, "MiB", "L2 cache"},
        {"global_mem_gib", p.totalGlobalMem / gib, "GiB", "device memory"},
        {"max_threads_per_block", double(p.maxThreadsPerBlock), "threads",
         "threads per block, at most"},
        {"max_block_dim_x", double(p.maxThreadsDim[0]), "threads", "block size in x, at most"},
        {"max_block_dim_y", double(p.maxThreadsDim[1]), "threads", "block size in y, at most"},
        {"max_block_dim_z", double(p.maxThreadsDim[2]), "threads", "block size in z, at most"},
        {"max_grid_dim_x", double(p.maxGridSize[0]), "blocks", "grid size in x, at most"},
        {"max_grid_dim_y", double(p.maxGridSize[1]), "blocks", "grid size in y, at most"},
        {"max_grid_dim_z", double(p.maxGridSize[2]), "blocks", "grid size in z, at most"},
        {"max_cluster_portable", double(portable), "blocks", "blocks per cluster, portable"},
        {"max_cluster_nonportable", double(nonportable), "blocks",
         "blocks per cluster, non-portable allowed"},
        {"cluster16_launch_ok", double(cluster16_ok), "bool",
         "a 16-block cluster launched and each block saw 16"},
    };

    // Name, value and unit: the meanings are in the chapter's table.
    std::printf("\n%-26s %12s  %s\n", "name", "value", "unit");
    for (const Row& r : rows) {
        book::report(r.name, r.value, r.unit);
        const bool whole = r.value == static_cast<double>(static_cast<long long>(r.value));
        std::printf(whole ? "%-26s %12.0f  %s\n" : "%-26s %12.3f  %s\n", r.name.c_str(), r.value,
                    r.unit.c_str());
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) { return book::gpu_main(argc, argv, run); }
