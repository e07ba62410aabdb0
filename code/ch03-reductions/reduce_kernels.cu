// reduce_kernels.cu: the chapter's reductions, one idea per step.
//
// Steps 1-6 are block reductions in the style of the classic progression:
// each block reduces a slice of the input to one partial sum, and the same
// kernel runs again on the partial sums until one value is left (a plan from
// tree_passes). Steps 7 and 8 let a grid sized to fill the GPU stream through
// the input with 16-byte loads (thread_sum in reduce_device.cuh); step 7 then
// adds the blocks' partial sums in a second launch, step 8 in the last block
// of the same launch. Their launch parameters come from a size policy
// (launch_policy in reduce_plan.hpp).
#include "reduce_kernels.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "reduce_device.cuh"
#include "warp_tails.cuh"

namespace ch03 {

// ---------------------------------------------------------------------------
// Steps 1-6: one partial sum per block, in out[blockIdx.x]

// [listing:step1]
// Step 1: interleaved addressing. At each level, threads whose index is a
// multiple of 2*stride add the value `stride` away. The branch splits every
// warp: at the first level half its lanes work, at the fifth one lane in 32.
__global__ void reduce_interleaved_divergent(const float* x, std::size_t n, float* out) {
    extern __shared__ float s[];
    const unsigned tid = threadIdx.x;
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + tid;
    s[tid] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        if (tid % (2 * stride) == 0) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}
// [/listing:step1]

// [listing:step2]
// Step 2: the same tree, but thread tid works on index 2*stride*tid, so the
// working threads are the first ones and whole warps idle together. The
// addresses of one warp are now 2*stride floats apart: many fall in the same
// shared-memory bank (bank conflicts).
__global__ void reduce_interleaved_strided(const float* x, std::size_t n, float* out) {
    extern __shared__ float s[];
    const unsigned tid = threadIdx.x;
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + tid;
    s[tid] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        const unsigned k = 2 * stride * tid;
        if (k < blockDim.x) s[k] += s[k + stride];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}
// [/listing:step2]

// [listing:step3]
// Step 3: sequential addressing. The stride starts at half the block and
// halves; thread tid adds s[tid + stride]. A warp reads 32 consecutive floats:
// 32 different banks, no conflict, and the working threads stay contiguous.
__global__ void reduce_sequential(const float* x, std::size_t n, float* out) {
    extern __shared__ float s[];
    const unsigned tid = threadIdx.x;
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + tid;
    s[tid] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}
// [/listing:step3]

// [listing:step4]
// Step 4: half the blocks, each thread adding two values as it loads them, so
// no thread is idle at the first level.
__global__ void reduce_first_add(const float* x, std::size_t n, float* out) {
    extern __shared__ float s[];
    const unsigned tid = threadIdx.x;
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * 2 * blockDim.x + tid;
    float v = i < n ? x[i] : 0.0f;
    if (i + blockDim.x < n) v += x[i + blockDim.x];
    s[tid] = v;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}
// [/listing:step4]

// [listing:step5]
// Step 5: as step 4 until 64 values are left; then one warp finishes with
// shuffles (tail_shfl in warp_tails.cuh), without __syncthreads.
__global__ void reduce_last_warp(const float* x, std::size_t n, float* out) {
    extern __shared__ float s[];
    const unsigned tid = threadIdx.x;
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * 2 * blockDim.x + tid;
    float v = i < n ? x[i] : 0.0f;
    if (i + blockDim.x < n) v += x[i + blockDim.x];
    s[tid] = v;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 32; stride >>= 1) {
        if (tid < stride) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid < 32) {
        const float sum = tail_shfl(s, tid);
        if (tid == 0) out[blockIdx.x] = sum;
    }
}
// [/listing:step5]

// [listing:step6]
// Step 6: no shared-memory tree at all: two values per thread, then block_sum.
__global__ void reduce_warp_block(const float* x, std::size_t n, float* out) {
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * 2 * blockDim.x + threadIdx.x;
    float v = i < n ? x[i] : 0.0f;
    if (i + blockDim.x < n) v += x[i + blockDim.x];
    v = block_sum(v);
    if (threadIdx.x == 0) out[blockIdx.x] = v;
}
// [/listing:step6]

// ---------------------------------------------------------------------------
// Steps 7 and 8: a grid that fills the GPU, streaming with 16-byte loads.
// Each value is read once, so the loads say so: __ldcs, "evict first"
// (load4 in reduce_device.cuh), which measured faster on the H200
// (reduce_sweep: the stride layout with each load kind).

// [listing:two-pass]
// Step 7, first launch: one partial sum per block.
template <int Unroll>
__global__ void reduce_grid_stride(const float* __restrict__ x, std::size_t n, float* partials) {
    const float sum = block_sum(thread_sum<layout::stride, Unroll, stream_load>(x, n));
    if (threadIdx.x == 0) partials[blockIdx.x] = sum;
}

// Step 7, second launch: one block adds the partial sums.
__global__ void reduce_final_block(const float* partials, unsigned count, float* out) {
    const float v = block_sum(sum_partials(partials, count, blockDim.x, threadIdx.x));
    if (threadIdx.x == 0) *out = v;
}
// [/listing:two-pass]

// [listing:one-pass]
// Step 8: one launch. Every block streams its share and adds it up; the last
// block to finish adds the blocks' sums (finish_one_pass in reduce_device.cuh).
template <int Unroll>
__global__ void reduce_one_pass(const float* __restrict__ x, std::size_t n, float* partials,
                                unsigned* blocks_done, float* out) {
    finish_one_pass(block_sum(thread_sum<layout::stride, Unroll, stream_load>(x, n)), partials,
                    blocks_done, out);
}
// [/listing:one-pass]

// [listing:ceiling]
// The read-stream ceiling: the loads of steps 7 and 8, no combining at all.
template <int Unroll>
__global__ void read_ceiling_kernel(const float* __restrict__ x, std::size_t n, float* sink) {
    const float sum = thread_sum<layout::stride, Unroll, stream_load>(x, n);
    if (sum == -1.0f) *sink = sum;  // never, for non-negative input; keeps the loads alive
}
// [/listing:ceiling]

__global__ void fill_kernel(float* x, std::size_t n, std::uint64_t seed, input_kind kind) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += stride) {
        const std::uint32_t r = book::random_u32(seed, i);
        x[i] = kind == input_kind::unit ? unit_float(r) : small_int_float(r);
    }
}

// ---------------------------------------------------------------------------
// Host side

namespace {

// Call f(std::integral_constant<int, U>) for the run-time unroll factor.
template <class F>
void with_unroll(int unroll, F&& f) {
    switch (unroll) {
        case 1:
            f(std::integral_constant<int, 1>{});
            return;
        case 2:
            f(std::integral_constant<int, 2>{});
            return;
        case 4:
            f(std::integral_constant<int, 4>{});
            return;
        case 8:
            f(std::integral_constant<int, 8>{});
            return;
        default:
            throw std::invalid_argument("unroll must be 1, 2, 4 or 8");
    }
}

using tree_kernel = void (*)(const float*, std::size_t, float*);

tree_kernel kernel_of(step s) {
    switch (s) {
        case step::interleaved_divergent:
            return reduce_interleaved_divergent;
        case step::interleaved_strided:
            return reduce_interleaved_strided;
        case step::sequential:
            return reduce_sequential;
        case step::first_add:
            return reduce_first_add;
        case step::last_warp:
            return reduce_last_warp;
        case step::warp_block:
            return reduce_warp_block;
        default:
            throw std::invalid_argument("not a tree step");
    }
}

bool is_stride_step(step s) { return s == step::two_pass || s == step::one_pass; }

}  // namespace

reducer::reducer(step s, std::size_t max_n, const launch_policy& p)
    : step_(s),
      policy_(p),
      max_n_(max_n),
      sms_(book::device_attribute(cudaDevAttrMultiProcessorCount)) {
    if (is_stride_step(s)) {
        for (const size_rule& r : p.rules()) max_blocks_per_sm(r.tune);  // each must fit
        a_ = book::device_buffer<float>(p.max_blocks(sms_));
        if (s == step::one_pass) {
            counter_ = book::device_buffer<unsigned>(1);
            BOOK_CUDA_CHECK(cudaMemset(counter_.data(), 0, counter_.bytes()));
        }
    } else {
        const std::vector<pass> plan = tree_passes(max_n, values_per_block(s));
        a_ = book::device_buffer<float>(plan[0].blocks);
        if (plan.size() > 1) b_ = book::device_buffer<float>(plan[1].blocks);
    }
}

std::size_t reducer::launches(std::size_t n) const {
    if (step_ == step::one_pass) return 1;
    if (step_ == step::two_pass) return 2;
    return tree_passes(n, values_per_block(step_)).size();
}

std::size_t reducer::blocks(std::size_t n) const {
    if (is_stride_step(step_)) return stride_blocks(n, policy_.at(n), sms_);
    return tree_passes(n, values_per_block(step_)).front().blocks;
}

std::size_t reducer::depth(std::size_t n) const {
    return summation_depth(step_, n, policy_.at(n), sms_);
}

void reducer::poison(cudaStream_t stream) {
    if (a_.size() > 0) BOOK_CUDA_CHECK(cudaMemsetAsync(a_.data(), 0xFF, a_.bytes(), stream));
    if (b_.size() > 0) BOOK_CUDA_CHECK(cudaMemsetAsync(b_.data(), 0xFF, b_.bytes(), stream));
}

// [listing:run]
void reducer::run(const float* x, std::size_t n, float* out, cudaStream_t stream) {
    if (n > max_n_)
        throw std::invalid_argument("reducer::run: n = " + std::to_string(n) +
                                    " is more than the " + std::to_string(max_n_) +
                                    " it was made for");
    const tuning& t = policy_.at(n);  // steps 7 and 8: the launch for this size
    if (step_ == step::two_pass) {
        const std::size_t blocks = stride_blocks(n, t, sms_);
        with_unroll(t.unroll, [&](auto u) {
            reduce_grid_stride<decltype(u)::value>
                <<<static_cast<unsigned>(blocks), t.threads, 0, stream>>>(x, n, a_.data());
        });
        reduce_final_block<<<1, t.threads, 0, stream>>>(a_.data(), static_cast<unsigned>(blocks),
                                                        out);
    } else if (step_ == step::one_pass) {
        const std::size_t blocks = stride_blocks(n, t, sms_);
        with_unroll(t.unroll, [&](auto u) {
            reduce_one_pass<decltype(u)::value>
                <<<static_cast<unsigned>(blocks), t.threads, 0, stream>>>(x, n, a_.data(),
                                                                          counter_.data(), out);
        });
    } else {
        // Steps 1-6: pass after pass until one value is left; the partial sums
        // go back and forth between a_ and b_, the last pass writes *out.
        const tree_kernel kernel = kernel_of(step_);
        const std::vector<pass> plan = tree_passes(n, values_per_block(step_));
        const float* in = x;
        for (std::size_t k = 0; k < plan.size(); ++k) {
            float* dst = k + 1 == plan.size() ? out : (k % 2 == 0 ? a_.data() : b_.data());
            kernel<<<static_cast<unsigned>(plan[k].blocks), tree_threads,
                     tree_threads * sizeof(float), stream>>>(in, plan[k].n_in, dst);
            in = dst;
        }
    }
    BOOK_CHECK_LAUNCH();
}
// [/listing:run]

void read_ceiling(const float* x, std::size_t n, float* sink, const tuning& t, int sms,
                  cudaStream_t stream) {
    const std::size_t blocks = stride_blocks(n, t, sms);
    with_unroll(t.unroll, [&](auto u) {
        read_ceiling_kernel<decltype(u)::value>
            <<<static_cast<unsigned>(blocks), t.threads, 0, stream>>>(x, n, sink);
    });
    BOOK_CHECK_LAUNCH();
}

int max_blocks_per_sm(const tuning& t) {
    check_tuning(t);
    int blocks = 0;
    with_unroll(t.unroll, [&](auto u) {
        BOOK_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &blocks, reduce_one_pass<decltype(u)::value>, t.threads, 0));
    });
    if (blocks < 1)
        throw std::invalid_argument("step 8 with " + tuning_text(t) +
                                    ": not one block of this size fits on an SM");
    return blocks;
}

void fill_input(float* x, std::size_t n, std::uint64_t seed, input_kind kind, cudaStream_t stream) {
    if (n == 0) return;
    const std::size_t wanted = (n + 255) / 256;
    const unsigned blocks = static_cast<unsigned>(wanted < 65535 ? wanted : 65535);
    fill_kernel<<<blocks, 256, 0, stream>>>(x, n, seed, kind);
    BOOK_CHECK_LAUNCH();
}

}  // namespace ch03
