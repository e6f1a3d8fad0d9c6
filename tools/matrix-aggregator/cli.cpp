// matrix-aggregator: one stable required check for a gated job matrix. The `needs` JSON is
// read from an environment variable or a file, never from command-line text (script injection).
// This file only maps argv to Options and calls run_aggregate.
#include "gatekit/cli.hpp"
#include "matrix-aggregator.hpp"

int matrix_aggregator_main(int argc, const char* const* argv) {
  using namespace gatekit;
  matrix_aggregator::Options options;
  return run_tool(
      {"matrix-aggregator", "Collapses a gated job matrix into one stable required check."}, argc, argv,
      [&](CLI::App& app) {
        app.add_option("--needs-file", options.needs_file, "Read toJSON(needs) from this file ('-' = stdin)");
        app.add_option("--needs-env", options.needs_env, "Read toJSON(needs) from this environment variable");
        app.add_option("--gate-job", options.gate, "The path-gate job that must succeed (e.g. changes)");
        app.add_option("--gated", options.gated,
                       "JOB=OUTPUT: JOB may be skipped only when the gate's OUTPUT is 'false' (e.g. tests=cpu)");
        app.add_option("--allowed-failures", options.allowed_failures,
                       "Jobs whose failure or cancellation does not vote (comma-separated or JSON list)");
        app.add_option("--allowed-skips", options.allowed_skips,
                       "Jobs that may be skipped (comma-separated or JSON list)");
        app.add_option("--allow-leg-failure", options.allowed_leg_failures,
                       "A matrix leg (check name) whose failure is allowed; repeatable; uses the jobs API");
        app.add_flag("--legs", options.legs, "List the run's legs through the jobs API (needs GITHUB_TOKEN)");
        app.add_option("--title", options.title, "Heading of the job summary (the check name)");
      },
      [&](CLI::App&, Context& context) { return matrix_aggregator::run_aggregate(options, context); });
}
