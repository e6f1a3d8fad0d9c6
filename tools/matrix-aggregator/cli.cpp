// matrix-aggregator: one stable required check for a gated job matrix. The `needs` JSON is
// read from an environment variable or a file, never from command-line text (script injection).
// This file only maps argv to Options and calls run_aggregate.
#include "gatekit/cli.hpp"
#include "matrix-aggregator.hpp"

namespace {

// A repeatable option whose every occurrence takes exactly one argument, kept verbatim: the
// list forms (`["a", "b"]`, `[]`, `a, b`) are read by parse_name_list, not by CLI11, which
// would split `[...]` on its commas and, for `[]`, take the next option as the value.
// (CLI11 2.5 and later still unescape a value of doubled characters inside `[[` `]]`, so
// that there `[[]]` arrives as `[]`.)
void add_repeatable(gatekit::CliCommand& app, const std::string& name, std::vector<std::string>& into,
                    const std::string& help) {
  app.option(name, into, help)
      .expected(1)
      .allow_extra_args(false)
      .take_all();
}

}  // namespace

int matrix_aggregator_main(int argc, const char* const* argv) {
  using namespace gatekit;
  matrix_aggregator::Options options;
  // No verdict (exit 2 or 3, a rejected argv too): `result=error`, then report_no_verdict.
  const NoVerdict no_verdict{true, [&options](const Error& error, Context& context) {
                               matrix_aggregator::report_no_verdict(options, error, context);
                             }};
  return run_tool(
      {"matrix-aggregator", "Collapses a gated job matrix into one stable required check.", no_verdict}, argc, argv,
      [&](gatekit::CliCommand& app) {
        app.option("--needs-file", options.needs_file, "Read toJSON(needs) from this file ('-' = stdin)");
        app.option("--needs-env", options.needs_env, "Read toJSON(needs) from this environment variable");
        app.option("--gate-job", options.gate, "The path-gate job that must succeed (e.g. changes)");
        add_repeatable(app, "--gated", options.gated,
                       "JOB=OUTPUT: JOB may be skipped only when the gate's OUTPUT is 'false' (e.g. tests=cpu)");
        add_repeatable(app, "--allowed-failures", options.allowed_failures,
                       "Jobs whose failure or cancellation does not vote (comma-separated or a JSON array)");
        add_repeatable(app, "--allowed-skips", options.allowed_skips,
                       "Jobs that may be skipped (comma-separated or a JSON array)");
        add_repeatable(app, "--allow-leg-failure", options.allowed_leg_failures,
                       "A matrix leg (check name) whose failure is allowed; repeatable; uses the jobs API");
        app.flag("--legs", options.legs, "List the run's legs through the jobs API (needs GITHUB_TOKEN)");
        // Set as soon as it is read, so that a usage error later on the line is reported
        // under the check's own title.
        app.option("--title", options.title, "Heading of the job summary (the check name)").trigger_on_parse();
      },
      [&](Context& context) { return matrix_aggregator::run_aggregate(options, context); });
}
