#pragma once
// The command-line frame every tool uses: CLI11 parses argv into the tool's options struct,
// then the tool acts. This is the one catch site that prints `<tool>: error: ...` and maps
// failures to the shared exit codes.
#include <functional>
#include <iosfwd>
#include <string>

#include <CLI/CLI.hpp>

#include "gatekit/exit_code.hpp"

namespace gatekit {

struct ToolInfo {
  std::string name;         // e.g. "path-classifier"
  std::string description;  // one line for --help
};

// Thrown by tool code that must stop with a specific exit code and message.
struct ToolError {
  ExitCode code;
  std::string message;
};

// Called with the message when argv is rejected (exit 2), after it is printed: a tool whose
// callers read its step outputs reports the usage error there too.
using UsageErrorHook = std::function<void(const std::string& message)>;

// configure: registers options on the app (binding them to the options struct).
// act: runs after a successful parse and returns the exit code.
int run_tool(const ToolInfo& info, int argc, const char* const* argv,
             const std::function<void(CLI::App&)>& configure,
             const std::function<ExitCode(CLI::App&)>& act, const UsageErrorHook& on_usage_error = {});

}  // namespace gatekit
