/// @file reference.hpp
/// @brief Checking a GPU result against a CPU reference on a sample of its
/// elements: book::sampled_indices and book::count_mismatches.
#pragma once

#include <cstddef>
#include <vector>

namespace book {

/// The indices of `n` elements that a program checks against its CPU
/// reference: every `step`-th from 0, and the last one (`n - 1`) always.
/// Empty when `n` is 0.
/// @throws std::invalid_argument if `step` is 0.
std::vector<std::size_t> sampled_indices(std::size_t n, std::size_t step = 97);

/// How many of the sampled elements of `got` differ from the reference:
/// `got[i] != expected(i)` for each `i` in `indices`.
template <class T, class Expected>
long count_mismatches(const std::vector<T>& got, const std::vector<std::size_t>& indices,
                      Expected&& expected) {
    long bad = 0;
    for (const std::size_t i : indices)
        if (!(got.at(i) == expected(i))) ++bad;
    return bad;
}

}  // namespace book
