// The GPU a program runs on (see book/device.hpp).
#include "book/device.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "book/report.hpp"

namespace book {
namespace {

// 13000 -> "13.0", 12080 -> "12.8".
std::string cuda_version_text(int v) {
    return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

}  // namespace

void require_gpu() {
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess)
        throw no_gpu(std::string("cudaGetDeviceCount: ") + cudaGetErrorName(status) + ": " +
                     cudaGetErrorString(status));
    if (count == 0) throw no_gpu("cudaGetDeviceCount found 0 devices");
}

int use_allocated_gpu() {
    const char* spec = std::getenv("CTEST_RESOURCE_GROUP_0_GPUS");
    if (spec == nullptr) return -1;
    const std::string s(spec);
    const auto at = s.find("id:");
    if (at == std::string::npos) return -1;
    const std::string id = s.substr(at + 3, s.find(',', at) - (at + 3));
    if (id.empty() || id.size() > 6 || id.find_first_not_of("0123456789") != std::string::npos)
        return -1;  // "none": a machine without GPUs, where require_gpu skips
    const int device = std::stoi(id);
    BOOK_CUDA_CHECK(cudaSetDevice(device));
    return device;
}

int device_attribute(cudaDeviceAttr attribute) {
    int device = 0, value = 0;
    BOOK_CUDA_CHECK(cudaGetDevice(&device));
    BOOK_CUDA_CHECK(cudaDeviceGetAttribute(&value, attribute, device));
    return value;
}

int sm_count() { return device_attribute(cudaDevAttrMultiProcessorCount); }

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
    const int sms = sm_count();
    BOOK_CUDA_CHECK(cudaDriverGetVersion(&driver));
    BOOK_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
    const std::string cc = std::to_string(major) + "." + std::to_string(minor);

    report_provenance("gpu_name", prop.name);
    report_provenance("compute_capability", cc);
    report_provenance("sm_count", std::to_string(sms));
    report_provenance("driver_cuda_version", cuda_version_text(driver));
    report_provenance("runtime_version", cuda_version_text(runtime));
    report_provenance("cuda_device_index", std::to_string(device));
    // One line the width of a page: under 80 columns.
    std::printf("GPU %d: %s, sm_%d%d, %d SMs, CUDA driver %s, runtime %s\n", device, prop.name,
                major, minor, sms, cuda_version_text(driver).c_str(),
                cuda_version_text(runtime).c_str());
    std::fflush(stdout);
}

}  // namespace book
