#include "gpu-gate.hpp"

#include <iostream>

#include "gatekit/cli.hpp"

// gpu-gate has no commands in this version; the frame (help, version, option errors) is in place.
int gpu_gate_main(int argc, const char* const* argv) {
  return gatekit::run_tool(
      {"gpu-gate", "Tests a tree on a GPU machine and records the result as a git ref."}, argc, argv, [](CLI::App&) {},
      [](CLI::App&) -> gatekit::ExitCode {
        throw gatekit::ToolError{gatekit::ExitCode::usage_error,
                                 "gpu-gate has no commands in this version of gatekit"};
      });
}
