// stencil_table.hpp: one row of the table of the chapter's stencil kernels
// (stencil_suite.cuh fills the table), and the lookup by name. Host code only,
// so the CPU tests can check the lookup.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace ch02 {

/// Launches a kernel on n outputs with `threads` threads per block.
using launcher = void (*)(const float* in, float* out, long long n, int threads);

/// One kernel of the table.
struct kernel_info {
    std::string name;  ///< result names use it: [a-z0-9_]+
    std::string idea;  ///< what it changes, for the table (at most 38 characters)
    int outputs_per_thread;
    int bytes_in_flight_per_thread;  ///< input bytes a thread requests before it uses any
    double global_loads_per_output;  ///< load instructions to global memory per output (interior)
    bool copy;                       ///< a copy, not a stencil
    launcher launch;
    bool variant = false;  ///< a tuning variant (--tune), not a step of the table
};

/// A copy of the kernel called `name` among `kernels` (std::invalid_argument
/// naming the choices if there is none).
///
/// It returns a copy, not a reference into `kernels`: the tables are made on
/// demand (stencil_kernels(3) is a temporary), and a reference into a
/// temporary table dangles as soon as the statement ends. The first version
/// returned a reference, and `const kernel_info& k = find_kernel(stencil_kernels(3),
/// "plain")` read freed memory (the benchmark crashed on the H200).
inline kernel_info find_kernel(const std::vector<kernel_info>& kernels, const std::string& name) {
    std::string names;
    for (const kernel_info& k : kernels) {
        if (k.name == name) return k;
        names += (names.empty() ? "" : ", ") + k.name;
    }
    throw std::invalid_argument("no kernel called '" + name + "'; there are: " + names);
}

}  // namespace ch02
