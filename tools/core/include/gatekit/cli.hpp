#pragma once
// The frame every tool's cli.cpp uses (the only files that include CLI11):
//   1. CLI11 parses argv into the tool's Options struct (`configure`);
//   2. the frame builds the seams (SystemSeams) once;
//   3. `act` picks the subcommand and returns `run(options, context)`;
//   4. the frame is the one catch site: a Failure (gatekit/result.hpp) prints
//      `<tool>: error: <message>` and exits with exit_code_of(kind); any other exception
//      exits 3. A pass whose step outputs or summary could not be written becomes exit 3:
//      downstream jobs would read empty outputs.
// See docs/contributing.md ("The shape of a tool").
#include <functional>
#include <string>

#include <CLI/CLI.hpp>

#include "gatekit/context.hpp"
#include "gatekit/exit_code.hpp"

namespace gatekit {

struct ToolInfo {
  std::string name;         // e.g. "path-classifier"
  std::string description;  // one line for --help
};

// Registers options and subcommands on the app, binding them to the options struct.
using Configure = std::function<void(CLI::App&)>;
// Runs after a successful parse; the app says which subcommand was chosen.
using Act = std::function<ExitCode(CLI::App&, Context&)>;
// Called after a rejected argv (exit 2) was printed: a tool whose callers read its step
// outputs reports the usage error there too.
using UsageErrorHook = std::function<void(const std::string& message, Context&)>;

int run_tool(const ToolInfo& info, int argc, const char* const* argv, const Configure& configure,
             const Act& act, const UsageErrorHook& on_usage_error = {});

// The same frame over given seams (tests; `context.out` receives --help and --version).
int run_tool(const ToolInfo& info, int argc, const char* const* argv, Context& context,
             const Configure& configure, const Act& act, const UsageErrorHook& on_usage_error = {});

}  // namespace gatekit
