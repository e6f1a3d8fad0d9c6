#pragma once
// ci-status run as gpu-gate's subcommand table runs it: through the frame (gatekit/cli.hpp),
// so that a run without a verdict leaves what the frame writes (`result=error`) and what
// ci_status_no_verdict adds (`posted=false`), and its error is printed as the tool prints it.
#include <sstream>
#include <string>

#include "gatekit/cli.hpp"
#include "status/ci_status.hpp"

namespace gatekit::testing {

struct Framed {
  int code = 0;
  std::string err;  // what the frame printed
};

inline Framed ci_status_framed(const gpu_gate::CiStatusOptions& options, Context& context) {
  using gpu_gate::CiStatusOptions;
  const std::vector<Subcommand> table = {subcommand<CiStatusOptions>(
      "ci-status", "", [](gatekit::CliCommand&, CiStatusOptions&) {},
      [&options](const CiStatusOptions&, Context& c) { return gpu_gate::run_ci_status(options, c); }, true,
      gpu_gate::ci_status_no_verdict)};
  const char* argv[] = {"gpu-gate", "ci-status"};
  std::ostringstream err;  // the frame prints to the Context's stderr: this run's is read here
  Context framed{context.env, context.run, context.clock,  context.files, context.processes, context.make_transport,
                 context.workflow, context.in, context.out, context.gpus, err};
  const int code = run_tool({"gpu-gate", ""}, 2, argv, framed, table);
  return {code, err.str()};
}

}  // namespace gatekit::testing
