// Chapter 2, exercise 2: a solution.
#include "stencil_2d.cuh"

#include <stdexcept>
#include <string>

#include "book/cuda.hpp"

namespace ex02 {

__global__ void stencil5_tiled(const float* in, float* out, int width, int height) {
    // tile[1 + ty][1 + tx] holds this thread's cell; row 0 and row kTileY + 1,
    // column 0 and column kTileX + 1 are the halo.
    __shared__ float tile[kTileY + 2][kTileX + 2];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = blockIdx.x * kTileX + tx, y = blockIdx.y * kTileY + ty;
    // Cell (cx, cy) of the grid, or 0 outside it: nothing outside is read.
    auto cell = [&](int cx, int cy) {
        return cx >= 0 && cx < width && cy >= 0 && cy < height
                   ? in[static_cast<long long>(cy) * width + cx]
                   : 0.0f;
    };
    // Every thread loads its own cell (0 past the grid's edge: a neighbour of a
    // cell inside may read it); the threads on the block's border also load the
    // halo cell beyond them. The corners are not needed by a 5-point stencil.
    tile[1 + ty][1 + tx] = cell(x, y);
    if (tx == 0) tile[1 + ty][0] = cell(x - 1, y);
    if (tx == kTileX - 1) tile[1 + ty][kTileX + 1] = cell(x + 1, y);
    if (ty == 0) tile[0][1 + tx] = cell(x, y - 1);
    if (ty == kTileY - 1) tile[kTileY + 1][1 + tx] = cell(x, y + 1);

    __syncthreads();  // all of the block reaches it: no thread returned before

    if (x < width && y < height)
        out[static_cast<long long>(y) * width + x] = tile[1 + ty][1 + tx] + tile[1 + ty][tx] +
                                                     tile[1 + ty][2 + tx] + tile[ty][1 + tx] +
                                                     tile[2 + ty][1 + tx];
}

std::vector<float> stencil5_on_gpu(const std::vector<float>& in, int width, int height) {
    if (width < 0 || height < 0)
        throw std::invalid_argument("stencil5_on_gpu: width and height must not be negative");
    if (height > 65535 * kTileY)
        throw std::invalid_argument("stencil5_on_gpu: height " + std::to_string(height) +
                                    " needs more than 65535 blocks in y");
    if (in.size() != static_cast<std::size_t>(width) * static_cast<std::size_t>(height))
        throw std::invalid_argument("stencil5_on_gpu: " + std::to_string(in.size()) +
                                    " inputs for a grid of " + std::to_string(width) + " x " +
                                    std::to_string(height));
    if (in.empty()) return {};

    book::device_buffer<float> d_in(in.size()), d_out(in.size());
    d_in.from_host(in);
    const dim3 block(kTileX, kTileY);
    const dim3 grid((width + kTileX - 1) / kTileX, (height + kTileY - 1) / kTileY);
    stencil5_tiled<<<grid, block>>>(d_in.data(), d_out.data(), width, height);
    BOOK_CHECK_LAUNCH();
    BOOK_CUDA_CHECK(cudaDeviceSynchronize());  // a fault inside the kernel shows up here
    return d_out.to_host();
}

}  // namespace ex02
