// A worker for the CPU tests of speed grading (test_speed.py): the driver
// (worker_main.cpp) with a timed harness "sum" on the CPU, in place of an
// exercise's bridge. The function it times is the sum of an array of small
// whole numbers (exact in float in any order), honest or hostile as the
// environment variable BOOK_FAKE_MODE says:
//   honest     sums each input once            slow     sums it three times
//   cached     answers every call of a "#go" with the first answers it ever gave
//   first      sums the first input of a "#go" only, answers it for every call
//   frequency  honest while calls come more than 1 ms apart, else answers 0
//   forge      writes an answer frame of its own (zeros) to the judge before
//              working: an early "done" with a forged digest
//   die        ends the process in the middle of a "#go"
//   garbage    writes bytes that are no frame to the judge, then sleeps
//   huge       writes the head of a frame of 4 GiB to the judge, then sleeps
//   hang       never answers a "#go"
// BOOK_FAKE_OUT_FD: the worker's answer descriptor (for forge, garbage, huge).
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "book/random.hpp"
#include "grade_bridge.hpp"

namespace {

float sum(const std::vector<float>& x) {
    float s = 0.0f;
    for (float v : x) s += v;
    return s;
}

std::string mode() {
    const char* m = std::getenv("BOOK_FAKE_MODE");
    return m != nullptr ? m : "honest";
}

int out_fd() {
    const char* f = std::getenv("BOOK_FAKE_OUT_FD");
    return f != nullptr ? std::atoi(f) : -1;
}

}  // namespace

BOOK_GRADE_EXPORTS(e) {
    struct State {
        std::size_t n = 1 << 16;
        int calls = 8;
        std::vector<float> x;
        std::vector<float> cache;
        std::chrono::steady_clock::time_point last{};
    };
    static State st;
    e.timed("sum",
            {[](const book::grade::json& p) {
                 st.n = p.value("size", std::size_t{1} << 16);
                 st.calls = p.value("calls", 8);
                 if (st.n > (std::size_t{1} << 24) || st.calls < 1 || st.calls > 1000)
                     throw std::invalid_argument("sum: size or calls out of range");
                 st.x.assign(st.n, 1.0f);
                 (void)sum(st.x);  // the warm-up, on an input of its own
             },
             [](std::uint64_t seed, bool null) {
                 const std::string m = mode();
                 auto answer = book::grade::json::array();
                 if (m == "forge" && !null) {
                     std::vector<float> zeros(static_cast<std::size_t>(st.calls), 0.0f);
                     book::grade::send_frame(out_fd(), {{"r", zeros}});
                 } else if (m == "garbage" && !null) {
                     const char junk[] = "\xff\xff\xff\x7fnot a frame at all";
                     (void)!::write(out_fd(), junk, sizeof junk);
                     std::this_thread::sleep_for(std::chrono::hours(1));
                 } else if (m == "huge" && !null) {
                     const unsigned char head[8] = {0, 0, 0, 0xff, 1, 0, 0, 0};
                     (void)!::write(out_fd(), head, sizeof head);
                     std::this_thread::sleep_for(std::chrono::hours(1));
                 } else if (m == "hang" && !null) {
                     std::this_thread::sleep_for(std::chrono::hours(1));
                 }
                 for (int k = 0; k < st.calls; ++k) {
                     // The call's input, from the seed: book::random_u32 at indices of
                     // its own, 8 values from -8 to 7 of each draw (cheap: the sum is
                     // what is timed).
                     const auto base = static_cast<std::uint64_t>(k) * st.x.size();
                     std::uint32_t bits = 0;
                     for (std::size_t i = 0; i < st.x.size(); ++i) {
                         if (i % 8 == 0) bits = book::random_u32(seed, (base + i) / 8);
                         st.x[i] = static_cast<float>(
                             static_cast<int>((bits >> (4 * (i % 8))) & 0xf) - 8);
                     }
                     if (null) {
                         answer.push_back(0.0f);
                         continue;
                     }
                     if (m == "die" && k == st.calls / 2) std::_Exit(0);
                     const auto now = std::chrono::steady_clock::now();
                     float r = 0.0f;
                     if (m == "slow") {
                         r = sum(st.x);
                         r = (r + sum(st.x) + sum(st.x)) / 3.0f;
                     } else if (m == "cached" && st.cache.size() > static_cast<std::size_t>(k)) {
                         r = st.cache[static_cast<std::size_t>(k)];
                     } else if (m == "first" && k > 0) {
                         r = answer[0].get<float>();
                     } else if (m == "frequency" && now - st.last < std::chrono::milliseconds(1)) {
                         r = 0.0f;
                     } else {
                         r = sum(st.x);
                     }
                     st.last = now;
                     if (m == "cached" && st.cache.size() == static_cast<std::size_t>(k))
                         st.cache.push_back(r);
                     answer.push_back(r);
                 }
                 return answer;
             }});
}
