#pragma once
// Runs the eligible smokes: event-driven, starting each one as soon as the GPUs it needs are
// free (the same start rule as the planner, see plan.hpp), each in its own process group with
// its own timeout. Stops starting new smokes on SIGINT/SIGTERM (termination.hpp) and, with
// fail_fast, after the first failure. Every side effect goes through the Context, so tests
// drive it with a FakeClock and a fake ProcessRunner.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "gatekit/context.hpp"
#include "gatekit/process.hpp"
#include "manifest.hpp"
#include "plan.hpp"
#include "results.hpp"

namespace gatekit::smoke_runner {

struct ExecOptions {
  int gpus = 0;            // devices the runner sees
  bool serial = false;     // one smoke at a time, each seeing every device
  bool fail_fast = false;  // start nothing new after a failure
  // Stream each smoke's output live inside its log group; otherwise (several smokes at
  // once) the output is buffered and printed as one group when the smoke ends.
  bool stream = true;
  std::filesystem::path workdir;  // base for relative cwd; empty: the current directory
  std::size_t live_limit = 8u << 20;  // bytes streamed live per smoke before only the tail is kept
  std::size_t keep_head = 256u << 10;  // bytes of output kept for the log group and the reports
  std::size_t keep_tail = 768u << 10;
  // on_change is called at most this often (and once at the start and the end), so progress
  // reports stay cheap with many short smokes.
  milliseconds progress_interval{1000};
  // Start smokes strictly in the plan's start order (no overtaking): with known durations
  // this replays the plan even when real durations differ slightly from the estimates.
  bool replay_plan = false;
};

// How a smoke that ran ended, from the process's result alone (pure): passed, timed out
// (`timeout` names the limit), cancelled (a signal ended it after the runner received
// `termination_signal`, 0 when none), else failed.
struct Outcome {
  Status status = Status::failed;
  std::string reason;  // empty when it passed
};
Outcome classify(const ProcessResult& result, milliseconds timeout, int termination_signal);

class Executor {
 public:
  // From the context: the processes that run the smokes, the clock (start offsets, progress
  // pacing), the workflow (progress lines, log groups), the log stream `out` and the runner's
  // environment (to compose each smoke's device variables).
  explicit Executor(Context& context) : context_(context) {}

  // One result per manifest entry. `on_change` is called with the results so far whenever
  // a smoke starts or ends (the caller rewrites its reports), at most once per
  // options.progress_interval, and always at the start and the end.
  // `plan` gives the queue order and start rule (plan_runs); its times are only estimates:
  // smokes start when GPUs actually free up.
  std::vector<SmokeResult> run(const Manifest& manifest, const std::vector<Decision>& decisions,
                               const Plan& plan, const ExecOptions& options,
                               const std::function<void(const std::vector<SmokeResult>&)>& on_change);

 private:
  Context& context_;
};

}  // namespace gatekit::smoke_runner
