// libFuzzer target for the selection file (fuzz/selection_property.hpp).
//   scripts/fuzz.sh selection 60
#include "entry.hpp"
#include "selection_property.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return gatekit::fuzzing::run_property(data, size, 8192, "selection", gatekit::fuzzing::selection_property_violation);
}
