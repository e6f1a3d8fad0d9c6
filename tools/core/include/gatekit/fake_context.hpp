#pragma once
// Seams for tests.
// FakeSeams: all in memory, so a whole command runs without touching the machine.
//   FakeSeams seams;
//   seams.files.files["rules.yml"] = "...";
//   seams.gpus.set_devices({"NVIDIA H100"});
//   seams.run.repository = "o/r";  // the CI run (gatekit/run_info.hpp); empty: outside one
//   auto code = run(options, seams.context());
//   CHECK(seams.workflow.outputs["result"] == "pass");
// RealFilesSeams: real files and processes (so real git in a temporary repository) and real
// GPU discovery (steered by the test's environment: GATEKIT_HIP_LIBRARY,
// GATEKIT_CUDA_LIBRARY), the rest fake: a test's clock, environment, run, workflow and streams.
//   RealFilesSeams seams;  // or seams{FakeClock::time_point(std::chrono::seconds(1'800'000'000))}
//   Git git(seams.processes, repo);
#include <sstream>
#include <utility>

#include "gatekit/clock.hpp"
#include "gatekit/context.hpp"
#include "gatekit/environment.hpp"
#include "gatekit/files.hpp"
#include "gatekit/gpu.hpp"
#include "gatekit/process.hpp"
#include "gatekit/run_info.hpp"
#include "gatekit/workflow.hpp"

namespace gatekit {

struct FakeSeams {
  MapEnvironment env;
  // The CI run's identity, as a test sets it; the frame reads it from GITHUB_* once, a test
  // never goes through the environment for it (run_info_from is tested on its own).
  RunInfo run;
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
  FakeGpuProbe gpus;  // no GPU unless a test gives some
  std::ostringstream err;

  Context context() {
    return Context{env, run, clock, files, processes, make_transport, workflow, in, out, gpus, err};
  }
};

// Real files, processes and GPU discovery; everything else as in FakeSeams (git, driven
// through the real processes, works in a test's temporary repository while the test holds
// the clock).
struct RealFilesSeams {
  RealFilesSeams() = default;
  explicit RealFilesSeams(FakeClock::time_point start) : clock(start) {}

  MapEnvironment env;
  RunInfo run;
  FakeClock clock;
  SystemFiles files;
  SystemProcessRunner processes;
  TransportFactory make_transport;  // empty unless a test points it at a server
  RecordingWorkflow workflow;
  std::istringstream in;
  std::ostringstream out;
  SystemGpuProbe gpus{processes};
  std::ostringstream err;

  Context context() {
    return Context{env, run, clock, files, processes, make_transport, workflow, in, out, gpus, err};
  }
};

}  // namespace gatekit
