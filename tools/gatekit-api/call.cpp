// gatekit-api METHOD PATH [--paginate] [-f k=v] [-F k=v] [--input FILE]
// Exit codes: 0 the call succeeded; 2 usage; 3 the API call failed after retries.
#include <chrono>
#include <cstdint>
#include <iterator>
#include <optional>
#include <ostream>
#include <string>
#include <utility>

#include "build_call.hpp"
#include "gatekit-api.hpp"
#include "gatekit/files.hpp"
#include "gatekit/github_json.hpp"

namespace gatekit::gatekit_api {
namespace {

// The request body of --input: a file (the caller's own: unreadable is bad input) or stdin.
std::optional<std::string> read_input(const std::string& input, Context& context) {
  if (input.empty()) return std::nullopt;
  if (input == "-") return value_or_throw(as_bad_input(read_stream(context.in, "stdin")));
  return value_or_throw(as_bad_input(context.files.read(input)));
}

github::ClientOptions client_options(const Options& options, const Context& context) {
  auto out = github::options_for(context, options.token);
  out.budget = std::chrono::milliseconds(static_cast<std::int64_t>(options.budget_s * 1000));
  out.request_timeout = std::chrono::milliseconds(static_cast<std::int64_t>(options.timeout_s * 1000));
  out.max_attempts = options.max_attempts;
  return out;
}

}  // namespace

ExitCode run_call(const Options& options, Context& context) {
  const auto call = value_or_throw(build_call(options, read_input(options.input, context)));
  auto client = value_or_throw(github::connect(context, client_options(options, context)));
  auto result = github::request(client, call.method, call.path, call.body, options.paginate);
  const auto value = value_or_throw(std::move(result));
  if (!value.is_null()) context.out << inert_json(value) << '\n';
  return ExitCode::pass;
}

}  // namespace gatekit::gatekit_api
