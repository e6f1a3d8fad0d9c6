// The executor over fake seams: a fake clock and fake processes, no real process and no
// sleep. What a smoke's process reports (exit, signal, timeout, duration) is scripted, so
// the executor's decisions (status, reason, order, devices, start offsets, progress pacing)
// are checked exactly. test_executor.cpp runs the same executor on real processes.
#include <csignal>
#include <sstream>
#include <thread>

#include "catch.hpp"
#include "executor.hpp"
#include "fake_smokes.hpp"
#include "gatekit/environment.hpp"
#include "gatekit/files.hpp"
#include "gatekit/gpu.hpp"
#include "gatekit/run_info.hpp"
#include "gatekit/termination.hpp"
#include "gatekit/workflow.hpp"

using namespace gatekit::smoke_runner;
using namespace std::chrono_literals;
using gatekit::ProcessResult;
using gatekit::ProcessSpec;
using gatekit::Result;

namespace {

ProcessResult exited(int code, milliseconds took) {
  ProcessResult r;
  r.exit_code = code;
  r.duration = took;
  return r;
}

ProcessResult signalled(int signal, milliseconds took) {
  ProcessResult r;
  r.signal = signal;
  r.duration = took;
  return r;
}

std::string name_of(const ProcessSpec& spec) { return spec.env_set.at("GATEKIT_SMOKE_NAME"); }

// One executor run over fakes. The runner answers by smoke name from `script`; a smoke
// missing from it fails the test.
struct FakeSetup {
  Manifest manifest;
  gatekit::MapEnvironment env;
  gatekit::RunInfo run_info;
  testing::SharedFakeClock clock;
  gatekit::MemoryFiles files;
  gatekit::FakeGpuProbe probe;
  std::ostringstream err;
  gatekit::RecordingWorkflow workflow;
  std::istringstream in;
  std::ostringstream out;
  std::map<std::string, std::function<Result<ProcessResult>(const ProcessSpec&)>> script;
  gatekit::FakeProcessRunner runner{[this](const ProcessSpec& spec) -> Result<ProcessResult> {
    auto it = script.find(name_of(spec));
    if (it == script.end()) return gatekit::could_not_evaluate("unexpected smoke " + name_of(spec));
    return it->second(spec);
  }};
  int notified = 0;

  void add(const std::string& name, int gpus = 1, milliseconds timeout = 1min) {
    Smoke s;
    s.name = name;
    s.command = {"run-" + name};
    s.min_gpus = gpus;
    s.pr = true;
    s.timeout = timeout;
    s.kill_grace = 2s;
    manifest.smokes.push_back(s);
  }
  // The smoke exits with `code` after `took`, which passes on the clock too.
  void ends(const std::string& name, int code, milliseconds took) {
    script[name] = [this, code, took](const ProcessSpec&) -> Result<ProcessResult> {
      clock.advance(took);
      return exited(code, took);
    };
  }

  std::vector<SmokeResult> run(int gpus, ExecOptions options = {}, gatekit::ProcessRunner* processes = nullptr) {
    options.gpus = gpus;
    const auto decisions = select_smokes(manifest, Tier::full, gpus);
    const auto plan = plan_runs(make_jobs(manifest, decisions, {}), gpus, options.serial);
    gatekit::Context context{env, run_info, clock, files, processes ? *processes : runner, {}, workflow, in, out, probe, err};
    Executor executor(context);
    return executor.run(manifest, decisions, plan, options, [this](const std::vector<SmokeResult>&) { ++notified; });
  }
};

}  // namespace

TEST_CASE("classify: pass, timeout, cancellation and failure from the process result alone") {
  CHECK(classify(exited(0, 1s), 1min, 0).status == Status::passed);
  CHECK(classify(exited(0, 1s), 1min, 0).reason.empty());

  auto failed = classify(exited(3, 1s), 1min, 0);
  CHECK(failed.status == Status::failed);
  CHECK(failed.reason == "exit code 3");

  ProcessResult late = signalled(SIGTERM, 60s);
  late.timed_out = true;
  auto timed_out = classify(late, 1min, 0);
  CHECK(timed_out.status == Status::timed_out);
  CHECK(timed_out.reason == "timed out after 1m 00s");
  late.killed = true;
  CHECK(classify(late, 1min, 0).reason == "timed out after 1m 00s (killed after ignoring SIGTERM)");
  // A timeout stays a timeout when a cancellation comes after it.
  CHECK(classify(late, 1min, SIGTERM).status == Status::timed_out);

  // Ended by a signal after the runner received one: the cancellation, not the smoke's failure.
  auto cancelled = classify(signalled(SIGTERM, 2s), 1min, SIGINT);
  CHECK(cancelled.status == Status::cancelled);
  CHECK(cancelled.reason == "killed by signal 15 (SIGTERM) after the runner received SIGINT");
  // A smoke that fails on its own while the runner is being cancelled is still reported as cancelled.
  CHECK(classify(exited(1, 2s), 1min, SIGTERM).status == Status::cancelled);
  // The same signal without a cancellation is the smoke's own failure.
  auto killed = classify(signalled(SIGKILL, 2s), 1min, 0);
  CHECK(killed.status == Status::failed);
  CHECK(killed.reason == "killed by signal 9 (SIGKILL)");
}

TEST_CASE("fakes: each smoke runs with its own timeout, grace and variables; a timeout is reported with its limit") {
  gatekit::reset_termination_for_testing();
  FakeSetup s;
  s.add("quick", 1, 90s);
  s.add("hang", 1, 300ms);
  s.manifest.smokes[0].env = {{"MODE", "fast"}};
  s.ends("quick", 0, 2s);
  s.script["hang"] = [&s](const ProcessSpec&) -> Result<ProcessResult> {
    s.clock.advance(300ms);
    ProcessResult r = signalled(SIGKILL, 300ms + 2s);
    r.timed_out = true;
    r.killed = true;
    return r;
  };
  auto r = s.run(1);
  REQUIRE(s.runner.calls.size() == 2);
  const ProcessSpec& quick = s.runner.calls[0];
  CHECK(quick.argv == std::vector<std::string>{"run-quick"});
  CHECK(quick.timeout == 90s);
  CHECK(quick.kill_grace == 2s);
  CHECK(quick.merge_stderr);
  CHECK(quick.env_set.at("MODE") == "fast");
  CHECK(quick.env_set.at("GATEKIT_SMOKE_NAME") == "quick");
  CHECK(quick.env_unset == std::vector<std::string>{"GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH",
                                                    "GITHUB_STEP_SUMMARY", "GITHUB_STATE"});
  CHECK(s.runner.calls[1].timeout == 300ms);
  CHECK(r[0].status == Status::passed);
  CHECK(r[0].duration == 2s);
  CHECK(r[1].status == Status::timed_out);
  CHECK(r[1].reason == "timed out after 300ms (killed after ignoring SIGTERM)");
  CHECK(r[1].signal == SIGKILL);
  CHECK(s.workflow.lines == std::vector<std::string>{"RUN  quick: run-quick [GPU 0]", "PASS quick (2.0s)",
                                                     "RUN  hang: run-hang [GPU 0]",
                                                     "FAIL hang: timed out after 300ms (killed after ignoring "
                                                     "SIGTERM) (2.3s)"});
}

TEST_CASE("fakes: one at a time in the plan's order, start offsets read from the clock") {
  gatekit::reset_termination_for_testing();
  FakeSetup s;
  s.add("small", 1, 1min);
  s.add("wide", 2, 1min);
  s.add("long", 1, 10min);
  s.ends("small", 0, 1s);
  s.ends("wide", 0, 5s);
  s.ends("long", 0, 3s);
  auto r = s.run(2);  // streamed: one smoke at a time
  REQUIRE(s.runner.calls.size() == 3);
  // More GPUs first, then the longer estimate (here: the timeout).
  CHECK(name_of(s.runner.calls[0]) == "wide");
  CHECK(name_of(s.runner.calls[1]) == "long");
  CHECK(name_of(s.runner.calls[2]) == "small");
  CHECK(*r[1].start == 0s);
  CHECK(*r[2].start == 5s);
  CHECK(*r[0].start == 8s);
  CHECK(r[1].devices == std::vector<int>{0, 1});
  CHECK(r[2].devices == std::vector<int>{0});
  // Each smoke sees only its own devices.
  CHECK(s.runner.calls[0].env_set.at("CUDA_VISIBLE_DEVICES") == "0,1");
  CHECK(s.runner.calls[1].env_set.at("CUDA_VISIBLE_DEVICES") == "0");
}

TEST_CASE("fakes: a smoke that cannot start is an error timed by the clock, and the next one still runs") {
  gatekit::reset_termination_for_testing();
  FakeSetup s;
  s.add("missing");
  s.add("ok");
  s.script["missing"] = [&s](const ProcessSpec&) -> Result<ProcessResult> {
    s.clock.advance(1500ms);
    return gatekit::could_not_evaluate("program 'run-missing' not found on PATH");
  };
  s.ends("ok", 0, 1s);
  auto r = s.run(1);
  CHECK(r[0].status == Status::error);
  CHECK(r[0].reason == "program 'run-missing' not found on PATH");
  CHECK(r[0].duration == 1500ms);
  CHECK(r[1].status == Status::passed);
  CHECK(*r[1].start == 1500ms);
  CHECK(s.workflow.lines[1] == "ERROR missing: program 'run-missing' not found on PATH");
}

TEST_CASE("fakes: progress reports are paced by the clock, not by the number of smokes") {
  gatekit::reset_termination_for_testing();
  SECTION("no time passes: only the first and the last report") {
    FakeSetup s;
    for (const char* name : {"a", "b", "c", "d", "e"}) {
      s.add(name);
      s.script[name] = [](const ProcessSpec&) -> Result<ProcessResult> { return exited(0, 0ms); };
    }
    s.run(1);
    CHECK(s.runner.calls.size() == 5);
    CHECK(s.notified == 2);
  }
  SECTION("each smoke takes longer than the interval: one report per smoke more") {
    FakeSetup s;
    for (const char* name : {"a", "b", "c", "d", "e"}) {
      s.add(name);
      s.ends(name, 0, 2s);
    }
    s.run(1);
    CHECK(s.notified == 2 + 5);
  }
}

TEST_CASE("fakes: fail-fast starts nothing after the first failure") {
  gatekit::reset_termination_for_testing();
  FakeSetup s;
  s.add("bad");
  s.add("later");
  s.ends("bad", 2, 1s);
  ExecOptions o;
  o.fail_fast = true;
  auto r = s.run(1, o);
  CHECK(s.runner.calls.size() == 1);
  CHECK(r[0].status == Status::failed);
  CHECK(r[0].reason == "exit code 2");
  CHECK(r[1].status == Status::not_run);
  CHECK(r[1].reason == "not started: --fail-fast after bad failed");
}

TEST_CASE("fakes: a termination signal during a smoke cancels it and starts nothing more") {
  gatekit::reset_termination_for_testing();
  FakeSetup s;
  s.add("first");
  s.add("second");
  s.script["first"] = [](const ProcessSpec&) -> Result<ProcessResult> {
    gatekit::request_termination(SIGTERM);  // as the handler does; the smoke's group gets SIGTERM
    return signalled(SIGTERM, 4s);
  };
  auto r = s.run(1);
  gatekit::reset_termination_for_testing();
  CHECK(s.runner.calls.size() == 1);
  CHECK(r[0].status == Status::cancelled);
  CHECK(r[0].reason == "killed by signal 15 (SIGTERM) after the runner received SIGTERM");
  CHECK(r[0].duration == 4s);
  CHECK(r[1].status == Status::not_run);
  CHECK(r[1].reason == "not started: the runner received SIGTERM");
  CHECK(s.workflow.lines.back() == "NOT RUN second: not started: the runner received SIGTERM");
}

TEST_CASE("fakes: a smoke waits for GPUs, then the next ones start together when the clock says they freed") {
  gatekit::reset_termination_for_testing();
  FakeSetup s;
  s.add("wide", 2);
  s.add("a", 1);
  s.add("b", 1);
  testing::GatedRunner gated;
  ExecOptions o;
  o.stream = false;  // several at once
  std::vector<SmokeResult> r;
  std::thread executor([&] { r = s.run(2, o, &gated); });
  struct Join {
    testing::GatedRunner& gated;
    std::thread& thread;
    ~Join() {
      gated.release_all();
      if (thread.joinable()) thread.join();
    }
  } join{gated, executor};

  REQUIRE(gated.wait_started(1));
  s.clock.advance(4s);
  CHECK(gated.started() == std::vector<std::string>{"wide"});  // a and b wait for its GPUs
  gated.release("wide", 4s);
  REQUIRE(gated.wait_started(3));
  s.clock.advance(1s);
  gated.release("a", 1s);
  gated.release("b", 1s);
  executor.join();
  REQUIRE(r.size() == 3);
  CHECK(r[0].devices == std::vector<int>{0, 1});
  CHECK(*r[0].start == 0s);
  CHECK(*r[1].start == 4s);
  CHECK(*r[2].start == 4s);
  CHECK(r[1].devices == std::vector<int>{0});
  CHECK(r[2].devices == std::vector<int>{1});
  for (const auto& x : r) CHECK(x.status == Status::passed);
  // Buffered output: one group per smoke, printed when it ends (a and b in either order).
  REQUIRE(s.workflow.groups.size() == 3);
  CHECK(s.workflow.groups[0] == "wide output");
}
