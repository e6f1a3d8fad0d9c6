#pragma once
// The frame every tool's cli.cpp uses:
//   1. the tool binds its options to its Options struct through `CliCommand` (`configure`);
//      the frame parses argv with CLI11, which only the core compiles (the binding functions
//      below are not templates, so a tool's cli.cpp instantiates no CLI11 code: see
//      docs/contributing.md, "Build weight");
//   2. the frame builds the seams (SystemSeams) once;
//   3. `act` returns `run(options, context)`; a tool with subcommands declares them in a
//      table instead (`Subcommand`, one Options struct and one run function each) and the
//      frame dispatches to the one chosen;
//   4. the frame is the one catch site: a Failure (gatekit/result.hpp) prints
//      `<tool>: error: <message>` and exits with exit_code_of(kind); any other exception
//      exits 3. Once the tool has received SIGINT/SIGTERM (termination.hpp), either is
//      `cancelled: <tool> received SIGINT before it finished: <message>`, exit 3, unless
//      it is a cancellation the tool worded itself (termination.hpp's is_cancellation()).
//      Before that, and for a run that returns exit 2 or 3, it reports "no verdict"
//      (`NoVerdict`, gatekit/no_verdict.hpp): `result=error` for a tool or subcommand with a
//      `result` output, then its hook. A pass whose step outputs or summary could not be
//      written becomes exit 3: downstream jobs would read empty outputs.
// See docs/contributing.md ("The shape of a tool").
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gatekit/context.hpp"
#include "gatekit/exit_code.hpp"
#include "gatekit/no_verdict.hpp"
#include "gatekit/result.hpp"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace gatekit {

// One option or positional argument as declared, to refine: each call is the CLI11 call of the
// same name (https://cliutils.github.io/CLI11/book/chapters/options.html) and returns the
// option again. A validator's description shows in --help and in its error.
class CliOption {
 public:
  explicit CliOption(CLI::Option& option) : option_(&option) {}

  CliOption& required();
  // A whole number in [min, max] (CLI::Range; "INT in [1 - 256]").
  CliOption& range(int min, int max);
  CliOption& range(long min, long max);
  // A number above 0 (CLI::PositiveNumber).
  CliOption& positive_number();
  // The path of an existing file (CLI::ExistingFile).
  CliOption& existing_file();
  // One of `values` (CLI::IsMember), compared without case with `ignore_case`.
  CliOption& is_member(const std::vector<std::string>& values, bool ignore_case = false);
  // `check(value)` returns "" for a good value, else why it is not.
  CliOption& check(const std::function<std::string(const std::string&)>& check, const std::string& description);
  // The same, and it may rewrite the value first (CLI11's transform).
  CliOption& transform(const std::function<std::string(std::string&)>& transform, const std::string& description);
  // Arguments per occurrence (CLI11's expected).
  CliOption& expected(int count);
  // Every occurrence of a repeated option is kept (CLI::MultiOptionPolicy::TakeAll).
  CliOption& take_all();
  CliOption& allow_extra_args(bool allow);
  // The value is stored as soon as it is read, not after the whole line is parsed.
  CliOption& trigger_on_parse();
  // The --help group it is listed under; "" hides it.
  CliOption& group(const std::string& name);
  // Given together with `other`, the line is rejected.
  CliOption& excludes(const CliOption& other);
  // How many times it was given (after the parse).
  std::size_t count() const;

 private:
  CLI::Option* option_;
};

// A command's (or subcommand's) options, bound to the fields of its Options struct. One
// function per field type the tools use: none is a template, so CLI11 is compiled in the core.
class CliCommand {
 public:
  explicit CliCommand(CLI::App& app) : app_(&app) {}

  // A name starting with `-` is an option ("-n,--workers"), any other a positional argument.
  CliOption option(const std::string& name, std::string& into, const std::string& help);
  CliOption option(const std::string& name, std::vector<std::string>& into, const std::string& help);
  CliOption option(const std::string& name, int& into, const std::string& help);
  CliOption option(const std::string& name, long& into, const std::string& help);
  CliOption option(const std::string& name, long long& into, const std::string& help);
  CliOption option(const std::string& name, double& into, const std::string& help);
  CliOption option(const std::string& name, std::optional<long>& into, const std::string& help);
  CliOption option(const std::string& name, std::optional<double>& into, const std::string& help);
  // An option whose value is handed to `take` (CLI11's add_option_function<std::string>).
  CliOption option_function(const std::string& name, const std::function<void(const std::string&)>& take,
                            const std::string& help);
  CliOption flag(const std::string& name, bool& into, const std::string& help);
  // The text after the option list in --help.
  void footer(const std::string& text);

 private:
  CLI::App* app_;
};

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
  std::function<void(CliCommand&)> configure;
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
          [options, configure](CliCommand& sub) { configure(sub, *options); },
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

// Declares the options, binding them to the options struct.
using Configure = std::function<void(CliCommand&)>;
// Runs after a successful parse.
using Act = std::function<ExitCode(Context&)>;

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
