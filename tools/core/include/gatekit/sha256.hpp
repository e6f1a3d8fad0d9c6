#pragma once
// SHA-256 (FIPS 180-4), for identities too long to store whole (a test id in an issue marker):
// a fixed-size name that two different texts do not share.
#include <string>
#include <string_view>

namespace gatekit {

// The digest of `data` as 64 lowercase hex digits.
std::string sha256_hex(std::string_view data);

}  // namespace gatekit
