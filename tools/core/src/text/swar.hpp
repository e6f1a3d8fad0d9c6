#pragma once
// Internal to the core's text functions: eight bytes at a time in one 64-bit word (SWAR).
#include <cstdint>

namespace gatekit::swar {

inline constexpr std::uint64_t kOnes = 0x0101010101010101ULL;   // 0x01 in every byte
inline constexpr std::uint64_t kHighs = 0x8080808080808080ULL;  // each byte's high bit

}  // namespace gatekit::swar
