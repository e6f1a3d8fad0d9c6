// libFuzzer target for the Metal and MLX device-fact decoders (fuzz/metal_facts_property.hpp).
//   scripts/fuzz.sh metal_facts 60
#include "metal_facts_property.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return gatekit::fuzzing::run_property(data, size, 64 * 1024, "Metal facts decoding",
                                        gatekit::fuzzing::metal_property_violation);
}
