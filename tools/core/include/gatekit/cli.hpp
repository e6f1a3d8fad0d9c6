#pragma once
// The frame every tool's cli.cpp uses (the only files that include CLI11):
//   1. CLI11 parses argv into the tool's Options struct (`configure`);
//   2. the frame builds the seams (SystemSeams) once;
//   3. `act` returns `run(options, context)`; a tool with subcommands declares them in a
//      table instead (`Subcommand`, one Options struct and one run function each) and the
//      frame dispatches to the one chosen;
//   4. the frame is the one catch site: a Failure (gatekit/result.hpp) prints
//      `<tool>: error: <message>` and exits with exit_code_of(kind); any other exception
//      exits 3. Before that, and for a run that returns exit 2 or 3, it reports "no verdict"
//      (`NoVerdict`, gatekit/no_verdict.hpp): `result=error` for a tool or subcommand with a
//      `result` output, then its hook. A pass whose step outputs or summary could not be
//      written becomes exit 3: downstream jobs would read empty outputs.
// See docs/contributing.md ("The shape of a tool").
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "gatekit/context.hpp"
#include "gatekit/exit_code.hpp"
#include "gatekit/no_verdict.hpp"
#include "gatekit/result.hpp"

namespace gatekit {

struct ToolInfo {
  std::string name;         // e.g. "path-classifier"
  std::string description;  // one line for --help
  // A rejected argv, and a failure of a tool without subcommands.
  NoVerdict no_verdict = {};
  // A rejected argv, when it is reported otherwise than a failure; unset: `no_verdict`.
  // smoke-runner: its run mode reports its own no verdict, with its counts, before it fails
  // (no_verdict.hpp), and a rejected argv leaves `result=error` and a short summary.
  std::optional<NoVerdict> rejected_argv = {};
  // stdout carries the tool's data alone (gatekit-api's JSON answer): the workflow (log,
  // groups, masks, annotations) writes to stderr instead. Used where the frame builds the
  // seams (SystemSeams); a run over given seams keeps their workflow.
  bool data_on_stdout = false;
};

// One row of a tool's subcommand table: its name, its help line, the options it binds to its
// own Options struct, the function that runs it, and what it reports when it reaches no
// verdict. Build rows with `subcommand<Options>(...)`.
struct Subcommand {
  std::string name;
  std::string description;
  std::function<void(CLI::App&)> configure;
  std::function<ExitCode(Context&)> run;
  NoVerdict no_verdict = {};
};

// A row whose Options struct lives as long as the row: `configure(sub, options)` binds the
// subcommand's options to it, `run(options, context)` runs it once parsed. `result_output`:
// the subcommand has a `result` step output, which the frame sets to `error` on no verdict;
// `hook(options, error, context)` (optional) reports the rest of "no verdict" after it.
template <class Options, class ConfigureOptions, class Run, class Hook>
Subcommand subcommand(std::string name, std::string description, ConfigureOptions configure, Run run,
                      bool result_output, Hook hook) {
  auto options = std::make_shared<Options>();
  return {std::move(name), std::move(description),
          [options, configure](CLI::App& sub) { configure(sub, *options); },
          [options, run](Context& context) { return run(*options, context); },
          NoVerdict{result_output,
                    [options, hook](const Error& error, Context& context) { hook(*options, error, context); }}};
}

template <class Options, class ConfigureOptions, class Run>
Subcommand subcommand(std::string name, std::string description, ConfigureOptions configure, Run run,
                      bool result_output = false) {
  return subcommand<Options>(std::move(name), std::move(description), configure, run, result_output,
                             [](const Options&, const Error&, Context&) {});
}

// Registers options and subcommands on the app, binding them to the options struct.
using Configure = std::function<void(CLI::App&)>;
// Runs after a successful parse; the app says which subcommand was chosen.
using Act = std::function<ExitCode(CLI::App&, Context&)>;

int run_tool(const ToolInfo& info, int argc, const char* const* argv, const Configure& configure, const Act& act);

// The same frame over given seams (tests; `context.out` receives --help and --version).
int run_tool(const ToolInfo& info, int argc, const char* const* argv, Context& context,
             const Configure& configure, const Act& act);

// Runs the subcommand table: one subcommand is required; `configure` (optional) adds what
// the whole tool shares (a footer). The rows are added to --help in their order.
int run_tool(const ToolInfo& info, int argc, const char* const* argv, const std::vector<Subcommand>& subcommands,
             const Configure& configure = {});
int run_tool(const ToolInfo& info, int argc, const char* const* argv, Context& context,
             const std::vector<Subcommand>& subcommands, const Configure& configure = {});

}  // namespace gatekit
