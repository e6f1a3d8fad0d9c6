#pragma once
// The aggregate command: read `needs`, decide, report. Side effects go through the
// Environment, Workflow and LegSource interfaces so the whole command runs in tests.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "decide.hpp"
#include "gatekit/environment.hpp"
#include "gatekit/exit_code.hpp"
#include "gatekit/workflow.hpp"
#include "legs.hpp"

namespace gatekit::aggregator {

struct Options {
  std::string needs_file;                  // read toJSON(needs) from this file ("-" = stdin)
  std::string needs_env = "GATEKIT_NEEDS"; // ... else from this environment variable
  std::string gate;
  std::vector<std::string> gated;          // "job=output" items (each may hold several)
  std::vector<std::string> allowed_failures;
  std::vector<std::string> allowed_skips;
  std::vector<std::string> allowed_leg_failures;
  bool legs = false;                       // list the run's legs (needs a token)
  std::string title = "Aggregated result";
};

// Lists the legs of the current run (GITHUB_REPOSITORY, GITHUB_RUN_ID) with a token from
// GITHUB_TOKEN / GH_TOKEN. Never throws: failures come back as LegView::unavailable_reason.
class LegSource {
 public:
  virtual ~LegSource() = default;
  virtual LegView list(const Environment& env, Workflow& workflow) = 0;
};
std::unique_ptr<LegSource> make_api_leg_source();

struct Outcome {
  ExitCode code = ExitCode::could_not_evaluate;
  std::string error;  // when code is usage_error or could_not_evaluate (no verdict)
};

// Reads stdin only for needs_file "-".
Outcome run_aggregate(const Options& options, const Environment& env, Workflow& workflow, LegSource& legs);

// Reads the needs text from the file or the environment variable named by the options.
Result<std::string> read_needs_text(const Options& options, const Environment& env, std::string& source);

}  // namespace gatekit::aggregator
