// libFuzzer target for gpu-gate's result refs and record messages
// (fuzz/gpu_gate_record_property.hpp).
//   scripts/fuzz.sh gpu_gate_record 60
#include "gpu_gate_record_property.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return gatekit::fuzzing::run_property(data, size, 20 * 1024, "gpu-gate record",
                                        gatekit::fuzzing::gpu_gate_record_property_violation);
}
