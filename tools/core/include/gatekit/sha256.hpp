#pragma once
// SHA-256 (FIPS 180-4) of a byte string, for identities that must stay distinct when the
// text behind them is hostile: a test id chosen by whoever writes the tests cannot be made to
// collide with another, as it could with a short non-cryptographic hash.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace gatekit {

using Sha256Digest = std::array<std::uint8_t, 32>;

class Sha256 {
 public:
  Sha256();
  Sha256& update(std::string_view bytes);
  Sha256Digest finish();  // once; the object is spent after it

 private:
  void block(const std::uint8_t* p);
  std::array<std::uint32_t, 8> state_;
  std::array<std::uint8_t, 64> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t length_ = 0;  // bytes
};

Sha256Digest sha256(std::string_view bytes);
// Lower-case hex of a digest (or of its first `bytes` bytes).
std::string hex_of(const Sha256Digest& digest, std::size_t bytes = 32);

}  // namespace gatekit
