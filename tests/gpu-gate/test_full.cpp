// run --full: the pure scope check and command, then real pytest runs of a fixture suite
// (tests/gpu-gate/data/scope_suite) in a real git repository.
#include <fstream>
#include <sstream>

#include "catch.hpp"
#include "run/full.hpp"
#include "run/markers.hpp"
#include "gatekit/fake_context.hpp"
#include "gatekit/files.hpp"
#include "temp_dir.hpp"
#include "run/test_map.hpp"

using namespace gatekit;
using namespace gatekit::gpu_gate;

namespace {

Scope scope_of(std::vector<std::string> in_scope) {
  Scope scope;
  for (auto& path : in_scope) scope.files.push_back({std::move(path), ScopeRule::folder, "tests/gpu"});
  return scope;
}

}  // namespace

TEST_CASE("full: the scope check flags files outside the scope whose tests depend on the device") {
  const auto scope = scope_of({"tests/gpu/test_k.py"});
  const PassCases gpu = {{"tests/gpu/test_k.py::t", {"tests/gpu/test_k.py", true}},
                         {"tests/test_a.py::t1", {"tests/test_a.py", true}},
                         {"tests/test_a.py::t2", {"tests/test_a.py", true}},
                         {"tests/test_b.py::t", {"tests/test_b.py", false}},
                         {"tests/test_c.py::t", {"tests/test_c.py", true}},
                         {"tests/test_d.py::t[gpu]", {"tests/test_d.py", true}}};
  const PassCases cpu = {{"tests/gpu/test_k.py::t", {"tests/gpu/test_k.py", false}},
                         {"tests/test_a.py::t1", {"tests/test_a.py", false}},
                         {"tests/test_a.py::t2", {"tests/test_a.py", true}},
                         {"tests/test_b.py::t", {"tests/test_b.py", true}},
                         {"tests/test_c.py::t", {"tests/test_c.py", true}}};
  const auto violations = check_scope(scope, gpu, cpu);
  REQUIRE(violations.size() == 3);
  CHECK(violations[0].file == "tests/test_a.py");
  CHECK(violations[0].gpu_only == std::vector<std::string>{"tests/test_a.py::t1"});
  CHECK(violations[1].file == "tests/test_b.py");
  CHECK(violations[1].cpu_only == std::vector<std::string>{"tests/test_b.py::t"});
  CHECK(violations[2].file == "tests/test_d.py");  // collected on the GPU only
  CHECK(describe(violations[0], "gpu-gate.yml") ==
        "tests/test_a.py is outside the scope, but 1 of its tests run on the GPU and not on the CPU "
        "(tests/test_a.py::t1); add `- tests/test_a.py` to scope.extras in gpu-gate.yml");
  CHECK(check_scope(scope_of({"tests/gpu/test_k.py", "tests/test_a.py", "tests/test_b.py", "tests/test_d.py"}), gpu,
                    cpu)
            .empty());
}

TEST_CASE("full: the extras line is YAML that reads back as the file name") {
  CHECK(extras_line("tests/test_a.py") == "- tests/test_a.py");
  CHECK(extras_line("tests/it's: odd #1.py") == "- 'tests/it''s: odd #1.py'");
  CHECK(extras_line("-x.py") == "- '-x.py'");
  CHECK(display_command({"python", "-m", "pytest", "-m", "nightly or not nightly", "it's"}) ==
        "python -m pytest -m 'nightly or not nightly' 'it'\\''s'");
}

TEST_CASE("full: each pass's command: every path, the markers applied before, coverage on the GPU") {
  Config config;
  config.command = apply_markers({"python", "-m", "pytest", "-n", "{workers}", "--junitxml={junit}", "{tests}"},
                                 "nightly or not nightly");
  CHECK(full_command(config, 4, "/t/j.xml", Device::gpu) ==
        std::vector<std::string>{"python", "-m", "pytest", "-n", "4", "--junitxml=/t/j.xml", "-m",
                                 "nightly or not nightly", "--cov=.", "--cov-context=test", "--cov-report="});
  CHECK(full_command(config, 4, "/t/j.xml", Device::cpu) ==
        std::vector<std::string>{"python", "-m", "pytest", "-n", "4", "--junitxml=/t/j.xml", "-m",
                                 "nightly or not nightly"});
  config.command = {"make", "test", "JUNIT={junit}"};
  CHECK(full_command(config, 2, "j.xml", Device::gpu) == std::vector<std::string>{"make", "test", "JUNIT=j.xml"});
  CHECK(is_pytest_command({"/usr/bin/pytest"}));
  CHECK_FALSE(is_pytest_command({"python", "-m", "unittest"}));
}

namespace {

int sh(const std::filesystem::path& dir, const std::string& command) {
  return std::system(("cd '" + dir.string() + "' && " + command + " >/dev/null 2>&1").c_str());
}

std::string capture(const std::filesystem::path& dir, const std::string& command) {
  std::string out;
  FILE* pipe = popen(("cd '" + dir.string() + "' && " + command).c_str(), "r");
  if (pipe == nullptr) return out;
  char buffer[4096];
  for (size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  pclose(pipe);
  return out;
}

using RealSeams = RealFilesSeams;

const char* kCommit = "git -c user.name=t -c user.email=t@example.com commit -q";

// The fixture suite as a fresh repository with one commit.
void make_repository(const std::filesystem::path& dir) {
  std::filesystem::copy(std::filesystem::path(GATEKIT_TEST_DATA) / "scope_suite", dir,
                        std::filesystem::copy_options::recursive);
  REQUIRE(sh(dir, "printf '__pycache__/\\n.coverage*\\n' > .gitignore && git init -q -b main . && git add . && " +
                      std::string(kCommit) + " -m suite") == 0);
}

// The annotations but the one a repository without a remote gets: its configuration is its own
// (docs/gpu-gate.md, "Where the configuration comes from").
std::size_t annotations_but_configuration(const RecordingWorkflow& workflow) {
  return static_cast<std::size_t>(std::count_if(workflow.annotations.begin(), workflow.annotations.end(),
                                                [](const Annotation& a) { return a.title != "gpu-gate: configuration"; }));
}

std::vector<std::string> error_messages(const RecordingWorkflow& workflow) {
  std::vector<std::string> messages;
  for (const auto& a : workflow.annotations) {  // errors only
    if (a.severity == Severity::error) messages.push_back(a.message);
  }
  return messages;
}

}  // namespace

TEST_CASE("full: real pytest passes on the fixture suite; a device-dependent file outside the scope fails the run") {
  testing::TempDir dir;
  make_repository(dir.path());
  RealSeams seams;
  auto context = seams.context();
  RunOptions options;
  options.repo_dir = dir.path().string();
  options.machine = "test-machine";
  options.allow_no_gpu = true;  // this fixture stands in for the GPU (GATEKIT_DEVICE)
  options.full = true;

  REQUIRE(run_full(options, context) == ExitCode::verdict_fail);
  CHECK(error_messages(seams.workflow) ==
        std::vector<std::string>{
            "tests/test_sneaky.py is outside the scope, but 1 of its tests run on the GPU and not on the CPU "
            "(tests/test_sneaky.py::test_needs_gpu); add `- tests/test_sneaky.py` to scope.extras in " +
            (dir.path() / ".github/gatekit/gpu-gate.yml").string()});
  const auto& lines = seams.workflow.lines;
  const auto add = std::find(lines.begin(), lines.end(), "Add to " + (dir.path() / ".github/gatekit/gpu-gate.yml").string() + ":");
  REQUIRE(lines.end() - add >= 4);
  CHECK(std::vector<std::string>(add + 1, add + 4) ==
        std::vector<std::string>{"scope:", "  extras:", "    - tests/test_sneaky.py"});
  // The map is this machine's state, kept under the git directory: no warning about it.
  CHECK(annotations_but_configuration(seams.workflow) == 1);
  CHECK(seams.workflow.summary.find("| `tests/test_sneaky.py` | 1 | 0 | `- tests/test_sneaky.py` |") != std::string::npos);
  // Nightly tests ran on both passes (pytest.ini deselects them by default): 6 tests on the
  // GPU, all passing; on the CPU three skip.
  CHECK(seams.workflow.summary.find("| GPU | 6 | 0 | 0 | 0 |") != std::string::npos);
  CHECK(seams.workflow.summary.find("| CPU | 3 | 0 | 3 | 0 |") != std::string::npos);

  // The test map, from the GPU pass's coverage, written under the git directory.
  CHECK(std::any_of(lines.begin(), lines.end(), [](const std::string& line) {
    return line.starts_with("Test map written to .git/gatekit/test-map.json: ");
  }));
  auto map = read_test_map(seams.files, dir.path() / ".git/gatekit/test-map.json");
  REQUIRE(map.ok());
  REQUIRE(map->tests.count("tests/test_uses_module.py::test_add") == 1);
  std::vector<std::string> files;
  for (auto i : map->tests.at("tests/test_uses_module.py::test_add")) files.push_back(map->files[i]);
  CHECK(std::find(files.begin(), files.end(), "fakegpu.py") != files.end());
  CHECK(map->tests.count("tests/test_plain.py::test_nightly") == 1);
  CHECK(map->commit == capture(dir.path(), "git rev-parse HEAD").substr(0, 40));

  // The result is recorded for the tested tree, as a failure.
  const auto tree = capture(dir.path(), "git rev-parse 'HEAD^{tree}'").substr(0, 40);
  // No GPU here: the result stays local, under refs/gatekit-gate-nogpu/, in a ref of its own.
  const auto ref = capture(dir.path(), "git for-each-ref --format='%(refname)' refs/gatekit-gate-nogpu/" + tree + "/");
  CHECK(ref.starts_with("refs/gatekit-gate-nogpu/" + tree + "/test-machine@"));
  CHECK(capture(dir.path(), "git for-each-ref refs/gatekit-gate-mine/").empty());
  const auto message = capture(dir.path(), "git log -1 --format=%B " + ref.substr(0, ref.find('\n')));
  CHECK(message.find("verdict: fail\n") != std::string::npos);
  CHECK(message.find("scope: full") != std::string::npos);
  // The developer's checkout is untouched, the map included, and no worktree is left behind.
  CHECK(capture(dir.path(), "git worktree list | wc -l") == "1\n");
  CHECK(capture(dir.path(), "git status --porcelain --untracked-files=all").empty());
  CHECK_FALSE(std::filesystem::exists(dir / ".gatekit"));

  // So the next run sees a clean tree (it used to refuse the map as an uncommitted change).
  RealSeams next;
  auto next_context = next.context();
  options.full = false;
  CHECK(run_run(options, next_context) == ExitCode::pass);
}

TEST_CASE("full: with the file in the extras list the same suite passes") {
  testing::TempDir dir;
  make_repository(dir.path());
  {
    std::ofstream(dir / ".github/gatekit/gpu-gate.yml", std::ios::app) << "  extras:\n      - tests/test_sneaky.py\n";
    std::ofstream(dir / ".gitignore", std::ios::app) << ".gatekit/\n";
  }
  REQUIRE(sh(dir.path(), std::string(kCommit) + " -am extras") == 0);
  RealSeams seams;
  auto context = seams.context();
  RunOptions options;
  options.repo_dir = dir.path().string();
  options.machine = "test-machine";
  options.allow_no_gpu = true;  // this fixture stands in for the GPU (GATEKIT_DEVICE)
  options.full = true;
  CHECK(run_full(options, context) == ExitCode::pass);
  CHECK(annotations_but_configuration(seams.workflow) == 0);  // no violation; the map is ignored
  CHECK(seams.files.exists(dir / ".git/gatekit/test-map.json"));
  // The map is ignored, so the tree stays clean and the full run can run again.
  RealSeams again;
  auto again_context = again.context();
  CHECK(run_full(options, again_context) == ExitCode::pass);
}

TEST_CASE("full: a dirty tree is refused, naming the files") {
  testing::TempDir dir;
  make_repository(dir.path());
  std::ofstream(dir / "tests/test_plain.py", std::ios::app) << "# edit\n";
  std::ofstream(dir / "new file.py") << "\n";
  RealSeams seams;
  auto context = seams.context();
  RunOptions options;
  options.repo_dir = dir.path().string();
  options.machine = "test-machine";
  options.allow_no_gpu = true;  // this fixture stands in for the GPU (GATEKIT_DEVICE)
  try {
    (void)run_full(options, context);
    FAIL("no failure");
  } catch (const Failure& failure) {
    CHECK(failure.error().kind == ErrorKind::bad_input);
    CHECK(failure.error().message ==
          "the working tree has uncommitted changes: new file.py, tests/test_plain.py; gpu-gate run tests the "
          "committed tree: commit (or stash) them first");
  }
}

TEST_CASE("full: a pass that ends other than 0 or 1 is could-not-evaluate, and nothing is recorded") {
  struct Row {
    std::string command;
    std::string message;
  };
  const std::vector<Row> rows = {
      {R"Y([python3, -m, pytest, --no-such-option, "--junitxml={junit}", "{tests}"])Y",
       "the GPU pass ended with exit code 4: no verdict (the test command exits 0 or 1 when its tests ran); pytest "
       "refused its arguments: the GPU pass adds pytest-cov's --cov options, is pytest-cov installed?"},
      {R"Y([python3, -c, "import sys; sys.exit(3)", "{junit}", "{tests}"])Y",
       "the GPU pass ended with exit code 3: no verdict (the test command exits 0 or 1 when its tests ran)"},
      {R"Y([python3, -c, "pass", "{junit}", "{tests}"])Y", "the GPU pass left no readable JUnit report: " + std::filesystem::temp_directory_path().string()},
  };
  for (const auto& row : rows) {
    INFO(row.command);
    testing::TempDir dir;
    make_repository(dir.path());
    {
      std::ofstream(dir / ".github/gatekit/gpu-gate.yml") << "command: " << row.command
                                                          << "\nscope:\n  folders: [tests/gpu]\n";
    }
    REQUIRE(sh(dir.path(), std::string(kCommit) + " -am command") == 0);
    RealSeams seams;
    auto context = seams.context();
    RunOptions options;
    options.repo_dir = dir.path().string();
    options.machine = "test-machine";
  options.allow_no_gpu = true;  // this fixture stands in for the GPU (GATEKIT_DEVICE)
    try {
      (void)run_full(options, context);
      FAIL("no failure");
    } catch (const Failure& failure) {
      INFO(failure.error().message);
      CHECK(failure.error().kind == ErrorKind::could_not_evaluate);
      CHECK(failure.error().message.rfind(row.message, 0) == 0);
    }
    CHECK(capture(dir.path(), "git for-each-ref refs/gatekit-gate-mine/ refs/gatekit-gate-nogpu/").empty());
    CHECK(capture(dir.path(), "git worktree list | wc -l") == "1\n");
  }
}

TEST_CASE("full: no GPU visible is could-not-evaluate unless --allow-no-gpu") {
  testing::TempDir dir;
  make_repository(dir.path());
  RealSeams seams;
  for (const char* name : {"CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES"}) seams.env.set(name, "");
  auto context = seams.context();
  RunOptions options;
  options.repo_dir = dir.path().string();
  options.machine = "test-machine";
  try {
    (void)run_full(options, context);
    FAIL("no failure");
  } catch (const Failure& failure) {
    CHECK(failure.error().kind == ErrorKind::could_not_evaluate);
    CHECK(failure.error().message.rfind("no GPU is visible (", 0) == 0);
  }
  CHECK(capture(dir.path(), "git for-each-ref refs/gatekit-gate-mine/ refs/gatekit-gate-nogpu/").empty());
}

TEST_CASE("full: a test map path that leaves the repository is refused before anything runs, naming the entry") {
  testing::TempDir dir;
  const auto repo = dir / "repo";
  std::filesystem::create_directories(repo);
  make_repository(repo);
  const auto config = (repo / ".github/gatekit/gpu-gate.yml").string();
  struct Case {
    std::string setup;  // shell, in the repository
    std::string message;
  };
  const std::vector<Case> cases{
      {"printf 'test_map: ../victim.json\\n' >> .github/gatekit/gpu-gate.yml",
       "1 error in " + config + ":\n" + config +
           ":6:11: test_map: must be a path inside the repository (the test map run --full writes): it leaves the "
           "repository ('..')"},
      {"printf 'test_map: /tmp/victim.json\\n' >> .github/gatekit/gpu-gate.yml",
       "1 error in " + config + ":\n" + config +
           ":6:11: test_map: must be a path inside the repository (the test map run --full writes): it is an "
           "absolute path"},
      // A link committed in the tree: a write of the map would follow it out of the checkout.
      {"ln -s .. out && printf 'test_map: out/victim.json\\n' >> .github/gatekit/gpu-gate.yml",
       config + ": test_map: 'out/victim.json' passes through the symbolic link 'out' (-> '..'): it could lead "
                "outside the repository"},
  };
  for (const auto& c : cases) {
    INFO(c.setup);
    REQUIRE(sh(repo, "git reset -q --hard && git clean -qfdx && " + c.setup + " && git add -A && " + kCommit + " -m map") == 0);
    RealSeams seams;
    auto context = seams.context();
    RunOptions options;
    options.repo_dir = repo.string();
    options.machine = "test-machine";
    options.allow_no_gpu = true;
    options.full = true;
    try {
      (void)run_full(options, context);
      FAIL("no failure");
    } catch (const Failure& failure) {
      CHECK(failure.error().kind == ErrorKind::bad_input);
      CHECK(failure.error().message == c.message);
    }
    CHECK(seams.workflow.summary.empty());  // nothing ran
    CHECK_FALSE(std::filesystem::exists(dir / "victim.json"));
    REQUIRE(sh(repo, "git reset -q --hard HEAD~1") == 0);
  }
}
