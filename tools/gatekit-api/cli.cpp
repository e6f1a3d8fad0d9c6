// gatekit-api METHOD PATH [--paginate] [-f k=v] [-F k=v] [--input FILE]
// Exit codes: 0 the call succeeded; 2 usage; 3 the API call failed after retries.
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "gatekit-api.hpp"
#include "gatekit/cli.hpp"
#include "gatekit/clock.hpp"
#include "gatekit/environment.hpp"
#include "gatekit/github.hpp"
#include "gatekit/workflow.hpp"

namespace {

using gatekit::ExitCode;
using gatekit::ToolError;

std::optional<std::string> read_input(const std::string& input) {
  if (input.empty()) return std::nullopt;
  if (input == "-") return std::string(std::istreambuf_iterator<char>(std::cin), {});
  std::ifstream in(input, std::ios::binary);
  if (!in) throw ToolError{ExitCode::usage_error, "cannot read --input file '" + input + "'"};
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

ExitCode act(const gatekit::api::Options& options) {
  auto call = gatekit::api::build_call(options, read_input(options.input));
  if (!call) throw ToolError{call.error().code, call.error().message};
  gatekit::SystemEnvironment env;
  auto workflow = gatekit::make_workflow(env, std::cerr);
  auto client_options = gatekit::github::options_from_environment(env, options.token);
  client_options.budget = std::chrono::milliseconds(static_cast<std::int64_t>(options.budget_s * 1000));
  client_options.request_timeout = std::chrono::milliseconds(static_cast<std::int64_t>(options.timeout_s * 1000));
  client_options.max_attempts = options.max_attempts;
  auto transport = gatekit::github::make_curl_transport();
  gatekit::SystemClock clock;
  gatekit::github::Client client(client_options, *transport, clock, workflow.get());
  auto result = client.request(call->method, call->path, call->body, options.paginate);
  if (auto* error = std::get_if<gatekit::github::ApiError>(&result)) {
    throw ToolError{ExitCode::could_not_evaluate,
                    error->describe() + " [" + std::string(gatekit::github::to_string(error->kind)) + "]"};
  }
  const auto& value = std::get<boost::json::value>(result);
  if (!value.is_null()) std::cout << gatekit::api::inert_json(value) << '\n';
  return ExitCode::pass;
}

}  // namespace

int gatekit_api_main(int argc, const char* const* argv) {
  gatekit::api::Options options;
  return gatekit::run_tool(
      {"gatekit-api", "Makes one GitHub REST API call with gatekit's client and prints the JSON answer."}, argc, argv,
      [&](CLI::App& app) {
        app.add_option("method", options.method, "GET, POST, PATCH, PUT or DELETE")->required();
        app.add_option("path", options.path, "path below GITHUB_API_URL, e.g. /repos/o/r/pulls/1/files")->required();
        app.add_flag("--paginate", options.paginate, "follow Link rel=next and print all items as one array");
        app.add_option("-f,--raw-field", options.raw_fields, "key=value, a string (query for GET, body otherwise)");
        app.add_option("-F,--field", options.typed_fields, "key=value; true/false/null/numbers keep their JSON type");
        app.add_option("--input", options.input, "a file with the JSON request body, '-' for stdin");
        app.add_option("--token", options.token, "token (default: GITHUB_TOKEN, then GH_TOKEN)");
        app.add_option("--budget", options.budget_s, "seconds for the whole call, retries and waits included")
            ->check(CLI::PositiveNumber);
        app.add_option("--timeout", options.timeout_s, "seconds per HTTP request")->check(CLI::PositiveNumber);
        app.add_option("--max-attempts", options.max_attempts, "attempts per request")->check(CLI::Range(1, 20));
      },
      [&](CLI::App&) { return act(options); });
}
