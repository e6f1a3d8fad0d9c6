#pragma once
// The exit codes every gatekit tool uses; documented in docs/exit-codes.md.
// Workflows branch on them, so the numbers are a public contract and never change.

namespace gatekit {

enum class ExitCode : int {
  pass = 0,                // the check was evaluated and passed
  verdict_fail = 1,        // the check was evaluated and did not pass
  usage_error = 2,         // bad command line or invalid configuration: fix the call
  could_not_evaluate = 3,  // inputs or infrastructure failed: no verdict was reached
};

constexpr int to_int(ExitCode code) { return static_cast<int>(code); }

// "Could not evaluate" must never be reported as a pass; combining results keeps the worst.
constexpr ExitCode worst(ExitCode a, ExitCode b) {
  auto rank = [](ExitCode c) {
    switch (c) {
      case ExitCode::pass: return 0;
      case ExitCode::verdict_fail: return 1;
      case ExitCode::could_not_evaluate: return 2;
      case ExitCode::usage_error: return 3;
    }
    return 3;
  };
  return rank(a) >= rank(b) ? a : b;
}

}  // namespace gatekit
