// --check: validate the manifest (for pre-commit).
#include "gatekit/workflow.hpp"
#include "modes.hpp"

namespace gatekit::smoke_runner {

ExitCode run_check(const Options& options, Context& context) {
  const Manifest m = value_or_throw(load_manifest_file(context.files, options.manifest));
  int pr = 0;
  for (const auto& s : m.smokes) pr += s.pr ? 1 : 0;
  context.workflow.log(m.path + ": " + std::to_string(m.smokes.size()) + (m.smokes.size() == 1 ? " smoke" : " smokes") +
                       ", " + std::to_string(pr) + " in the pr tier: OK");
  if (pr == 0) {
    context.workflow.annotate({Severity::warning,
                               "no entry has pr: true, so a run in the pr tier fails; mark at least one entry pr: true",
                               "smoke-runner", m.path, 1, 0});
  }
  return ExitCode::pass;
}

}  // namespace gatekit::smoke_runner
