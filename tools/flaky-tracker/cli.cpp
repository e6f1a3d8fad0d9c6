#include "flaky-tracker.hpp"

#include <iostream>

#include "gatekit/cli.hpp"

// flaky-tracker has no commands in this version; the frame (help, version, option errors) is in place.
int flaky_tracker_main(int argc, const char* const* argv) {
  return gatekit::run_tool(
      {"flaky-tracker", "Reruns failed tests alone, tells flaky from broken, keeps one issue per flaky test."}, argc, argv, [](CLI::App&) {},
      [](CLI::App&) -> gatekit::ExitCode {
        throw gatekit::ToolError{gatekit::ExitCode::usage_error,
                                 "flaky-tracker has no commands in this version of gatekit"};
      });
}
