// C++'s shortest formatter for a double, one input (16 hex digits, the IEEE 754 bits) a line:
// std::to_chars(first, last, x) with no format (shortest round trip, fixed or scientific).
#include <charconv>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <string>
int main() {
    std::ios::sync_with_stdio(false);
    std::string line;
    while (std::getline(std::cin, line)) {
        std::uint64_t bits = std::stoull(line, nullptr, 16);
        double x;
        std::memcpy(&x, &bits, sizeof x);
        char buf[64];
        auto r = std::to_chars(buf, buf + sizeof buf, x);
        std::cout << std::string(buf, r.ptr) << '\n';
    }
}
