// Exercise 1.2's bridge (tools/grader/judge/grade_bridge.hpp): the functions of
// simt_efficiency.hpp, called in the worker, from the judge. The predicate of
// reorder_for_uniform_warps travels as its value on each item (the judge
// evaluates it); in the worker it answers for those values only.
#include "grade_bridge.hpp"
#include "simt_efficiency.hpp"

#include <map>
#include <stdexcept>

#ifdef BOOK_GRADE_WORKER
BOOK_GRADE_EXPORTS(e) {
    e.add("lane_efficiency_of_loop", &ex02::lane_efficiency_of_loop);
    e.add("branch_efficiency", &ex02::branch_efficiency);
    e.add("reorder_for_uniform_warps", [](std::vector<int> values, std::vector<int> holds) {
        std::map<int, bool> table;
        for (std::size_t i = 0; i < values.size() && i < holds.size(); ++i)
            table[values[i]] = holds[i] != 0;
        const std::function<bool(int)> predicate = [table](int v) {
            const auto it = table.find(v);
            if (it == table.end())
                throw std::logic_error("the predicate was asked about a value not in the list");
            return it->second;
        };
        return ex02::reorder_for_uniform_warps(values, predicate);
    });
}
#else
using book::grade::call;
double ex02::lane_efficiency_of_loop(const std::vector<long long>& trip_counts) {
    return call<double>("lane_efficiency_of_loop", trip_counts);
}
double ex02::branch_efficiency(std::uint32_t mask, long long cost_a, long long cost_b) {
    return call<double>("branch_efficiency", mask, cost_a, cost_b);
}
std::vector<std::size_t> ex02::reorder_for_uniform_warps(
    const std::vector<int>& values, const std::function<bool(int)>& predicate) {
    std::vector<int> holds;
    holds.reserve(values.size());
    for (int v : values) holds.push_back(predicate(v) ? 1 : 0);
    return call<std::vector<std::size_t>>("reorder_for_uniform_warps", values, holds);
}
#endif
