// --check: validate the manifest (for pre-commit).
#include "gatekit/cli.hpp"
#include "modes.hpp"

namespace smoke_runner {

gatekit::ExitCode check_mode(const Options& o, gatekit::Workflow& wf) {
  auto loaded = load_manifest_file(o.manifest);
  if (!loaded) throw gatekit::ToolError{loaded.error().code, loaded.error().message};
  const Manifest& m = *loaded;
  int pr = 0;
  for (const auto& s : m.smokes) pr += s.pr ? 1 : 0;
  wf.log(m.path + ": " + std::to_string(m.smokes.size()) + (m.smokes.size() == 1 ? " smoke" : " smokes") +
         ", " + std::to_string(pr) + " in the pr tier: OK");
  if (pr == 0) {
    wf.annotate({gatekit::Severity::warning,
                 "no entry has pr: true, so a run in the pr tier fails; mark at least one entry pr: true",
                 "smoke-runner", m.path, 1, 0});
  }
  return gatekit::ExitCode::pass;
}

}  // namespace smoke_runner
