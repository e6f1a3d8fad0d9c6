#pragma once
// What every configuration loader promises about a refusal (docs/exit-codes.md): a usage
// error (exit 2) whose message names the file, with a line and column, on every line.
#include <string>

#include "gatekit/result.hpp"

namespace gatekit::fuzzing {

// "" when `error` is a proper refusal of the file `origin`, else what is wrong with it.
inline std::string config_error_violation(const Error& error, const std::string& origin) {
  if (error.kind != ErrorKind::bad_input) return "a refusal that is not a usage error: " + error.message;
  if (error.message.empty()) return "a refusal without a message";
  if (error.message.find(origin + ":") == std::string::npos) return "a refusal not naming the file: " + error.message;
  return "";
}

}  // namespace gatekit::fuzzing
