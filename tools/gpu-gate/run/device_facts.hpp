#pragma once
// The device facts a record holds, from the core's GPU discovery (gatekit/gpu.hpp).
#include "gatekit/gpu.hpp"
#include "record/record.hpp"

namespace gatekit::gpu_gate {

// Pure: names, versions and visibility variables made record values (clean_fact), at most
// 64 GPU names.
DeviceFacts device_facts_of(const GpuInventory& inventory);

}  // namespace gatekit::gpu_gate
