#pragma once
// SHA-256 (FIPS 180-4), for identities too long to store whole (a test id in an issue marker,
// a test's identity in a suite baseline): a fixed-size name that two different texts do not
// share. On x86 processors with the SHA extensions the blocks are compressed by those
// instructions (chosen once, at run time), on Arm by Arm's SHA-256 instructions where the build
// targets them (every macOS arm64 build), elsewhere by portable code; all give the same digest.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace gatekit {

using Sha256Digest = std::array<std::uint8_t, 32>;

// The digest of `data`, as bytes.
Sha256Digest sha256(std::string_view data);
// The digest of `data` as 64 lowercase hex digits.
std::string sha256_hex(std::string_view data);

namespace detail {
// The portable compression alone, whatever the processor (to test the two against each other).
Sha256Digest sha256_portable(std::string_view data);
// Whether sha256() uses the processor's SHA instructions here.
bool sha256_accelerated();
}  // namespace detail

}  // namespace gatekit
