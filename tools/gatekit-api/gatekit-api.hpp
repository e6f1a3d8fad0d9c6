#pragma once
// gatekit-api: one GitHub REST call from the command line, through gatekit's client (auth,
// retries, rate limits, pagination), printing the JSON answer. One subcommand, call.cpp.
#include <string>
#include <vector>

#include "gatekit/context.hpp"
#include "gatekit/exit_code.hpp"

int gatekit_api_main(int argc, const char* const* argv);

namespace gatekit::gatekit_api {

struct Options {
  std::string method;
  std::string path;
  bool paginate = false;
  std::vector<std::string> raw_fields;    // -f key=value: strings
  std::vector<std::string> typed_fields;  // -F key=value: true/false/null/numbers parsed
  std::string input;                      // --input FILE or '-': the request body
  std::string token;
  double budget_s = 120;
  double timeout_s = 30;
  int max_attempts = 6;
};

// Makes the call and prints the answer (one line of JSON; nothing for an empty answer) to
// context.out; the client masks the token and logs retries through context.workflow. Bad
// options or an unreadable --input are bad_input (exit 2); a call that failed after retries
// is could_not_evaluate (exit 3).
ExitCode run_call(const Options& options, Context& context);

}  // namespace gatekit::gatekit_api
