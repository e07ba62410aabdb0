// smem_info: shared memory on this GPU, as the device and the occupancy
// calculator report it, and as a launch finds it.
//
// 1. The capacities: per SM, per block by default and opted in, and what the
//    driver reserves for each block.
// 2. The carve-out: the SM's L1 and shared memory are one SRAM; a kernel's
//    cudaFuncAttributePreferredSharedMemoryCarveout (a percentage of the most
//    shared memory an SM can have) asks the driver for a split. For a range of
//    carve-outs and of dynamic shared memory per block, the occupancy
//    calculator says how many blocks of 256 threads fit on one SM, and
//    cudaOccupancyAvailableDynamicSMemPerBlock how much one block may use when
//    k blocks are to fit.
// 3. A launch: blocks count themselves on each SM (%smid, atomics) while they
//    wait a little, so the most blocks seen on one SM at once can be set
//    beside the calculator's answer.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "book/cuda.hpp"
#include "book/options.hpp"
#include "book/report.hpp"

namespace {

constexpr int kThreads = 256;
constexpr unsigned kMaxSmid = 1024;

// [listing:residency-probe]
// Each block counts itself in on its SM, waits `wait_ns`, notes how many blocks
// it saw on the SM, and counts itself out. The most seen is the residency.
// The launch's dynamic shared memory size (unused here, but reserved for each
// block all the same) decides how many blocks fit on an SM.
__global__ void residency_probe(unsigned* live, unsigned* most, long long wait_ns) {
    __shared__ unsigned seen;
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    if (threadIdx.x == 0 && sm < kMaxSmid) {
        seen = atomicAdd(&live[sm], 1u) + 1u;
        unsigned long long t0, t;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
        do {
            asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
            seen = max(seen, atomicAdd(&live[sm], 0u));
        } while (static_cast<long long>(t - t0) < wait_ns);
        atomicMax(&most[sm], seen);
        atomicSub(&live[sm], 1u);
    }
    __syncthreads();
}
// [/listing:residency-probe]

int blocks_per_sm(int dynamic_smem) {
    int blocks = 0;
    BOOK_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &blocks, residency_probe, kThreads, static_cast<std::size_t>(dynamic_smem)));
    return blocks;
}

void set_carveout(int percent) {
    BOOK_CUDA_CHECK(cudaFuncSetAttribute(residency_probe,
                                         cudaFuncAttributePreferredSharedMemoryCarveout, percent));
}

// The most blocks found at once on any SM when `grid` blocks run with `smem` bytes each.
int measured_blocks_per_sm(int smem, int grid, long long wait_ns = 200000) {
    // One counter per %smid, which need not be below the SM count: kMaxSmid of them.
    book::device_buffer<unsigned> live(kMaxSmid), most(kMaxSmid);
    BOOK_CUDA_CHECK(cudaMemset(live.data(), 0, live.bytes()));
    BOOK_CUDA_CHECK(cudaMemset(most.data(), 0, most.bytes()));
    residency_probe<<<grid, kThreads, static_cast<std::size_t>(smem)>>>(live.data(), most.data(),
                                                                        wait_ns);
    BOOK_CHECK_LAUNCH();
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());
    const std::vector<unsigned> m = most.to_host();
    return static_cast<int>(*std::max_element(m.begin(), m.end()));
}

int run(int argc, char** argv) {
    book::options opts("Shared memory on this GPU: capacities, carve-out and occupancy");
    bool quick = false;
    opts.flag("--quick", quick,
              "one small probe launch instead of the measured residency (for compute-sanitizer)");
    if (const auto status = opts.parse(argc, argv)) return *status;

    int device = 0;
    BOOK_CUDA_CHECK(cudaGetDevice(&device));
    cudaDeviceProp p{};
    BOOK_CUDA_CHECK(cudaGetDeviceProperties(&p, device));
    const double kib = 1024.0;
    const int optin = static_cast<int>(p.sharedMemPerBlockOptin);
    const int reserved = static_cast<int>(p.reservedSharedMemPerBlock);

    // [listing:capacities]
    book::report("smem_per_sm_kb", p.sharedMemPerMultiprocessor / kib, "KiB");
    book::report("smem_per_block_default_kb", p.sharedMemPerBlock / kib, "KiB");
    book::report("smem_per_block_optin_kb", optin / kib, "KiB");
    book::report("smem_reserved_per_block_kb", reserved / kib, "KiB");
    // [/listing:capacities]
    book::report("sm_count", p.multiProcessorCount, "count");
    book::report("max_threads_per_sm", p.maxThreadsPerMultiProcessor, "threads");
    std::printf("\nshared memory per SM             %8.1f KiB\n",
                p.sharedMemPerMultiprocessor / kib);
    std::printf("per block, by default            %8.1f KiB\n", p.sharedMemPerBlock / kib);
    std::printf("per block, opted in              %8.1f KiB\n", optin / kib);
    std::printf("reserved by the driver per block %8.1f KiB\n", reserved / kib);

    // More than 48 KiB of dynamic shared memory needs this opt-in, per kernel.
    BOOK_CUDA_CHECK(cudaFuncSetAttribute(residency_probe,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize, optin - 64));
    cudaFuncAttributes fa{};
    BOOK_CUDA_CHECK(cudaFuncGetAttributes(&fa, residency_probe));
    book::report("probe_static_smem_bytes", static_cast<double>(fa.sharedSizeBytes), "bytes");

    // [listing:carveout-table]
    const std::vector<int> carveouts = {-1, 0, 25, 50, 75, 100};  // -1: no preference (default)
    const std::vector<int> sizes_kb = {0, 8, 16, 24, 32, 48, 64, 96, 112, 113, 114, 160, 226};
    std::printf(
        "\nblocks of %d threads per SM (occupancy calculator), by carve-out\n"
        "(columns) and dynamic shared memory per block (rows)\n%14s",
        kThreads, "smem/block");
    for (int c : carveouts)
        std::printf(" %8s", c < 0 ? "default" : (std::to_string(c) + "%").c_str());
    std::printf("\n");
    for (int kb : sizes_kb) {
        const int bytes = std::min(kb * 1024, optin - 64 - static_cast<int>(fa.sharedSizeBytes));
        std::printf("%10d KiB", kb);
        for (int c : carveouts) {
            set_carveout(c);
            const int b = blocks_per_sm(bytes);
            const std::string tag = c < 0 ? "default" : std::to_string(c);
            book::report("blocks_smem" + std::to_string(kb) + "k_carveout_" + tag, b, "blocks");
            std::printf(" %8d", b);
        }
        std::printf("\n");
    }
    // [/listing:carveout-table]

    std::printf(
        "\ndynamic shared memory one block may use when k blocks of %d threads\n"
        "are to fit on one SM (default carve-out)\n%6s %12s\n",
        kThreads, "k", "KiB/block");
    set_carveout(-1);
    for (int k : {1, 2, 3, 4, 6, 8}) {
        std::size_t avail = 0;
        BOOK_CUDA_CHECK(
            cudaOccupancyAvailableDynamicSMemPerBlock(&avail, residency_probe, k, kThreads));
        book::report("available_smem_" + std::to_string(k) + "_blocks_kb", avail / kib, "KiB");
        std::printf("%6d %12.1f\n", k, avail / kib);
    }

    if (quick) {  // one small launch of the probe, so that a sanitizer sees it run
        const int m = measured_blocks_per_sm(0, 2, 1000);
        std::printf("\nprobe launched: 2 blocks, at most %d seen on one SM\n", m);
    } else {
        std::printf(
            "\nmeasured: the most blocks found on one SM at once, against the calculator\n"
            "%14s %10s %10s\n",
            "smem/block", "measured", "calculator");
        const int sms = p.multiProcessorCount;
        for (int kb : {0, 32, 64, 100, 113, 114, 200}) {
            const int bytes = kb * 1024;
            const int predicted = blocks_per_sm(bytes);
            const int grid = sms * (predicted + 2);  // more than fit at once
            const int measured = measured_blocks_per_sm(bytes, grid);
            book::report("measured_blocks_smem" + std::to_string(kb) + "k", measured, "blocks");
            book::report("predicted_blocks_smem" + std::to_string(kb) + "k", predicted, "blocks");
            std::printf("%10d KiB %10d %10d\n", kb, measured, predicted);
        }
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) { return book::gpu_main(argc, argv, run); }
