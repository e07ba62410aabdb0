// reduce_layouts.cu: the one-launch reduction in every layout and load kind
// of the comparison (reduce_layouts.hpp), and the first version of step 8.
#include "reduce_layouts.hpp"

#include <stdexcept>
#include <string>
#include <type_traits>

#include "reduce_device.cuh"

namespace ch03 {

// The kernels have external linkage (outside an anonymous namespace), so that
// their mangled names, which name them in cuobjdump and Nsight Compute, are
// the same in every build.

// One variant: a layout, a load kind and the loads in flight per thread.
template <layout L, load_kind K, int Unroll>
__global__ void one_pass_variant(const float* __restrict__ x, std::size_t n, float* partials,
                                 unsigned* blocks_done, float* out) {
    finish_one_pass(block_sum(thread_sum<L, Unroll, K>(x, n)), partials, blocks_done, out);
}

// [listing:old-thread-sum]
// Step 8 as first written: a grid-stride loop that issues `Unroll` loads per
// round while a whole round fits, then the leftover float4s one at a time,
// each load waiting for the one before (on 2^24 floats with 528 blocks of 256
// threads: 7 rounds of 4 loads, then 3 single loads, a quarter as many bytes
// in flight); the unaligned head and tail after the stream.
template <int Unroll>
__device__ float old_thread_sum(const float* __restrict__ x, std::size_t n) {
    const std::size_t tid = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    const auto [head, vectors, tail] = split_float4(reinterpret_cast<std::uintptr_t>(x), n);
    const float4* __restrict__ v = reinterpret_cast<const float4*>(x + head);
    float acc[Unroll];
#pragma unroll
    for (int u = 0; u < Unroll; ++u) acc[u] = 0.0f;
    std::size_t i = tid;
    for (; i + (Unroll - 1) * stride < vectors; i += Unroll * stride) {
        float4 t[Unroll];
#pragma unroll
        for (int u = 0; u < Unroll; ++u) t[u] = v[i + u * stride];
#pragma unroll
        for (int u = 0; u < Unroll; ++u) acc[u] += (t[u].x + t[u].y) + (t[u].z + t[u].w);
    }
    for (; i < vectors; i += stride) {
        const float4 t = v[i];
        acc[0] += (t.x + t.y) + (t.z + t.w);
    }
    if (tid < head) acc[0] += x[tid];
    if (tid < n - tail) acc[0] += x[tail + tid];
    float sum = 0.0f;
#pragma unroll
    for (int u = 0; u < Unroll; ++u) sum += acc[u];
    return sum;
}
// [/listing:old-thread-sum]

// [listing:old-one-pass]
// ... and its last block, which read the partial sums one at a time.
template <int Unroll>
__global__ void old_one_pass(const float* __restrict__ x, std::size_t n, float* partials,
                             unsigned* blocks_done, float* out) {
    const float sum = block_sum(old_thread_sum<Unroll>(x, n));
    __shared__ bool last;
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = sum;
        cuda::atomic_ref<unsigned, cuda::thread_scope_device> done(*blocks_done);
        last = done.fetch_add(1, cuda::memory_order_acq_rel) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last) return;
    float v = 0.0f;
    for (unsigned i = threadIdx.x; i < gridDim.x; i += blockDim.x) v += partials[i];
    v = block_sum(v);
    if (threadIdx.x == 0) {
        *out = v;
        cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*blocks_done)
            .store(0, cuda::memory_order_relaxed);
    }
}
// [/listing:old-one-pass]

namespace {

using one_pass_kernel = void (*)(const float*, std::size_t, float*, unsigned*, float*);

template <layout L, load_kind K>
one_pass_kernel pick_unroll(int unroll) {
    switch (unroll) {
        case 1:
            return one_pass_variant<L, K, 1>;
        case 2:
            return one_pass_variant<L, K, 2>;
        case 4:
            return one_pass_variant<L, K, 4>;
        case 8:
            return one_pass_variant<L, K, 8>;
        default:
            throw std::invalid_argument("unroll must be 1, 2, 4 or 8");
    }
}

template <layout L>
one_pass_kernel pick_load(load_kind k, int unroll) {
    switch (k) {
        case load_kind::plain:
            return pick_unroll<L, load_kind::plain>(unroll);
        case load_kind::ldg:
            return pick_unroll<L, load_kind::ldg>(unroll);
        case load_kind::ldcs:
            return pick_unroll<L, load_kind::ldcs>(unroll);
        case load_kind::l2_256:
            return pick_unroll<L, load_kind::l2_256>(unroll);
    }
    throw std::invalid_argument("unknown load kind");
}

one_pass_kernel kernel_of(const candidate& c) {
    switch (c.var.lay) {
        case layout::stride:
            return pick_load<layout::stride>(c.var.load, c.tune.unroll);
        case layout::tiles:
            return pick_load<layout::tiles>(c.var.load, c.tune.unroll);
        case layout::even:
            return pick_load<layout::even>(c.var.load, c.tune.unroll);
        case layout::old:
            if (c.var.load != load_kind::plain)
                throw std::invalid_argument("the old layout has only plain loads");
            switch (c.tune.unroll) {
                case 1:
                    return old_one_pass<1>;
                case 2:
                    return old_one_pass<2>;
                case 4:
                    return old_one_pass<4>;
                case 8:
                    return old_one_pass<8>;
                default:
                    break;
            }
            throw std::invalid_argument("unroll must be 1, 2, 4 or 8");
    }
    throw std::invalid_argument("unknown layout");
}

}  // namespace

variant_reducer::variant_reducer(const candidate& c, std::size_t max_n)
    : c_(c), max_n_(max_n), sms_(book::device_attribute(cudaDevAttrMultiProcessorCount)), fit_(0) {
    check_tuning(c.tune);
    BOOK_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit_, kernel_of(c), c.tune.threads, 0));
    if (fit_ < 1)
        throw std::invalid_argument(candidate_text(c) +
                                    ": not one block of this size fits on an SM");
    partials_ = book::device_buffer<float>(static_cast<std::size_t>(sms_) * c.tune.blocks_per_sm);
    counter_ = book::device_buffer<unsigned>(1);
    BOOK_CUDA_CHECK(cudaMemset(counter_.data(), 0, counter_.bytes()));
}

void variant_reducer::run(const float* x, std::size_t n, float* out, cudaStream_t stream) {
    if (n > max_n_)
        throw std::invalid_argument("variant_reducer::run: n = " + std::to_string(n) +
                                    " is more than the " + std::to_string(max_n_) +
                                    " it was made for");
    const auto blocks = static_cast<unsigned>(stride_blocks(n, c_.tune, sms_));
    kernel_of(c_)<<<blocks, c_.tune.threads, 0, stream>>>(x, n, partials_.data(), counter_.data(),
                                                          out);
    BOOK_CHECK_LAUNCH();
}

void variant_reducer::poison(cudaStream_t stream) {
    BOOK_CUDA_CHECK(cudaMemsetAsync(partials_.data(), 0xFF, partials_.bytes(), stream));
}

std::size_t variant_reducer::blocks(std::size_t n) const { return stride_blocks(n, c_.tune, sms_); }

std::size_t variant_reducer::depth(std::size_t n) const {
    return layout_depth(c_.var.lay, n, c_.tune, sms_);
}

}  // namespace ch03
