// The GPU inventory the list and run modes plan for.
#include "modes.hpp"

#include "gatekit/metal.hpp"
#include "gatekit/platform.hpp"

namespace gatekit::smoke_runner {

Result<GpuInventory> resolve_gpus(const Options& options, Context& context) {
  if (options.gpus >= 0) return override_inventory(options.gpus, context.env);
  auto detected = context.gpus.detect(context.env);
  if (!detected) return could_not_evaluate("cannot count GPUs: " + detected.error().message);
  return *detected;
}

}  // namespace gatekit::smoke_runner
