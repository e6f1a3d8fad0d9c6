// The GPU inventory the list and run modes plan for.
#include "modes.hpp"

#include "gatekit/metal.hpp"
#include "gatekit/platform.hpp"

namespace gatekit::smoke_runner {

Result<GpuInventory> resolve_gpus(const Options& options, const Environment& env, ProcessRunner& processes) {
  if (options.gpus >= 0) return override_inventory(options.gpus, env);
  auto detected = detect_host_gpus(platform::host_os(), env, processes);
  if (!detected) return could_not_evaluate("cannot count GPUs: " + detected.error().message);
  return *detected;
}

}  // namespace gatekit::smoke_runner
