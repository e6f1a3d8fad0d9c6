// run and status end to end: real git repositories with a bare remote, real pytest runs of
// the fixture suite (tests/gpu-gate/data/gate_suite), and an injected clock for the times.
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "catch.hpp"
#include "gatekit/fake_context.hpp"
#include "gatekit/files.hpp"
#include "gatekit/text.hpp"
#include "gpu-gate.hpp"
#include "status/status.hpp"
#include "temp_dir.hpp"

using namespace gatekit;
using namespace gatekit::gpu_gate;

namespace {

// Real processes and files; a fake clock, so record times and expiry are the test's. GPU
// discovery finds one GPU through the stand-in HIP runtime (tests/smoke-runner/stub).
struct Seams : RealFilesSeams {
  Seams() : RealFilesSeams(FakeClock::time_point(std::chrono::seconds(1'800'000'000))) {
    setenv("FAKE_HIP_DEVICES", "1", 1);
    env.set("GATEKIT_HIP_LIBRARY", GATEKIT_FAKE_hip_LIBRARY);
    env.set("GATEKIT_CUDA_LIBRARY", "none");
  }
};

std::string run_sh(const std::filesystem::path& dir, const std::string& command, int* status = nullptr) {
  std::string out;
  FILE* pipe = popen(("cd '" + dir.string() + "' && (" + command + ") 2>&1").c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buffer[4096];
  for (size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  const int rc = pclose(pipe);
  if (status != nullptr) {
    *status = rc;
    return out;
  }
  INFO(command << "\n" << out);
  REQUIRE(rc == 0);
  return out;
}

std::string line(std::string text) {
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

const char* kCommit = "git -c user.name=t -c user.email=t@example.com commit -q";

// A bare remote, and a clone holding the fixture suite on main, pushed.
struct Project {
  testing::TempDir dir;
  std::filesystem::path remote = dir / "remote.git";
  std::filesystem::path work = dir / "work";
  std::filesystem::path log = dir / "tests.log";

  Project() {
    run_sh(dir.path(), "git init -q --bare -b main remote.git && git clone -q file://" + remote.string() + " work");
    std::filesystem::copy(std::filesystem::path(GATEKIT_TEST_DATA) / "gate_suite", work, std::filesystem::copy_options::recursive);
    run_sh(work, "printf '__pycache__/\\n' > .gitignore && git checkout -q -b main && git add . && " + std::string(kCommit) +
                     " -m suite && git push -q origin main && git remote set-head origin main");
    setenv("GATE_TEST_LOG", log.string().c_str(), 1);
    unsetenv("GATE_FORCE_FAIL");
  }
  void commit(const std::string& file, const std::string& text, const std::string& message) {
    run_sh(work, "mkdir -p \"$(dirname '" + file + "')\" && printf '" + text + "' >> '" + file + "' && git add -A && " + kCommit + " -m '" + message + "'");
  }
  std::string rev(const std::string& what) { return line(run_sh(work, "git rev-parse '" + what + "'")); }
  // The result refs under a prefix, one a line.
  std::string refs(const std::string& prefix) { return line(run_sh(work, "git for-each-ref --format='%(refname)' " + prefix)); }
  std::string test_log() {
    std::ifstream in(log);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }
};

ExitCode gate_run(Project& p, Seams& seams, const std::string& machine) {
  RunOptions options;
  options.repo_dir = p.work.string();
  options.machine = machine;
  auto context = seams.context();
  return run_run(options, context);
}

GateStatus status_of(Project& p, Seams& seams, const std::string& rev = "HEAD") {
  Git git(seams.processes, p.work);
  auto context = seams.context();
  Config config = default_config();
  config.concurrency_patterns = {"src/stream/**"};
  StatusQuery query;
  query.rev = rev;
  query.base = "origin/main";
  query.now = std::chrono::duration_cast<std::chrono::seconds>(seams.clock.now().time_since_epoch()).count();
  auto gathered = gather_status_input(git, config, query);
  REQUIRE(gathered.ok());
  return decide_status(gathered->input);
}

}  // namespace

TEST_CASE("run tests the committed tree with real pytest, records it, and status finds it") {
  Project p;
  Seams seams;
  p.commit("src/kernels.py", "\\n# faster\\n", "code change");
  REQUIRE(gate_run(p, seams, "m1") == ExitCode::pass);
  // Only the scope ran (tests/test_plain.py fails when it runs), on the "GPU", once: the
  // change does not touch the stream code.
  CHECK(p.test_log() == "device=gpu stress=\n");
  const std::string tree = p.rev("HEAD^{tree}");
  // A ref of its own: the tree, the machine, and the run (its time and record commit).
  const std::string ref = p.refs("refs/gatekit-gate-mine/");
  const std::string record_commit = p.rev(ref);
  CHECK(ref == "refs/gatekit-gate-mine/" + tree + "/m1@20270115T080000Z-" + record_commit.substr(0, 12));
  const std::string message = run_sh(p.work, "git log -1 --format=%B " + ref);
  CHECK(message.find("verdict: pass\n") != std::string::npos);
  CHECK(message.find("passed: 2\nfailed: 0\nskipped: 0\nerrors: 0\ncommit: " + p.rev("HEAD") + "\ntree: " + tree + "\n") != std::string::npos);
  CHECK(message.find("time: 2027-01-15T08:00:00Z\nmachine: m1\ngpu-backend: hip\ngpu-count: 1\ngpu: Fake Instinct 0\n") != std::string::npos);
  CHECK(message.find("scope: gate: 2 test files, 2 workers\nstress: not needed (no concurrency change)\n") != std::string::npos);
  // The record commit's tree is the tested tree; the developer's checkout is untouched.
  CHECK(line(run_sh(p.work, "git rev-parse " + ref + "^{tree}")) == tree);
  CHECK(run_sh(p.work, "git status --porcelain") == "");
  CHECK(run_sh(p.work, "git worktree list --porcelain | grep -c '^worktree'") == "1\n");
  auto status = status_of(p, seams);
  CHECK(status.state == GateState::success);
  CHECK(status.description == "passed in 0s");
  CHECK(status.source == p.rev("HEAD"));
  CHECK(seams.workflow.summary.find("## gpu-gate run: pass") != std::string::npos);
}

TEST_CASE("two machines on one tree: the newest result counts; results expire") {
  Project p;
  Seams seams;
  p.commit("src/kernels.py", "\\n# change\\n", "code change");
  REQUIRE(gate_run(p, seams, "m1") == ExitCode::pass);
  seams.clock.advance(std::chrono::minutes(5));
  setenv("GATE_FORCE_FAIL", "1", 1);
  REQUIRE(gate_run(p, seams, "m2") == ExitCode::verdict_fail);
  unsetenv("GATE_FORCE_FAIL");
  auto status = status_of(p, seams);
  CHECK(status.state == GateState::failure);
  CHECK(status.description == "failed (result of 2027-01-15T08:05:00Z)");
  REQUIRE(status.record);
  CHECK(status.record->machine == "m2");
  seams.clock.advance(std::chrono::minutes(5));
  REQUIRE(gate_run(p, seams, "m1") == ExitCode::pass);  // a rerun on m1: a ref of its own, the newest counts
  CHECK(status_of(p, seams).state == GateState::success);
  CHECK(split_lines(p.refs("refs/gatekit-gate-mine/")).size() == 3);
  seams.clock.advance(std::chrono::hours(24 * 28 + 1));
  status = status_of(p, seams);
  CHECK(status.state == GateState::pending);
  CHECK(status.description == "no gate result for this tree");
}

TEST_CASE("docs-only commits inherit the result across several commits; a rebase onto new code needs a new run") {
  Project p;
  Seams seams;
  run_sh(p.work, "git checkout -q -b feature");
  p.commit("src/kernels.py", "\\n# change\\n", "code change");
  const std::string gated = p.rev("HEAD");
  REQUIRE(gate_run(p, seams, "m1") == ExitCode::pass);
  p.commit("docs/guide.md", "more\\n", "docs 1");
  p.commit("README.md", "more\\n", "docs 2");
  auto status = status_of(p, seams);
  CHECK(status.state == GateState::success);
  CHECK(status.description == "inherited from " + gated.substr(0, 12) + ", docs-only delta");
  CHECK(status.source == gated);
  // With a result for the exact tree too, status stops there; the CI side, which drops
  // untrusted results afterwards, asks for every candidate (stop_at_exact = false).
  REQUIRE(gate_run(p, seams, "m2") == ExitCode::pass);
  Git git(seams.processes, p.work);
  StatusQuery query;
  query.now = std::chrono::duration_cast<std::chrono::seconds>(seams.clock.now().time_since_epoch()).count();
  auto stopped = gather_status_input(git, default_config(), query);
  REQUIRE(stopped.ok());
  CHECK(stopped->input.history.size() == 1);
  query.stop_at_exact = false;
  auto every = gather_status_input(git, default_config(), query);
  REQUIRE(every.ok());
  CHECK(every->input.history.size() == 3);
  CHECK(every->input.records.size() == 2);  // m2 on HEAD, m1 on the gated commit
  // main moves on with new code; the branch rebased onto it has a tree nobody tested.
  run_sh(p.work, "git checkout -q main");
  p.commit("src/stream/queue.py", "\\n# main moved\\n", "main code");
  run_sh(p.work, "git push -q origin main && git checkout -q feature && git rebase -q main");
  status = status_of(p, seams);
  CHECK(status.state == GateState::pending);
  CHECK(status.description == "no gate result for this tree");
}

TEST_CASE("a pull request that changes only docs, with no result anywhere, is 'no code change'") {
  Project p;
  Seams seams;
  run_sh(p.work, "git checkout -q -b docs");
  p.commit("docs/guide.md", "more\\n", "docs only");
  auto status = status_of(p, seams);
  CHECK(status.state == GateState::success);
  CHECK(status.description == "no code change");
}

TEST_CASE("a change to concurrency code adds the stress pass: three more runs under load") {
  Project p;
  Seams seams;
  run_sh(p.work, "git checkout -q -b feature");
  p.commit("src/stream/queue.py", "\\n# touched\\n", "stream change");
  REQUIRE(gate_run(p, seams, "m1") == ExitCode::pass);
  CHECK(p.test_log() == "device=gpu stress=\ndevice=gpu stress=1\ndevice=gpu stress=1\ndevice=gpu stress=1\n");
  const std::string message = run_sh(p.work, "git log -1 --format=%B " + p.refs("refs/gatekit-gate-mine/" + p.rev("HEAD^{tree}") + "/"));
  // The stress pass runs the test files that import the changed module, wherever they are:
  // tests/test_queue_load.py lies outside the gate's scope (tests/gpu); the kernel test,
  // which does not import it, is not stressed.
  CHECK(message.find("stress: passed 3x on 2 test files: tests/gpu/stream/test_queue.py, tests/test_queue_load.py "
                     "(src/stream/queue.py)\n") != std::string::npos);
  // The gate pass ran 2 tests, each stress repeat the two stream tests.
  CHECK(message.find("passed: 8\n") != std::string::npos);
  const auto& log = seams.workflow.lines;
  CHECK(std::find(log.begin(), log.end(), "  tests/test_queue_load.py: imports src/stream/queue.py") != log.end());
  CHECK(seams.workflow.summary.find("| `tests/test_queue_load.py` | imports src/stream/queue.py |") != std::string::npos);
}

TEST_CASE("a dirty tree is refused, naming the files; nothing runs") {
  Project p;
  Seams seams;
  run_sh(p.work, "printf x >> src/kernels.py && printf y > notes.txt");
  try {
    (void)gate_run(p, seams, "m1");
    FAIL("run accepted a dirty tree");
  } catch (const Failure& failure) {
    CHECK(failure.error().kind == ErrorKind::bad_input);
    CHECK(failure.error().message ==
          "the working tree has uncommitted changes: notes.txt, src/kernels.py; gpu-gate run tests the committed tree: "
          "commit (or stash) them first");
  }
  CHECK(p.test_log().empty());
}

TEST_CASE("with signing on, the record commit carries a good SSH signature") {
  Project p;
  Seams seams;
  run_sh(p.dir.path(), "ssh-keygen -q -t ed25519 -N '' -C gate -f key");
  p.commit(".github/gatekit/gpu-gate.yml", "signing:\\n  sign: true\\n", "sign results");
  run_sh(p.work, "git push -q origin main");  // the base branch's configuration decides
  run_sh(p.work, "git config user.signingkey " + (p.dir / "key.pub").string());
  REQUIRE(gate_run(p, seams, "m1") == ExitCode::pass);
  const std::string ref = p.refs("refs/gatekit-gate-mine/" + p.rev("HEAD^{tree}") + "/");
  run_sh(p.dir.path(), "printf 'gate@example.com %s\\n' \"$(cat key.pub)\" > allowed");
  int rc = 0;
  const std::string verify = run_sh(p.work, "git -c gpg.ssh.allowedSignersFile=" + (p.dir / "allowed").string() +
                                                " verify-commit " + ref, &rc);
  INFO(verify);
  CHECK(rc == 0);
  CHECK(verify.find("Good \"git\" signature") != std::string::npos);
  // Without a key, signing fails and no unsigned record is written.
  run_sh(p.work, "git config --unset user.signingkey");
  p.commit("src/kernels.py", "\\n# again\\n", "code");
  try {
    (void)gate_run(p, seams, "m1");
    FAIL("an unsigned record was written");
  } catch (const Failure& failure) {
    CHECK(failure.error().message.starts_with("cannot sign the record (signing: sign is on; set user.signingkey to an SSH key): "));
  }
  CHECK(run_sh(p.work, "git for-each-ref refs/gatekit-gate-mine/" + p.rev("HEAD^{tree}")) == "");
}

namespace {

void write_file(Project& p, const std::string& file, const std::string& text) {
  std::filesystem::create_directories((p.work / file).parent_path());
  std::ofstream(p.work / file) << text;
}

void commit_all(Project& p, const std::string& message) { run_sh(p.work, "git add -A && " + std::string(kCommit) + " -m '" + message + "'"); }

// The commit onto the base branch: the gate reads its configuration from there (origin/main).
void commit_to_base(Project& p, const std::string& message) {
  commit_all(p, message);
  run_sh(p.work, "git push -q origin HEAD:main");
}

ExitCode full_run(Project& p, Seams& seams) {
  RunOptions options;
  options.repo_dir = p.work.string();
  options.machine = "m1";
  options.allow_no_gpu = true;
  options.full = true;
  auto context = seams.context();
  return run_run(options, context);
}

// A GPU test marked `marker` that leaves a line in the test log when it runs.
std::string costly_test(const std::string& marker) {
  return "import os\n\nimport pytest\n\n\n@pytest.mark." + marker +
         "\ndef test_costly():\n    with open(os.environ[\"GATE_TEST_LOG\"], \"a\") as f:\n"
         "        f.write(\"costly ran on %s\\n\" % os.environ[\"GATEKIT_DEVICE\"])\n";
}

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("run leaves the nightly GPU tests out and run --full runs them, as the selection file says") {
  // Both JUnit report families pytest writes.
  const std::string family = GENERATE(std::string("xunit2"), std::string("xunit1"));
  CAPTURE(family);
  Project p;
  Seams seams;
  write_file(p, ".github/gatekit/gpu-gate.yml",
             "command: [python3, -m, pytest, -q, -p, no:cacheprovider, -o, junit_family=" + family +
                 ", -n, '{workers}', '--junitxml={junit}', '{tests}']\nworkers: 2\nscope:\n  folders: [tests/gpu]\n");
  write_file(p, "tests/gpu/test_costly.py", costly_test("nightly"));
  write_file(p, ".gitignore", "__pycache__/\n.gatekit/\n");
  commit_to_base(p, "a nightly GPU test");

  SECTION("no selection file: the gate leaves out `nightly` (the configuration's nightly_marker)") {
    REQUIRE(gate_run(p, seams, "m1") == ExitCode::pass);
    CHECK(p.test_log() == "device=gpu stress=\n");  // the gate pass ran, the costly test did not
    const auto message =
        run_sh(p.work, "git log -1 --format=%B " + p.refs("refs/gatekit-gate-mine/" + p.rev("HEAD^{tree}") + "/"));
    CHECK(message.find("passed: 2\nfailed: 0\nskipped: 0\n") != std::string::npos);
    CHECK(std::find(seams.workflow.lines.begin(), seams.workflow.lines.end(),
                    "markers: not nightly: the nightly tests left out (no selection file at .github/gatekit/suite.yml)") !=
          seams.workflow.lines.end());
    // The full run runs it, on both devices (tests/test_plain.py fails there: every test runs).
    CHECK(full_run(p, seams) == ExitCode::verdict_fail);
    CHECK(count_of(p.test_log(), "costly ran on ") == 2);
    CHECK(p.test_log().find("costly ran on gpu\n") != std::string::npos);
  }

  SECTION("the selection file's marker and contexts decide, for both") {
    write_file(p, "tests/gpu/test_costly.py", costly_test("slow"));
    write_file(p, ".github/gatekit/suite.yml",
               "version: 1\nnightly-marker: slow\nlegs:\n  cpu: {markers: not gpu}\n  gpu: {markers: gpu, device: gpu}\n");
    commit_to_base(p, "a selection file");
    REQUIRE(gate_run(p, seams, "m1") == ExitCode::pass);
    CHECK(p.test_log() == "device=gpu stress=\n");
    CHECK(std::find(seams.workflow.lines.begin(), seams.workflow.lines.end(),
                    "markers: not slow: the nightly tests left out (origin/HEAD:.github/gatekit/suite.yml, context gate)") !=
          seams.workflow.lines.end());
    CHECK(full_run(p, seams) == ExitCode::verdict_fail);
    CHECK(count_of(p.test_log(), "costly ran on ") == 2);
    // A file whose contexts include the regular gate runs them there too.
    std::ofstream(p.work / ".github/gatekit/suite.yml", std::ios::app) << "nightly-contexts: [daily, gate, gate-full]\n";
    commit_to_base(p, "the gate runs the slow tests");
    std::filesystem::remove(p.log);
    REQUIRE(gate_run(p, seams, "m1") == ExitCode::pass);
    CHECK(p.test_log() == "device=gpu stress=\ncostly ran on gpu\n");
  }
}

TEST_CASE("the gate refuses a selection file it cannot trust, naming the file, line and field") {
  Project p;
  Seams seams;
  // No trusted base known: the checkout's own files are read, and named as such.
  run_sh(p.work, "git remote set-head origin -d");
  p.commit("src/kernels.py", "\\n# change\\n", "code change");
  const auto refusal = [&]() -> std::string {
    try {
      (void)gate_run(p, seams, "m1");
    } catch (const Failure& failure) {
      CHECK(failure.error().kind == ErrorKind::bad_input);
      return failure.error().message;
    }
    FAIL("the run was not refused");
    return "";
  };
  // Wrapped as `(not gpu) or (gpu) and not nightly`, this would run every gpu test.
  write_file(p, ".github/gatekit/suite.yml", "version: 1\nlegs:\n  cpu: {markers: gpu) or (not gpu}\n");
  commit_all(p, "unbalanced");
  CHECK(refusal() == "1 error in .github/gatekit/suite.yml:\n.github/gatekit/suite.yml:3:18: legs.cpu.markers: the marker "
                     "expression's parentheses do not balance: the ')' at character 4 closes no '('");
  // Two nightly markers for one rule: the configuration's and the file's.
  write_file(p, ".github/gatekit/suite.yml", "version: 1\nlegs:\n  cpu: {markers: not gpu}\n");
  std::ofstream(p.work / ".github/gatekit/gpu-gate.yml", std::ios::app) << "nightly_marker: slow\n";
  commit_all(p, "two markers");
  CHECK(refusal() == (p.work / ".github/gatekit/gpu-gate.yml").string() +
                         ":8:17: nightly_marker: 'slow' differs from nightly-marker 'nightly' in .github/gatekit/suite.yml, "
                         "which gpu-gate reads too: remove nightly_marker (the selection file decides)");
  // A selection file named in the configuration must be in the tested commit.
  std::ofstream(p.work / ".github/gatekit/gpu-gate.yml", std::ios::app) << "selection: ci/suite.yml\n";
  commit_all(p, "named");
  CHECK(refusal() == (p.work / ".github/gatekit/gpu-gate.yml").string() +
                         ":9:12: selection: the tested commit has no file 'ci/suite.yml'");
  // Read from the base branch, the same refusals name it.
  run_sh(p.work, "git push -q origin HEAD:main && git remote set-head origin main");
  CHECK(refusal() == "origin/HEAD:.github/gatekit/gpu-gate.yml:9:12: selection: origin/HEAD has no file 'ci/suite.yml'");
  CHECK(p.test_log().empty());  // nothing ran
  CHECK(run_sh(p.work, "git worktree list --porcelain | grep -c '^worktree'") == "1\n");
}

TEST_CASE("a result recorded without a GPU stays local and never counts, unless cpu_gate lets a CPU machine gate") {
  Project p;
  Seams seams;
  seams.env.set("GATEKIT_HIP_LIBRARY", "none");  // no GPU visible
  run_sh(p.work, "git config remote.origin.push HEAD && git config --add remote.origin.push "
                 "'+refs/gatekit-gate-mine/*:refs/gatekit-gate/*' && git checkout -q -b feature");
  p.commit("src/kernels.py", "\\n# change\\n", "code change");
  RunOptions options;
  options.repo_dir = p.work.string();
  options.machine = "laptop";
  auto context = seams.context();
  try {
    (void)run_run(options, context);
    FAIL("a run without a GPU was recorded");
  } catch (const Failure& failure) {
    CHECK(failure.error().message.ends_with(
        "): a gate result must come from a GPU machine (--allow-no-gpu records one that stays local)"));
  }
  options.allow_no_gpu = true;
  REQUIRE(run_run(options, context) == ExitCode::pass);
  const std::string tree = p.rev("HEAD^{tree}");
  const std::string ref = p.refs("refs/gatekit-gate-nogpu/");
  CHECK(ref.starts_with("refs/gatekit-gate-nogpu/" + tree + "/laptop@"));
  CHECK(p.refs("refs/gatekit-gate-mine/").empty());
  CHECK(std::find(seams.workflow.lines.begin(), seams.workflow.lines.end(),
                  "recorded without a GPU: the result stays in this clone (" + ref +
                      "), is never pushed and never counts for gate/gpu (set cpu_gate: true in the configuration to let a "
                      "CPU machine gate)") != seams.workflow.lines.end());
  auto status = status_of(p, seams);
  CHECK(status.state == GateState::pending);
  REQUIRE(status.ignored.size() == 1);
  CHECK(status.ignored[0] == "'" + ref + "': recorded without a GPU (gpu-count 0): only a GPU machine's result counts "
                             "(the configuration does not set cpu_gate)");
  // A plain push (setup's refspecs) sends the branch, not the result.
  run_sh(p.work, "git push -q");
  CHECK(line(run_sh(p.remote, "git for-each-ref refs/gatekit-gate refs/gatekit-gate-nogpu")).empty());
  // --publish refuses it.
  options.publish = true;
  p.commit("src/kernels.py", "\\n# again\\n", "more code");
  try {
    (void)run_run(options, context);
    FAIL("a result without a GPU was published");
  } catch (const Failure& failure) {
    CHECK(failure.error().kind == ErrorKind::could_not_evaluate);
    CHECK(failure.error().message.starts_with("the result was recorded without a GPU and stays local (refs/gatekit-gate-nogpu/"));
  }
  CHECK(line(run_sh(p.remote, "git for-each-ref refs/gatekit-gate")).empty());
  // With cpu_gate the configuration lets a CPU machine gate: published, counted, and said.
  p.commit(".github/gatekit/gpu-gate.yml", "cpu_gate: true\\n", "a CPU machine may gate");
  run_sh(p.work, "git push -q origin HEAD:main");  // the base branch's configuration decides
  REQUIRE(run_run(options, context) == ExitCode::pass);
  CHECK(line(run_sh(p.remote, "git for-each-ref --format='%(refname)' refs/gatekit-gate")).starts_with(
      "refs/gatekit-gate/" + p.rev("HEAD^{tree}") + "/laptop@"));
  Git git(seams.processes, p.work);
  Config config = default_config();
  config.cpu_gate = true;
  StatusQuery query;
  query.now = std::chrono::duration_cast<std::chrono::seconds>(seams.clock.now().time_since_epoch()).count();
  auto gathered = gather_status_input(git, config, query);
  REQUIRE(gathered.ok());
  CHECK(decide_status(gathered->input).description == "passed in 0s (no GPU; cpu_gate is on)");
}

namespace {

// `gpu-gate status` for the work tree's HEAD: its log lines.
std::vector<std::string> status_lines(Project& p, Seams& seams) {
  StatusOptions options;
  options.repo_dir = p.work.string();
  options.machine = "m1";
  auto context = seams.context();
  seams.workflow.lines.clear();
  REQUIRE(run_status(options, context) == ExitCode::pass);
  return seams.workflow.lines;
}

bool has_line(const std::vector<std::string>& lines, const std::string& start) {
  return std::any_of(lines.begin(), lines.end(), [&](const std::string& l) { return l.starts_with(start); });
}

}  // namespace

TEST_CASE("run takes the gate's scope from the remote's default branch, never from the tested tree") {
  Project p;
  Seams seams;
  const std::string base = p.rev("origin/main");
  // A pull request that narrows the scope in its own tree to the stream tests, next to a GPU
  // test that fails: on its own terms it would pass.
  run_sh(p.work, "git checkout -q -b narrow");
  write_file(p, ".github/gatekit/gpu-gate.yml",
             "command: [python3, -m, pytest, -q, -p, no:cacheprovider, -n, \"{workers}\", \"--junitxml={junit}\", \"{tests}\"]\n"
             "workers: 2\nscope:\n  folders: [tests/gpu/stream]\n");
  write_file(p, "tests/gpu/test_broken.py", "def test_broken_kernel():\n    assert False, 'broken on the GPU'\n");
  commit_all(p, "narrow the gate");
  REQUIRE(gate_run(p, seams, "m1") == ExitCode::verdict_fail);
  CHECK(has_line(seams.workflow.lines, "configuration: .github/gatekit/gpu-gate.yml and .github/gatekit/suite.yml of "
                                       "origin/HEAD (" + base.substr(0, 12) + ") (digest sha256:"));
  CHECK(has_line(seams.workflow.lines, "testing " + p.rev("HEAD").substr(0, 12)));
  const std::string mine = p.refs("refs/gatekit-gate-mine/");
  const std::string message = run_sh(p.work, "git log -1 --format=%B " + mine);
  CHECK(message.find("verdict: fail\n") != std::string::npos);
  CHECK(message.find("scope: gate: 3 test files, 2 workers\n") != std::string::npos);  // tests/gpu, as the base says
  const auto config_line = message.find("\nconfig: sha256:");
  REQUIRE(config_line != std::string::npos);
  const std::string digest = message.substr(config_line + 9, 71);
  // status reads the same configuration and counts the result.
  auto lines = status_lines(p, seams);
  CHECK(has_line(lines, "  configuration: origin/HEAD (" + base.substr(0, 12) + "), digest " + digest.substr(0, 19)));
  CHECK(has_line(lines, "gate/gpu for " + p.rev("HEAD").substr(0, 12) + ": failure \"failed (result of "));

  SECTION("without the remote's default branch the checkout's own configuration is used, with a warning, and the "
          "base's readers leave that result out") {
    run_sh(p.work, "git remote set-head origin -d");
    Seams own;
    REQUIRE(gate_run(p, own, "m2") == ExitCode::pass);
    REQUIRE(own.workflow.annotations.size() == 1);
    CHECK(own.workflow.annotations[0].message ==
          "this clone does not know origin's default branch (refs/remotes/origin/HEAD; `git remote set-head origin "
          "--auto` sets it): the gate's configuration is read from this checkout (" + p.rev("HEAD").substr(0, 12) +
              "), not from the base branch CI trusts; the result counts there only if the two agree");
    run_sh(p.work, "git remote set-head origin main");
    Seams later;
    later.clock.advance(std::chrono::minutes(1));
    lines = status_lines(p, later);
    // The newer pass, recorded with the narrowed scope, does not count; the failure does.
    CHECK(has_line(lines, "ignored result ref 'refs/gatekit-gate-mine/" + p.rev("HEAD^{tree}") + "/m2@"));
    CHECK(has_line(lines, "gate/gpu for " + p.rev("HEAD").substr(0, 12) + ": failure"));
    const auto ignored = std::find_if(lines.begin(), lines.end(), [](const std::string& l) {
      return l.starts_with("ignored result ref") && l.find("/m2@") != std::string::npos;
    });
    REQUIRE(ignored != lines.end());
    CHECK(ignored->ends_with(": recorded with another configuration of the gate (sha256:" +
                             ignored->substr(ignored->find("(sha256:") + 8, 12) + ") than the base branch's (" +
                             digest.substr(0, 19) + "): the scope, the command or the selection file differ; run the "
                             "gate again (it reads the base branch's configuration)"));
  }
}
