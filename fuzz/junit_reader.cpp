// libFuzzer target for the core's JUnit reader (fuzz/junit_property.hpp).
//   scripts/fuzz.sh junit_reader 60
#include "junit_property.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return gatekit::fuzzing::run_property(data, size, 64 * 1024, "JUnit reader",
                                        gatekit::fuzzing::junit_property_violation);
}
