// The frame (gatekit/cli.hpp): the option binding, the parse and the one catch site. All of
// gatekit's CLI11 code is here; it runs once per process, so in a release build this file is
// compiled at -O1, as a translation unit of its own beside the core's (tools/core/CMakeLists.txt).
#include "gatekit/cli.hpp"

#include <CLI/CLI.hpp>
#include <csignal>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gatekit/platform.hpp"
#include "gatekit/result.hpp"
#include "gatekit/termination.hpp"
#include "gatekit/version.hpp"
#include "gatekit/workflow.hpp"

namespace gatekit {

// CliCommand and CliOption: the tools' option binding, each call the CLI11 call of the same
// name. CLI11 is header only: its templates are instantiated here, once, for the field types
// the tools use, instead of in every tool's cli.cpp.

CliOption& CliOption::required() {
  option_->required();
  return *this;
}

CliOption& CliOption::range(int min, int max) {
  option_->check(CLI::Range(min, max));
  return *this;
}

CliOption& CliOption::range(long min, long max) {
  option_->check(CLI::Range(min, max));
  return *this;
}

CliOption& CliOption::positive_number() {
  option_->check(CLI::PositiveNumber);
  return *this;
}

CliOption& CliOption::existing_file() {
  option_->check(CLI::ExistingFile);
  return *this;
}

CliOption& CliOption::is_member(const std::vector<std::string>& values, bool ignore_case) {
  if (ignore_case) {
    option_->check(CLI::IsMember(values, CLI::ignore_case));
  } else {
    option_->check(CLI::IsMember(values));
  }
  return *this;
}

CliOption& CliOption::check(const std::function<std::string(const std::string&)>& check,
                            const std::string& description) {
  option_->check(CLI::Validator([check](std::string& value) { return check(value); }, description));
  return *this;
}

CliOption& CliOption::transform(const std::function<std::string(std::string&)>& transform,
                                const std::string& description) {
  option_->transform(CLI::Validator(transform, description));
  return *this;
}

CliOption& CliOption::expected(int count) {
  option_->expected(count);
  return *this;
}

CliOption& CliOption::take_all() {
  option_->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  return *this;
}

CliOption& CliOption::allow_extra_args(bool allow) {
  option_->allow_extra_args(allow);
  return *this;
}

CliOption& CliOption::trigger_on_parse() {
  option_->trigger_on_parse();
  return *this;
}

CliOption& CliOption::group(const std::string& name) {
  option_->group(name);
  return *this;
}

CliOption& CliOption::excludes(const CliOption& other) {
  option_->excludes(other.option_);
  return *this;
}

std::size_t CliOption::count() const { return option_->count(); }

CliOption CliCommand::option(const std::string& name, std::string& into, const std::string& help) {
  return CliOption(*app_->add_option(name, into, help));
}

CliOption CliCommand::option(const std::string& name, std::vector<std::string>& into, const std::string& help) {
  return CliOption(*app_->add_option(name, into, help));
}

CliOption CliCommand::option(const std::string& name, int& into, const std::string& help) {
  return CliOption(*app_->add_option(name, into, help));
}

CliOption CliCommand::option(const std::string& name, long& into, const std::string& help) {
  return CliOption(*app_->add_option(name, into, help));
}

CliOption CliCommand::option(const std::string& name, long long& into, const std::string& help) {
  return CliOption(*app_->add_option(name, into, help));
}

CliOption CliCommand::option(const std::string& name, double& into, const std::string& help) {
  return CliOption(*app_->add_option(name, into, help));
}

CliOption CliCommand::option(const std::string& name, std::optional<long>& into, const std::string& help) {
  return CliOption(*app_->add_option(name, into, help));
}

CliOption CliCommand::option(const std::string& name, std::optional<double>& into, const std::string& help) {
  return CliOption(*app_->add_option(name, into, help));
}

CliOption CliCommand::option_function(const std::string& name, const std::function<void(const std::string&)>& take,
                                      const std::string& help) {
  return CliOption(*app_->add_option_function<std::string>(name, take, help));
}

CliOption CliCommand::flag(const std::string& name, bool& into, const std::string& help) {
  return CliOption(*app_->add_flag(name, into, help));
}

void CliCommand::footer(const std::string& text) { app_->footer(text); }

namespace {

// Messages may quote outside text (arguments, paths, API text): inert_lines keeps every line
// of them from acting as a workflow command.
int report(const ToolInfo& info, Context& context, const std::string& message, ExitCode code) {
  context.out.flush();
  context.err << inert_lines(info.name + ": error: " + message) << '\n';
  return to_int(code);
}

// A tool that installed the termination handlers (termination.hpp) ends its children on
// SIGINT/SIGTERM, so a step that fails after the signal failed because the run was cancelled
// (a git killed mid-push, a child that never answered): it says so, exit 3, whatever the
// step's error was. A cancellation the tool worded itself is its own.
Error cancelled_or(const ToolInfo& info, Error error) {
  if (termination_signal() == 0 || is_cancellation(error)) return error;
  return cancellation(info.name, " before it finished: " + error.message);
}

// CLI11 reads `--name=` (an empty value) as a bare `--name` and takes the next argument as its
// value: `--base= --config=x` would make the base "--config=x". getopt gives the empty value,
// and so does the frame, for every tool: `--name=` becomes `--name ""`. Arguments after `--`
// are left alone.
std::vector<std::string> with_empty_values(int argc, const char* const* argv) {
  std::vector<std::string> args;
  bool options_ended = false;
  for (int i = 0; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--") options_ended = true;
    const bool empty_long = i > 0 && !options_ended && arg.size() > 3 && arg.starts_with("--") &&
                            arg.find('=') == arg.size() - 1;
    if (empty_long) {
      args.push_back(arg.substr(0, arg.size() - 1));
      args.emplace_back();
    } else {
      args.push_back(arg);
    }
  }
  return args;
}

// The error a hook sees for a run that returned exit 2 or 3 without a Failure: the run has
// reported why (its summary, an annotation).
Error returned_no_verdict(const ToolInfo& info, ExitCode code) {
  const std::string message = info.name + " reached no verdict (exit " + std::to_string(to_int(code)) + ")";
  return code == ExitCode::usage_error ? bad_input(message) : could_not_evaluate(message);
}

// A verdict (exit 0 or 1) that could not be reported whole (its summary or an output could
// not be written) becomes exit 3, and its step outputs must say so: the no verdict is reported
// as for any exit 3, and a `result` output the run had already set (smoke-runner's, which the
// run mode otherwise writes itself) is written again, as `error`. The runner keeps the last
// value of an output written twice, so `result` then agrees with the exit code.
void report_unreported(const NoVerdict& chosen, const Error& error, Context& context) {
  NoVerdict no_verdict = chosen;
  no_verdict.result_output = no_verdict.result_output || context.workflow.has_output("result");
  report_no_verdict(no_verdict, error, context);
}

// The seams the frame builds: SystemSeams, with the workflow on stderr for a tool whose
// stdout is data (ToolInfo::data_on_stdout).
class FrameSeams {
 public:
  explicit FrameSeams(const ToolInfo& info) {
    if (!info.data_on_stdout) return;
    Context& c = system_.context();
    workflow_ = make_workflow(c.env, c.err, c.files);
    context_.emplace(Context{c.env, c.run, c.clock, c.files, c.processes, c.make_transport, *workflow_, c.in, c.out,
                             c.gpus, c.err});
  }
  Context& context() { return context_ ? *context_ : system_.context(); }

 private:
  SystemSeams system_;
  std::unique_ptr<StreamWorkflow> workflow_;
  std::optional<Context> context_;
};

// The frame; `act` may name the NoVerdict of the subcommand it runs in `chosen`.
int run_frame(const ToolInfo& info, int argc, const char* const* argv, Context& context,
              const std::function<void(CLI::App&)>& configure,
              const std::function<ExitCode(CLI::App&, Context&, const NoVerdict*&)>& act) {
  CLI::App app(info.description, info.name);
  app.set_version_flag("--version", info.name + " (gatekit) " + kVersion);
  app.option_defaults()->always_capture_default();
  const auto args = with_empty_values(argc, argv);
  std::vector<const char*> arg_pointers;
  for (const auto& arg : args) arg_pointers.push_back(arg.c_str());
  try {
    configure(app);
    app.parse(static_cast<int>(arg_pointers.size()), arg_pointers.data());
  } catch (const CLI::CallForHelp&) {
    context.out << app.help();
    return to_int(ExitCode::pass);
  } catch (const CLI::CallForAllHelp&) {
    context.out << app.help("", CLI::AppFormatMode::All);
    return to_int(ExitCode::pass);
  } catch (const CLI::CallForVersion& e) {
    context.out << e.what() << '\n';
    return to_int(ExitCode::pass);
  } catch (const CLI::ParseError& e) {
    context.err << inert_lines(info.name + ": error: " + e.what()) << "\n"
              << "Run '" << info.name << " --help' for usage.\n";
    report_no_verdict(info.rejected_argv ? *info.rejected_argv : info.no_verdict, bad_input(e.what()), context);
    return to_int(ExitCode::usage_error);
  }
  const NoVerdict* chosen = &info.no_verdict;
  try {
    const ExitCode code = act(app, context, chosen);
    if (code == ExitCode::usage_error || code == ExitCode::could_not_evaluate)
      report_no_verdict(*chosen, returned_no_verdict(info, code), context);
    const auto& unwritten = context.workflow.write_errors();
    if (!unwritten.empty() && code != ExitCode::usage_error) {
      const Error error = could_not_evaluate("the result could not be reported: " + unwritten.front() +
                                             " (downstream jobs would read empty outputs)");
      if (code != ExitCode::could_not_evaluate) report_unreported(*chosen, error, context);
      return report(info, context, error.message, worst(code, ExitCode::could_not_evaluate));
    }
    return to_int(code);
  } catch (const Failure& failure) {
    const Error error = cancelled_or(info, failure.error());
    report_no_verdict(*chosen, error, context);
    return report(info, context, error.message, exit_code_of(error));
  } catch (const std::exception& e) {
    const Error error = cancelled_or(info, could_not_evaluate(e.what()));
    report_no_verdict(*chosen, error, context);
    return report(info, context, error.message, ExitCode::could_not_evaluate);
  }
}

}  // namespace

void report_no_verdict(const NoVerdict& no_verdict, const Error& error, Context& context) {
  if (no_verdict.result_output) context.workflow.set_output("result", no_verdict.result);
  if (no_verdict.hook) no_verdict.hook(error, context);
}

int run_tool(const ToolInfo& info, int argc, const char* const* argv, Context& context,
             const Configure& configure, const Act& act) {
  return run_frame(
      info, argc, argv, context,
      [&](CLI::App& app) {
        CliCommand command(app);
        configure(command);
      },
      [&](CLI::App&, Context& ctx, const NoVerdict*&) { return act(ctx); });
}

int run_tool(const ToolInfo& info, int argc, const char* const* argv, Context& context,
             const std::vector<Subcommand>& subcommands, const Configure& configure) {
  return run_frame(
      info, argc, argv, context,
      [&](CLI::App& app) {
        app.require_subcommand(1);
        CliCommand command(app);
        if (configure) configure(command);
        for (const auto& row : subcommands) {
          CliCommand sub(*app.add_subcommand(row.name, row.description));
          row.configure(sub);
        }
      },
      [&](CLI::App& app, Context& ctx, const NoVerdict*& chosen) -> ExitCode {
        for (const auto& row : subcommands) {
          if (!app.got_subcommand(row.name)) continue;
          chosen = &row.no_verdict;
          return row.run(ctx);
        }
        fail_bad_input("no subcommand given (see --help)");
      });
}

namespace {
// What a tool's process sets up before anything else, in either form of run_tool.
void start_process() {
  // A tool runs for milliseconds over a few megabytes: fewer page faults (platform.hpp).
  platform::prefer_huge_pages();
  // A reader that goes away (a closed pipe) must not kill the tool before it reports.
  std::signal(SIGPIPE, SIG_IGN);
}
}  // namespace

int run_tool(const ToolInfo& info, int argc, const char* const* argv, const Configure& configure,
             const Act& act) {
  start_process();
  FrameSeams seams(info);
  return run_tool(info, argc, argv, seams.context(), configure, act);
}

int run_tool(const ToolInfo& info, int argc, const char* const* argv, const std::vector<Subcommand>& subcommands,
             const Configure& configure) {
  start_process();
  FrameSeams seams(info);
  return run_tool(info, argc, argv, seams.context(), subcommands, configure);
}

}  // namespace gatekit
