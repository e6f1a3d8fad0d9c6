#include "matrix-aggregator.hpp"

#include <iostream>

#include "gatekit/cli.hpp"

// matrix-aggregator has no commands in this version; the frame (help, version, option errors) is in place.
int matrix_aggregator_main(int argc, const char* const* argv) {
  return gatekit::run_tool(
      {"matrix-aggregator", "Collapses a job matrix into one stable required check."}, argc, argv, [](CLI::App&) {},
      [](CLI::App&) -> gatekit::ExitCode {
        throw gatekit::ToolError{gatekit::ExitCode::usage_error,
                                 "matrix-aggregator has no commands in this version of gatekit"};
      });
}
