// Reads doubles as the hex of their bits, one a line, and writes each as the
// runner's JSON library writes it in a record (nlohmann::json::dump()), one a
// line: the reference test_float_text.py holds bookpy.records.jsonfloat to.
#include <cstdint>
#include <cstring>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

int main() {
    std::string line;
    while (std::getline(std::cin, line)) {
        const std::uint64_t bits = std::stoull(line, nullptr, 16);
        double value = 0;
        std::memcpy(&value, &bits, sizeof value);
        std::cout << nlohmann::json(value).dump() << '\n';
    }
    return 0;
}
