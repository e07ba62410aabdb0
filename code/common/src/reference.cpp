// Checking against a CPU reference (see book/reference.hpp).
#include "book/reference.hpp"

#include <stdexcept>

namespace book {

std::vector<std::size_t> sampled_indices(std::size_t n, std::size_t step) {
    if (step == 0) throw std::invalid_argument("sampled_indices: step must be positive");
    std::vector<std::size_t> indices;
    if (n == 0) return indices;
    indices.reserve(n / step + 2);
    for (std::size_t i = 0; i < n; i += step) indices.push_back(i);
    if (indices.back() != n - 1) indices.push_back(n - 1);
    return indices;
}

}  // namespace book
