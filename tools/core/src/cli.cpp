#include "gatekit/cli.hpp"

#include <csignal>
#include <exception>
#include <iostream>

#include "gatekit/version.hpp"
#include "gatekit/workflow.hpp"

namespace gatekit {

int run_tool(const ToolInfo& info, int argc, const char* const* argv,
             const std::function<void(CLI::App&)>& configure,
             const std::function<ExitCode(CLI::App&)>& act, const UsageErrorHook& on_usage_error) {
  // A reader that goes away (a closed pipe) must not kill the tool before it reports.
  std::signal(SIGPIPE, SIG_IGN);
  CLI::App app(info.description, info.name);
  app.set_version_flag("--version", info.name + " (gatekit) " + kVersion);
  app.option_defaults()->always_capture_default();
  try {
    configure(app);
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return to_int(ExitCode::pass);
  } catch (const CLI::CallForAllHelp&) {
    std::cout << app.help("", CLI::AppFormatMode::All);
    return to_int(ExitCode::pass);
  } catch (const CLI::CallForVersion& e) {
    std::cout << e.what() << '\n';
    return to_int(ExitCode::pass);
  } catch (const CLI::ParseError& e) {
    // Messages may quote outside text (arguments, paths, API text): inert_lines keeps every
    // line of them from acting as a workflow command.
    std::cerr << inert_lines(info.name + ": error: " + e.what()) << "\n"
              << "Run '" << info.name << " --help' for usage.\n";
    if (on_usage_error) on_usage_error(e.what());
    return to_int(ExitCode::usage_error);
  }
  try {
    return to_int(act(app));
  } catch (const ToolError& e) {
    std::cout.flush();
    std::cerr << inert_lines(info.name + ": error: " + e.message) << '\n';
    return to_int(e.code);
  } catch (const std::exception& e) {
    std::cout.flush();
    std::cerr << inert_lines(info.name + ": error: " + e.what()) << '\n';
    return to_int(ExitCode::could_not_evaluate);
  }
}

}  // namespace gatekit
