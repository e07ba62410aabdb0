// CPython's random.seed(int) / random.random(), reproduced on top of the
// reference MT19937 algorithm (Matsumoto and Nishimura, 1998): the same
// seeding (init_by_array), the same tempering, the same 53-bit doubles.
#include "py_random.hpp"

#include <algorithm>

namespace ch01 {

namespace {

constexpr std::uint32_t kMatrixA = 0x9908b0dfU;    // constant vector a
constexpr std::uint32_t kUpperMask = 0x80000000U;  // most significant bit
constexpr std::uint32_t kLowerMask = 0x7fffffffU;  // least significant 31 bits

}  // namespace

PyRandom::PyRandom(std::int64_t seed) { this->seed(seed); }

void PyRandom::seed(std::int64_t seed) {
    // |seed| as an unsigned 64-bit magnitude; correct even for INT64_MIN.
    const std::uint64_t magnitude = seed < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(seed)
                                             : static_cast<std::uint64_t>(seed);
    std::vector<std::uint32_t> key;
    key.push_back(static_cast<std::uint32_t>(magnitude & 0xffffffffU));
    if ((magnitude >> 32) != 0) key.push_back(static_cast<std::uint32_t>(magnitude >> 32));
    seed_by_array(key);
}

void PyRandom::init_genrand(std::uint32_t s) {
    mt_[0] = s;
    for (int i = 1; i < kN; ++i) {
        const std::uint32_t prev = mt_[i - 1];
        mt_[i] = 1812433253U * (prev ^ (prev >> 30)) + static_cast<std::uint32_t>(i);
    }
    mti_ = kN;
}

void PyRandom::seed_by_array(const std::vector<std::uint32_t>& key_in) {
    const std::vector<std::uint32_t> key = key_in.empty() ? std::vector<std::uint32_t>{0} : key_in;
    const int key_length = static_cast<int>(key.size());
    init_genrand(19650218U);
    int i = 1;
    int j = 0;
    for (int k = std::max(kN, key_length); k > 0; --k) {
        const std::uint32_t prev = mt_[i - 1];
        mt_[i] = (mt_[i] ^ ((prev ^ (prev >> 30)) * 1664525U)) + key[j] +
                 static_cast<std::uint32_t>(j);  // non-linear mixing
        ++i;
        ++j;
        if (i >= kN) {
            mt_[0] = mt_[kN - 1];
            i = 1;
        }
        if (j >= key_length) j = 0;
    }
    for (int k = kN - 1; k > 0; --k) {
        const std::uint32_t prev = mt_[i - 1];
        mt_[i] = (mt_[i] ^ ((prev ^ (prev >> 30)) * 1566083941U)) -
                 static_cast<std::uint32_t>(i);  // non-linear mixing
        ++i;
        if (i >= kN) {
            mt_[0] = mt_[kN - 1];
            i = 1;
        }
    }
    mt_[0] = 0x80000000U;  // the most significant bit set: a non-zero state
    mti_ = kN;
}

void PyRandom::twist() {
    for (int k = 0; k < kN; ++k) {
        const std::uint32_t y = (mt_[k] & kUpperMask) | (mt_[(k + 1) % kN] & kLowerMask);
        mt_[k] = mt_[(k + kM) % kN] ^ (y >> 1) ^ ((y & 1U) != 0 ? kMatrixA : 0U);
    }
    mti_ = 0;
}

std::uint32_t PyRandom::next_u32() {
    if (mti_ >= kN) {
        if (mti_ == kN + 1) init_genrand(5489U);  // never seeded: the reference default
        twist();
    }
    std::uint32_t y = mt_[mti_++];
    // Tempering.
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

double PyRandom::random() {
    const std::uint32_t a = next_u32() >> 5;  // 27 bits
    const std::uint32_t b = next_u32() >> 6;  // 26 bits
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

}  // namespace ch01
