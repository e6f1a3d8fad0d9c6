// The GPU inventory the list and run modes plan for.
#include "modes.hpp"

namespace smoke_runner {

gatekit::Result<gatekit::GpuInventory> resolve_gpus(const Options& o, const gatekit::Environment& env) {
  if (o.gpus >= 0) return gatekit::override_inventory(o.gpus, env);
  auto detected = gatekit::detect_gpus(env);
  if (!detected) return gatekit::make_error("cannot count GPUs: " + detected.error().message);
  return *detected;
}

}  // namespace smoke_runner
