// libFuzzer target for the path gate's rules loader (fuzz/rules_property.hpp).
//   scripts/fuzz.sh rules 60
#include "rules_property.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return gatekit::fuzzing::run_property(data, size, 8192, "rules", gatekit::fuzzing::rules_property_violation);
}
