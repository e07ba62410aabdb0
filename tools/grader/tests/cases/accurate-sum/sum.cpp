
// The attack: compensated_sum is not Neumaier's but the sum in __float128,
// rounded once: more accurate than the contract, and not what it names.
namespace ch03ex4 {
float compensated_sum(const float* x, std::size_t n) {
    __float128 s = 0;
    for (std::size_t i = 0; i < n; ++i) s += x[i];
    return static_cast<float>(s);
}
}  // namespace ch03ex4
