// The executor against real processes (sh -c snippets): pass, fail, hang, ignore SIGTERM,
// megabytes of output, death by signal, packing onto disjoint GPUs.
#include <csignal>
#include <sstream>
#include <thread>

#include "catch.hpp"
#include "executor.hpp"
#include "gatekit/clock.hpp"
#include "gatekit/environment.hpp"
#include "gatekit/files.hpp"
#include "gatekit/gpu.hpp"
#include "gatekit/run_info.hpp"
#include "gatekit/termination.hpp"
#include "gatekit/text.hpp"
#include "gatekit/workflow.hpp"
#include "temp_dir.hpp"

using namespace gatekit::smoke_runner;
using namespace std::chrono_literals;

namespace {

struct Setup {
  Manifest manifest;
  gatekit::MapEnvironment env;
  gatekit::RunInfo run_info;
  gatekit::RecordingWorkflow workflow;
  std::ostringstream out;
  std::istringstream in;
  gatekit::SystemProcessRunner runner;
  gatekit::SystemClock clock;
  gatekit::MemoryFiles files;
  gatekit::FakeGpuProbe probe;
  std::ostringstream err;

  void add(const std::string& name, const std::string& script, int gpus = 1, milliseconds timeout = 20s) {
    Smoke s;
    s.name = name;
    s.command = {"sh", "-c", script};
    s.min_gpus = gpus;
    s.pr = true;
    s.timeout = timeout;
    s.kill_grace = 300ms;
    manifest.smokes.push_back(s);
  }

  std::vector<SmokeResult> run(int gpus, ExecOptions options = {}) {
    options.gpus = gpus;
    auto decisions = select_smokes(manifest, Tier::full, gpus);
    auto plan = plan_runs(make_jobs(manifest, decisions, {}), gpus, options.serial);
    gatekit::Context context{env, run_info, clock, files, runner, {}, workflow, in, out, probe, err};
    Executor executor(context);
    return executor.run(manifest, decisions, plan, options, nullptr);
  }
};

}  // namespace

TEST_CASE("pass, fail, signal and timeout are told apart, and every smoke runs") {
  gatekit::reset_termination_for_testing();
  Setup s;
  s.add("ok", "echo hello");
  s.add("bad", "echo broken >&2; exit 3");
  s.add("segv", "kill -SEGV $$");
  s.add("hang", "sleep 30", 1, 300ms);
  s.add("stubborn", "trap '' TERM; while :; do sleep 0.05; done", 1, 300ms);
  auto r = s.run(1);
  REQUIRE(r.size() == 5);
  CHECK(r[0].status == Status::passed);
  CHECK(r[0].output == "hello\n");
  CHECK(r[1].status == Status::failed);
  CHECK(r[1].reason == "exit code 3");
  CHECK(r[1].output == "broken\n");
  CHECK(r[2].status == Status::failed);
  CHECK(r[2].reason == "killed by signal 11 (SIGSEGV)");
  CHECK(r[3].status == Status::timed_out);
  CHECK(r[3].reason == "timed out after 300ms");
  CHECK(r[4].status == Status::timed_out);
  CHECK(r[4].reason == "timed out after 300ms (killed after ignoring SIGTERM)");
  // Serial on one GPU: each is logged with its device, its output in a group.
  CHECK(s.workflow.lines[0] == "RUN  ok: sh -c 'echo hello' [GPU 0]");
  CHECK(s.workflow.lines[1] == "PASS ok (" + gatekit::format_duration(r[0].duration) + ")");
  // Each smoke's output sits in its own group, with workflow commands paused inside it.
  CHECK(s.workflow.groups.size() == 5);
  CHECK(s.workflow.groups_closed == 5);
  CHECK(s.workflow.pauses == 5);
  CHECK(s.workflow.resumes == 5);
}

TEST_CASE("a missing program or working directory is an error of that smoke only") {
  gatekit::reset_termination_for_testing();
  Setup s;
  s.add("missing", "");
  s.manifest.smokes[0].command = {"gatekit-no-such-program", "--x"};
  s.add("nocwd", "true");
  s.manifest.smokes[1].cwd = "/nonexistent/dir";
  s.add("ok", "true");
  auto r = s.run(1);
  CHECK(r[0].status == Status::error);
  CHECK(r[0].reason == "program 'gatekit-no-such-program' not found on PATH");
  CHECK(r[1].status == Status::error);
  CHECK(r[1].reason == "working directory '/nonexistent/dir' does not exist (cwd: /nonexistent/dir)");
  CHECK(r[2].status == Status::passed);
}

TEST_CASE("megabytes of output are bounded in memory and reports, streamed live up to a limit") {
  gatekit::reset_termination_for_testing();
  Setup s;
  s.add("loud", "head -c 3000000 /dev/zero | tr '\\0' x; echo; echo THE-END");
  ExecOptions o;
  o.live_limit = 1u << 20;
  auto r = s.run(1, o);
  REQUIRE(r[0].status == Status::passed);
  CHECK(r[0].output_bytes == 3000000 + 1 + 8);
  CHECK(r[0].output.size() < (1u << 20) + 200);
  CHECK(r[0].output.find("of output left out ...]") != std::string::npos);
  CHECK(r[0].output.ends_with("THE-END\n"));
  const std::string log = s.out.str();
  CHECK(log.size() < (1u << 20) + (64u << 10) + 500);
  CHECK(log.find("[smoke-runner: live output stopped after 1.0 MiB of 2.9 MiB; the last 64 KiB follow]") != std::string::npos);
  CHECK(log.ends_with("THE-END\n"));
}

TEST_CASE("packing: smokes run at once on disjoint GPUs and see only their own") {
  gatekit::reset_termination_for_testing();
  Setup s;
  s.env.set("CUDA_VISIBLE_DEVICES", "4,5,6,7");
  // Each smoke records its devices and waits long enough for the others to start.
  s.add("two", "echo \"$CUDA_VISIBLE_DEVICES|$HIP_VISIBLE_DEVICES\"; sleep 0.6", 2);
  s.add("one_a", "echo \"$CUDA_VISIBLE_DEVICES\"; sleep 0.6", 1);
  s.add("one_b", "echo \"$CUDA_VISIBLE_DEVICES\"; sleep 0.6", 1);
  ExecOptions o;
  o.stream = false;
  const auto start = std::chrono::steady_clock::now();
  auto r = s.run(4, o);
  const auto took = std::chrono::steady_clock::now() - start;
  CHECK(r[0].devices == std::vector<int>{0, 1});
  CHECK(r[0].output == "4,5|4,5\n");
  CHECK(r[1].devices == std::vector<int>{2});
  CHECK(r[1].output == "6\n");
  CHECK(r[2].devices == std::vector<int>{3});
  CHECK(r[2].output == "7\n");
  CHECK(took < 1500ms);  // all three at once, not 1.8 s one after another
  // Progress lines as they happen; each output printed as one group when its smoke ends.
  CHECK(s.workflow.lines[0] == "RUN  two: sh -c 'echo \"$CUDA_VISIBLE_DEVICES|$HIP_VISIBLE_DEVICES\"; sleep 0.6' [GPUs 0,1]");
  CHECK(s.workflow.groups.size() == 3);
  CHECK(s.workflow.groups_closed == 3);
}

TEST_CASE("a smoke waits until enough GPUs are free") {
  gatekit::reset_termination_for_testing();
  Setup s;
  s.add("wide", "sleep 0.3", 2);
  s.add("a", "sleep 0.3", 1);
  s.add("b", "sleep 0.3", 1);
  ExecOptions o;
  o.stream = false;
  auto r = s.run(2, o);
  for (const auto& x : r) REQUIRE(x.status == Status::passed);
  // `wide` first (more GPUs), then a and b together.
  CHECK(*r[1].start >= *r[0].start + r[0].duration);
  CHECK(r[1].devices != r[2].devices);
}

TEST_CASE("fail-fast: nothing starts after the first failure") {
  gatekit::reset_termination_for_testing();
  Setup s;
  s.add("bad", "exit 1");
  s.add("later", "true");
  ExecOptions o;
  o.fail_fast = true;
  auto r = s.run(1, o);
  CHECK(r[0].status == Status::failed);
  CHECK(r[1].status == Status::not_run);
  CHECK(r[1].reason == "not started: --fail-fast after bad failed");
  CHECK(s.workflow.lines.back() == "NOT RUN later: not started: --fail-fast after bad failed");
}

TEST_CASE("termination: running smokes get SIGTERM, the rest are not started") {
  gatekit::reset_termination_for_testing();
  Setup s;
  s.add("first", "sleep 30");
  s.add("second", "true");
  std::thread killer([] {
    std::this_thread::sleep_for(300ms);
    gatekit::request_termination(SIGTERM);
  });
  const auto start = std::chrono::steady_clock::now();
  auto r = s.run(1);
  killer.join();
  gatekit::reset_termination_for_testing();
  CHECK(std::chrono::steady_clock::now() - start < 5s);
  CHECK(r[0].status == Status::cancelled);
  CHECK(r[0].reason == "killed by signal 15 (SIGTERM) after the runner received SIGTERM");
  CHECK(r[1].status == Status::not_run);
  CHECK(r[1].reason == "not started: the runner received SIGTERM");
}

TEST_CASE("skipped entries keep their reason and never start") {
  gatekit::reset_termination_for_testing();
  Setup s;
  s.add("big", "true", 4);
  auto r = s.run(1);
  CHECK(r[0].status == Status::skipped);
  CHECK(r[0].reason == "needs 4 GPUs, runner has 1");
  CHECK(s.workflow.lines.empty());
}

TEST_CASE("a smoke that leaves a process behind is warned about, and the process is ended") {
  gatekit::reset_termination_for_testing();
  Setup s;
  s.add("leaky", "sleep 30 & echo started");
  auto r = s.run(1);
  REQUIRE(r.size() == 1);
  CHECK(r[0].status == Status::passed);
  REQUIRE(s.workflow.annotations.size() == 1);
  CHECK(s.workflow.annotations[0].severity == gatekit::Severity::warning);
  CHECK(s.workflow.annotations[0].message ==
        "leaky left processes behind that kept its output open; they were killed with its process group "
        "(a smoke must wait for what it starts)");
}
