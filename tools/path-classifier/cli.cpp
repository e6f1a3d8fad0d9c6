#include "path-classifier.hpp"

#include <iostream>

#include "gatekit/cli.hpp"

// path-classifier has no commands in this version; the frame (help, version, option errors) is in place.
int path_classifier_main(int argc, const char* const* argv) {
  return gatekit::run_tool(
      {"path-classifier", "Decides from a change's files which test suites must run; fails open."}, argc, argv, [](CLI::App&) {},
      [](CLI::App&) -> gatekit::ExitCode {
        throw gatekit::ToolError{gatekit::ExitCode::usage_error,
                                 "path-classifier has no commands in this version of gatekit"};
      });
}
