// A previous run's durations, which order and pack the smokes (list and run modes).
#include <fstream>
#include <sstream>

#include "modes.hpp"
#include "report.hpp"

namespace smoke_runner {

std::map<std::string, milliseconds> load_durations(const std::string& path, gatekit::Workflow& wf) {
  if (path.empty()) return {};
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    // The first run has no previous report: pack with the timeouts as estimates.
    wf.annotate({gatekit::Severity::notice, "no previous report at " + path + "; packing uses the timeouts as estimates",
                 "smoke-runner", "", 0, 0});
    return {};
  }
  std::ostringstream text;
  text << in.rdbuf();
  auto durations = read_durations(text.str());
  if (!durations) {
    wf.annotate({gatekit::Severity::warning, path + ": " + durations.error().message + "; packing uses the timeouts as estimates",
                 "smoke-runner", "", 0, 0});
    return {};
  }
  return *durations;
}

}  // namespace smoke_runner
