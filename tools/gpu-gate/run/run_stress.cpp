// The stress pass's targets for a run: the import analysis of the checkout and the test map.
#include <optional>

#include "gatekit/files.hpp"
#include "gatekit/text.hpp"
#include "gatekit/workflow.hpp"
#include "run/run_pass.hpp"
#include "run/test_map.hpp"
#include "run/test_map_place.hpp"

namespace gatekit::gpu_gate {

StressTargets find_stress_targets(Context& context, const TestMapPlace& map_place,
                                  const std::vector<std::string>& touched, const Scope& scope) {
  std::optional<TestMap> map;
  if (const auto map_path = test_map_to_read(context, map_place))
    map = value_or_throw(as_bad_input(read_test_map(context.files, *map_path)));
  auto targets = stress_targets(touched, scope.imports, scope.test_files, map ? &*map : nullptr, scope.paths());
  context.workflow.log("stress targets for " + join(touched, ", ") + (map ? "" : " (no test map at " + map_place.shown + ")") + ":");
  if (targets.fallback) {
    context.workflow.log("  no test file imports it" + std::string(map ? " or executed it" : "") +
                         ": the gate's " + std::to_string(targets.tests.size()) + " test files");
    return targets;
  }
  for (std::size_t i = 0; i < targets.tests.size(); ++i)
    context.workflow.log("  " + targets.tests[i] + ": " + targets.reasons[i]);
  return targets;
}

}  // namespace gatekit::gpu_gate
