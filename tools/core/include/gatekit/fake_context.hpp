#pragma once
// In-memory seams for tests: a whole command runs without touching the machine.
//   FakeSeams seams;
//   seams.files.files["rules.yml"] = "...";
//   auto code = run(options, seams.context());
//   CHECK(seams.workflow.outputs["result"] == "pass");
#include <sstream>
#include <utility>

#include "gatekit/clock.hpp"
#include "gatekit/context.hpp"
#include "gatekit/environment.hpp"
#include "gatekit/files.hpp"
#include "gatekit/process.hpp"
#include "gatekit/workflow.hpp"

namespace gatekit {

struct FakeSeams {
  MapEnvironment env;
  FakeClock clock;
  MemoryFiles files;
  // Fails every start unless a test sets a handler: a command that runs a process it should
  // not is an error, not a silent success.
  FakeProcessRunner processes{[](const ProcessSpec& spec) -> Result<ProcessResult> {
    return could_not_evaluate("no process expected in this test: " + (spec.argv.empty() ? "" : spec.argv[0]));
  }};
  TransportFactory make_transport;  // empty: no HTTP in this test
  RecordingWorkflow workflow;
  std::istringstream in;
  std::ostringstream out;

  Context context() { return Context{env, clock, files, processes, make_transport, workflow, in, out}; }
};

}  // namespace gatekit
