#pragma once
// "No verdict" (exit 2 or 3), reported one way for every tool: `result=error` when the step has
// a `result` output, then the tool's hook (more outputs, a summary, an annotation). The frame
// (gatekit/cli.hpp) reports it for a rejected argv, a Failure, any other exception and a run
// that returns exit 2 or 3. Light on purpose: a run that must report before it leaves (smoke-runner,
// whose reports and outputs are written on every path before its Failure reaches the frame)
// calls report_no_verdict itself, without the frame's CLI11.
#include <functional>
#include <string>

#include "gatekit/context.hpp"
#include "gatekit/result.hpp"

namespace gatekit {

struct NoVerdict {
  bool result_output = false;  // the step has a `result` output, set on no verdict
  std::function<void(const Error& error, Context& context)> hook;
  // What `result` says: `error`. smoke-runner's run says `cancelled` when a termination
  // signal ended it (docs/actions/smoke-runner.md).
  std::string result = "error";
};

// Writes `result` (when the step has one), then calls the hook with the error.
void report_no_verdict(const NoVerdict& no_verdict, const Error& error, Context& context);

}  // namespace gatekit
