// A previous run's durations, which order and pack the smokes (list and run modes).
#include "gatekit/files.hpp"
#include "gatekit/workflow.hpp"
#include "modes.hpp"
#include "report.hpp"

namespace gatekit::smoke_runner {

std::map<std::string, milliseconds> load_durations(const std::string& path, const Files& files, Workflow& workflow) {
  if (path.empty()) return {};
  const std::string fallback = "; packing uses the timeouts as estimates";
  if (!files.exists(path)) {
    // The first run has no previous report: pack with the timeouts as estimates.
    workflow.annotate({Severity::notice, "no previous report at " + path + fallback, "smoke-runner", "", 0, 0});
    return {};
  }
  auto text = files.read(path);
  if (!text) {
    workflow.annotate({Severity::warning, text.error().message + fallback, "smoke-runner", "", 0, 0});
    return {};
  }
  auto durations = read_durations(*text);
  if (!durations) {
    workflow.annotate({Severity::warning, path + ": " + durations.error().message + fallback,
                       "smoke-runner", "", 0, 0});
    return {};
  }
  return *durations;
}

}  // namespace gatekit::smoke_runner
