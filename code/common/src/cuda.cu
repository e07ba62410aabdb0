// The book's CUDA helpers (see book/cuda.hpp for what each one promises).
#include "book/cuda.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "book/options.hpp"
#include "book/report.hpp"

namespace book {
namespace {

// "code/ch01-.../div.cu" rather than the build machine's absolute path.
std::string short_path(const char* file) {
    std::string f = file != nullptr ? file : "?";
    const auto at = f.rfind("/code/");
    return at == std::string::npos ? f : f.substr(at + 1);
}

std::string describe(cudaError_t code, const std::string& call, const std::string& file, int line) {
    return call + " failed at " + file + ":" + std::to_string(line) + ": " + cudaGetErrorName(code) +
           " (" + cudaGetErrorString(code) + ")";
}

// 13000 -> "13.0", 12080 -> "12.8".
std::string cuda_version_text(int v) {
    return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

__global__ void fill_random_kernel(std::uint32_t* d, std::size_t n, std::uint64_t seed) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += stride)
        d[i] = random_u32(seed, i);
}

}  // namespace

cuda_error::cuda_error(cudaError_t code, std::string call, std::string file, int line)
    : std::runtime_error(describe(code, call, file, line)),
      code_(code),
      call_(std::move(call)),
      file_(std::move(file)),
      line_(line) {}

void cuda_check(cudaError_t status, const char* call_text, const char* file, int line) {
    if (status == cudaSuccess) return;
    throw cuda_error(status, call_text != nullptr ? call_text : "?", short_path(file), line);
}

void require_gpu() {
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess)
        throw no_gpu(std::string("cudaGetDeviceCount: ") + cudaGetErrorName(status) + ": " +
                     cudaGetErrorString(status));
    if (count == 0) throw no_gpu("cudaGetDeviceCount found 0 devices");
}

int device_attribute(cudaDeviceAttr attribute) {
    int device = 0, value = 0;
    BOOK_CUDA_CHECK(cudaGetDevice(&device));
    BOOK_CUDA_CHECK(cudaDeviceGetAttribute(&value, attribute, device));
    return value;
}

std::size_t l2_cache_bytes() {
    return static_cast<std::size_t>(device_attribute(cudaDevAttrL2CacheSize));
}

void report_device_provenance() {
    int device = 0, driver = 0, runtime = 0;
    BOOK_CUDA_CHECK(cudaGetDevice(&device));
    cudaDeviceProp prop{};
    BOOK_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    const int major = device_attribute(cudaDevAttrComputeCapabilityMajor);
    const int minor = device_attribute(cudaDevAttrComputeCapabilityMinor);
    const int sms = device_attribute(cudaDevAttrMultiProcessorCount);
    BOOK_CUDA_CHECK(cudaDriverGetVersion(&driver));
    BOOK_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
    const std::string cc = std::to_string(major) + "." + std::to_string(minor);

    report_provenance("gpu_name", prop.name);
    report_provenance("compute_capability", cc);
    report_provenance("sm_count", std::to_string(sms));
    report_provenance("driver_version", cuda_version_text(driver));
    report_provenance("runtime_version", cuda_version_text(runtime));
    report_provenance("cuda_device_index", std::to_string(device));
    std::printf("GPU %d: %s, compute capability %s, %d SMs (driver CUDA %s, runtime %s)\n", device,
                prop.name, cc.c_str(), sms, cuda_version_text(driver).c_str(),
                cuda_version_text(runtime).c_str());
    std::fflush(stdout);
}

namespace {

// Under CTest resource allocation (a machine with several GPUs runs one GPU
// test per GPU), CTest names this test's GPU in CTEST_RESOURCE_GROUP_0_GPUS as
// "id:<n>,slots:1". Use that GPU; otherwise the default one.
void use_allocated_gpu() {
    const char* spec = std::getenv("CTEST_RESOURCE_GROUP_0_GPUS");
    if (spec == nullptr) return;
    const std::string s(spec);
    const auto at = s.find("id:");
    if (at == std::string::npos) return;
    const std::string id = s.substr(at + 3, s.find(',', at) - (at + 3));
    if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos)
        return;  // "none": a machine without GPUs, where require_gpu skips
    BOOK_CUDA_CHECK(cudaSetDevice(std::stoi(id)));
}

}  // namespace

int gpu_main(int argc, char** argv, int (*body)(int, char**)) {
    const std::string name = program_name(argc, argv);
    try {
        require_gpu();
        use_allocated_gpu();
        report_device_provenance();
        const int status = body(argc, argv);
        std::fflush(stdout);
        return status;
    } catch (const no_gpu& e) {
        std::fflush(stdout);
        std::fprintf(stderr, "%s: skipped: no CUDA GPU (%s)\n", name.c_str(), e.what());
        return 77;
    } catch (const cuda_error& e) {
        std::fflush(stdout);
        std::fprintf(stderr, "%s: error: %s\n", name.c_str(), e.what());
        return 1;
    } catch (const std::exception& e) {
        std::fflush(stdout);
        std::fprintf(stderr, "%s: error: %s\n", name.c_str(), e.what());
        return 1;
    }
}

void fill_random_u32(std::uint32_t* d, std::size_t n, std::uint64_t seed) {
    if (n == 0) return;
    const int threads = 256;
    const std::size_t wanted = (n + threads - 1) / threads;
    const int blocks = static_cast<int>(std::min<std::size_t>(wanted, 65535));
    fill_random_kernel<<<blocks, threads>>>(d, n, seed);
    BOOK_CHECK_LAUNCH();
}

TimingStats summarize_times(std::vector<double> ms) {
    if (ms.empty()) throw std::invalid_argument("summarize_times: no times");
    std::sort(ms.begin(), ms.end());
    auto quantile = [&](double q) {
        const double pos = q * static_cast<double>(ms.size() - 1);
        const auto lo = static_cast<std::size_t>(std::floor(pos));
        const std::size_t hi = std::min(lo + 1, ms.size() - 1);
        return ms[lo] + (pos - static_cast<double>(lo)) * (ms[hi] - ms[lo]);
    };
    return TimingStats{static_cast<int>(ms.size()), quantile(0.5), ms.front(), ms.back(),
                       quantile(0.1), quantile(0.9)};
}

cuda_event::cuda_event() { BOOK_CUDA_CHECK(cudaEventCreate(&e_)); }

cuda_event::~cuda_event() {
    if (e_ != nullptr) cudaEventDestroy(e_);  // a destructor must not throw
}

double elapsed_ms(const cuda_event& start, const cuda_event& stop) {
    float ms = 0.0f;
    BOOK_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
    return static_cast<double>(ms);
}

void report_timing(std::string_view name, const TimingStats& s) {
    const std::string n(name);
    report(n + "_ms", s.median_ms, "ms");
    report(n + "_p10_ms", s.p10_ms, "ms");
    report(n + "_p90_ms", s.p90_ms, "ms");
    report(n + "_min_ms", s.min_ms, "ms");
    report(n + "_max_ms", s.max_ms, "ms");
    report(n + "_reps", s.reps, "count");
}

}  // namespace book
