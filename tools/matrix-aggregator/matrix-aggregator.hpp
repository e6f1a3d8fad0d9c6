#pragma once
// matrix-aggregator: collapses a gated job matrix into one stable required check (see
// docs/actions/matrix-aggregator.md). One subcommand, aggregate.cpp; the verdict itself is
// the pure function decide() (decide.hpp).
#include <string>
#include <vector>

#include "gatekit/context.hpp"
#include "gatekit/exit_code.hpp"
#include "gatekit/result.hpp"

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
// could_not_evaluate) it throws the Error as a Failure: the frame writes `result=error`,
// then calls report_no_verdict.
ExitCode run_aggregate(const Options& options, Context& context);

// No verdict (a rejected command line, or a run that threw; the frame has written
// `result=error`): `reasons={}`, the `error` output, the error summary and, when it could not
// evaluate, an error annotation.
void report_no_verdict(const Options& options, const Error& error, Context& context);

}  // namespace gatekit::matrix_aggregator
