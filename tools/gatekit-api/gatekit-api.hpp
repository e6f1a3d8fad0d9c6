#pragma once
// gatekit-api: one GitHub REST call from the command line, through gatekit's client (auth,
// retries, rate limits, pagination), printing the JSON answer.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gatekit/compat.hpp"
#include "gatekit/result.hpp"

int gatekit_api_main(int argc, const char* const* argv);

namespace gatekit::api {

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

struct Call {
  std::string method;  // upper-case
  std::string path;    // with the query for GET fields
  std::optional<boost::json::value> body;
};

// Turns the options into one call: GET/DELETE fields become query parameters, other
// methods' fields a JSON object body; --input (already read into input_text) is the body.
// Errors are usage errors naming the offending field.
Result<Call> build_call(const Options& options, const std::optional<std::string>& input_text);

// The answer as printed: one line of JSON with the same value that the runner never reads as
// a workflow command (API text is outside data). Serialized as is when that text is inert
// (gatekit::inert_line leaves it unchanged); else, inside strings, every '[' and non-ASCII
// character is written as a \u escape (the core's gatekit::inert_json).
std::string inert_json(const boost::json::value& value);

}  // namespace gatekit::api
