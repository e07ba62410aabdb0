// Exercise 3.1's test code that both test sets use (visible.test.cu and the
// grader's hidden.test.cu): the comparison of per-warp results. Shipped to
// students with the visible tests.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "warp_argmax.cuh"

namespace ch03ex1test {

// "" when the results agree, else where they first differ.
inline std::string first_difference(const std::vector<ch03ex1::value_index>& got,
                                    const std::vector<ch03ex1::value_index>& want) {
    if (got.size() != want.size())
        return "got " + std::to_string(got.size()) + " results, want " +
               std::to_string(want.size());
    for (std::size_t w = 0; w < got.size(); ++w)
        if (got[w].value != want[w].value || got[w].index != want[w].index)
            return "warp " + std::to_string(w) + ": got (" + std::to_string(got[w].value) + ", " +
                   std::to_string(got[w].index) + "), want (" + std::to_string(want[w].value) +
                   ", " + std::to_string(want[w].index) + ")";
    return "";
}

}  // namespace ch03ex1test
