// CUDA error checks (see book/errors.hpp).
#include "book/errors.hpp"

#include <string>
#include <utility>

namespace book {
namespace {

// "code/ch01-.../div.cu" rather than the build machine's absolute path.
std::string short_path(const char* file) {
    std::string f = file != nullptr ? file : "?";
    const auto at = f.rfind("/code/");
    return at == std::string::npos ? f : f.substr(at + 1);
}

std::string describe(cudaError_t code, const std::string& call, const std::string& file, int line) {
    return call + " failed at " + file + ":" + std::to_string(line) + ": " +
           cudaGetErrorName(code) + " (" + cudaGetErrorString(code) + ")";
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

}  // namespace book
