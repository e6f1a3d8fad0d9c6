// libFuzzer target for the GitHub client's response decoding (fuzz/github_decode_property.hpp).
//   scripts/fuzz.sh github_decode 60
#include "github_decode_property.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return gatekit::fuzzing::run_property(data, size, 16 * 1024, "GitHub decoding",
                                        gatekit::fuzzing::github_decode_property_violation);
}
