#include "smoke-runner.hpp"

#include <iostream>

#include "gatekit/cli.hpp"

// smoke-runner has no commands in this version; the frame (help, version, option errors) is in place.
int smoke_runner_main(int argc, const char* const* argv) {
  return gatekit::run_tool(
      {"smoke-runner", "Runs GPU workload smokes from a YAML manifest, by tier and GPU count."}, argc, argv, [](CLI::App&) {},
      [](CLI::App&) -> gatekit::ExitCode {
        throw gatekit::ToolError{gatekit::ExitCode::usage_error,
                                 "smoke-runner has no commands in this version of gatekit"};
      });
}
