// The attack: every function throws an exception whose message is 16 MiB of
// '"' (six bytes each in the judge's XML report).
#include "float_sums.hpp"

#include <stdexcept>
#include <string>

namespace ch03ex4 {

[[noreturn]] static void flood() { throw std::runtime_error(std::string(16u << 20, '"')); }

float pairwise_sum(const float*, std::size_t) { flood(); }
std::size_t pairwise_depth(std::size_t) { flood(); }
float compensated_sum(const float*, std::size_t) { flood(); }

}  // namespace ch03ex4
