#pragma once
// The request a gatekit-api command line makes, and the answer as printed: the parts of the
// tool that handle JSON (kept out of gatekit-api.hpp).
#include <optional>
#include <string>

#include "gatekit-api.hpp"
#include "gatekit/json.hpp"
#include "gatekit/result.hpp"

namespace gatekit::gatekit_api {

struct Call {
  std::string method;  // upper-case
  std::string path;    // with the query for GET fields
  std::optional<boost::json::value> body;
};

// Turns the options into one call: GET/DELETE fields become query parameters, other
// methods' fields a JSON object body; --input (already read into input_text) is the body.
// Errors are bad input naming the offending field.
Result<Call> build_call(const Options& options, const std::optional<std::string>& input_text);

// The answer as printed: one line of JSON with the same value that the runner never reads as
// a workflow command (API text is outside data). Serialized as is when that text is inert
// (gatekit::inert_line leaves it unchanged); else, inside strings, every '[' and non-ASCII
// character is written as a \u escape (the core's gatekit::inert_json).
std::string inert_json(const boost::json::value& value);

}  // namespace gatekit::gatekit_api
