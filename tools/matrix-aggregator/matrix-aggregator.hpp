#pragma once
// matrix-aggregator: collapses a gated job matrix into one stable required check (see
// docs/actions/matrix-aggregator.md). One subcommand, aggregate.cpp; the verdict itself is
// the pure function decide() (decide.hpp).
#include <string>
#include <vector>

#include "gatekit/context.hpp"
#include "gatekit/exit_code.hpp"

int matrix_aggregator_main(int argc, const char* const* argv);

namespace gatekit::matrix_aggregator {

struct Options {
  std::string needs_file;                  // read toJSON(needs) from this file ("-" = stdin)
  std::string needs_env = "GATEKIT_NEEDS"; // ... else from this environment variable
  std::string gate;
  std::vector<std::string> gated;          // "job=output" items (each may hold several)
  std::vector<std::string> allowed_failures;
  std::vector<std::string> allowed_skips;
  std::vector<std::string> allowed_leg_failures;
  bool legs = false;                       // list the run's legs through the jobs API (needs a token)
  std::string title = "Aggregated result";
};

// Reads `needs`, decides, reports (outputs `result` and `reasons`, the job summary,
// annotations). Returns pass (exit 0) or verdict_fail (exit 1). Without a verdict (a bad
// option: bad_input; unreadable `needs`, or a verdict that depends on what cannot be read:
// could_not_evaluate) it writes `result=error`, the `error` output and an error summary,
// then throws the Error as a Failure.
ExitCode run_aggregate(const Options& options, Context& context);

// A rejected command line (exit 2, printed by the frame): `result=error`, the `error` output
// and the error summary, as for any other run without a verdict.
void report_usage_error(const Options& options, const std::string& message, Context& context);

}  // namespace gatekit::matrix_aggregator
