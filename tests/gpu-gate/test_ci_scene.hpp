#pragma once
// A scene for the CI side's tests: a bare remote over file://, a developer clone that commits
// and publishes gate results (record commits made with format_record, optionally signed with
// git's SSH signing by a key from ssh-keygen), and a CI clone that runs ci-status. Real git
// and real ssh-keygen throughout.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "gatekit/clock.hpp"
#include "gatekit/context.hpp"
#include "gatekit/environment.hpp"
#include "gatekit/files.hpp"
#include "gatekit/github.hpp"
#include "gatekit/gpu.hpp"
#include "gatekit/process.hpp"
#include "gatekit/text.hpp"
#include "gatekit/workflow.hpp"
#include "config.hpp"
#include "record/record.hpp"
#include "temp_dir.hpp"

namespace gatekit::testing {

namespace fs = std::filesystem;

inline ProcessResult run_checked(const std::vector<std::string>& argv, const fs::path& cwd,
                                 const std::string& stdin_data = "", bool check = true,
                                 const std::map<std::string, std::string>& extra_env = {}) {
  ProcessSpec spec;
  spec.argv = argv;
  spec.cwd = cwd;
  if (!stdin_data.empty()) spec.stdin_data = stdin_data;
  spec.env_set = {{"GIT_AUTHOR_NAME", "Dev"},          {"GIT_AUTHOR_EMAIL", "dev@example.com"},
                  {"GIT_COMMITTER_NAME", "Dev"},       {"GIT_COMMITTER_EMAIL", "dev@example.com"},
                  {"GIT_CONFIG_GLOBAL", "/dev/null"}, {"GIT_CONFIG_NOSYSTEM", "1"}};
  for (const auto& [name, value] : extra_env) spec.env_set[name] = value;
  SystemProcessRunner runner;
  auto result = runner.run(spec);
  if (!result) throw std::runtime_error("cannot start " + argv.front() + ": " + result.error().message);
  if (check && !result->succeeded())
    throw std::runtime_error(join(argv, " ") + " failed: " + result->out + result->err);
  return *result;
}

inline std::string git_in(const fs::path& dir, std::vector<std::string> args, const std::string& stdin_data = "") {
  args.insert(args.begin(), "git");
  return trim(run_checked(args, dir, stdin_data).out);
}

inline std::int64_t now_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

struct SshKey {
  fs::path file;
  std::string public_line;  // "ssh-ed25519 AAAA... comment"
};

class CiScene {
 public:
  CiScene() {
    fs::create_directories(dev);
    git_in(tmp.path(), {"init", "-q", "--bare", "-b", "main", remote.string()});
    git_in(dev, {"init", "-q", "-b", "main"});
    git_in(dev, {"remote", "add", "origin", url()});
    write("src/kernel.py", "def add(a, b):\n    return a + b\n");
    write("docs/index.md", "# Docs\n");
    commit("the project");
    git_in(dev, {"push", "-q", "origin", "main"});
  }

  std::string url() const { return "file://" + remote.string(); }

  void write(const std::string& path, const std::string& text) {
    fs::create_directories((dev / path).parent_path());
    std::ofstream(dev / path) << text;
  }
  std::string commit(const std::string& message) {
    git_in(dev, {"add", "-A"});
    git_in(dev, {"commit", "-q", "--allow-empty", "-m", message});
    return git_in(dev, {"rev-parse", "HEAD"});
  }
  std::string tree_of(const std::string& commit) { return git_in(dev, {"rev-parse", commit + "^{tree}"}); }

  SshKey key(const std::string& name) {
    const fs::path file = tmp / ("key-" + name);
    run_checked({"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", file.string()}, tmp.path());
    std::ifstream in(file.string() + ".pub");
    std::string line;
    std::getline(in, line);
    return {file, line};
  }

  // A result for `commit`'s tree as machine `machine`, made as gpu-gate makes it (author and
  // committer date its time, or commit_date, seconds since the epoch, when given: a date the
  // signer chose); signed with `key` when given. Returns the record commit.
  std::string make_record(const std::string& commit, gpu_gate::Verdict verdict, const std::string& machine,
                          const SshKey* key = nullptr, std::int64_t age_seconds = 60,
                          std::optional<std::int64_t> commit_date = std::nullopt) {
    gpu_gate::GateRecord record;
    record.verdict = verdict;
    record.duration = std::chrono::minutes(4) + std::chrono::seconds(10);
    record.counts.passed = verdict == gpu_gate::Verdict::pass ? 12 : 11;
    record.counts.failed = verdict == gpu_gate::Verdict::pass ? 0 : 1;
    record.commit = commit;
    record.tree = tree_of(commit);
    record.gatekit_version = "0.0.0";
    record.time = now_seconds() - age_seconds;
    record.machine = machine;
    record.device.backend = backend;
    record.device.count = gpus;
    record.scope = "gate";
    record.stress = "not needed";
    record.config = config;
    std::vector<std::string> args{"git"};
    if (key != nullptr) args.insert(args.end(), {"-c", "gpg.format=ssh", "-c", "user.signingkey=" + key->file.string()});
    args.insert(args.end(), {"commit-tree", "-F", "-"});
    if (key != nullptr) args.emplace_back("-S");
    args.push_back(record.tree);
    const std::string date = "@" + std::to_string(commit_date.value_or(record.time)) + " +0000";
    return trim(run_checked(args, dev, gpu_gate::format_record(record), true, {{"GIT_COMMITTER_DATE", date}, {"GIT_AUTHOR_DATE", date}}).out);
  }
  // The ref gpu-gate gives the record on the remote: refs/gatekit-gate/<tree>/<machine>@<run>.
  std::string result_ref_of(const std::string& record_commit) {
    const std::string message = git_in(dev, {"cat-file", "commit", record_commit});
    const auto record = gpu_gate::parse_record(message.substr(message.find("\n\n") + 2) + "\n");
    if (!record) throw std::runtime_error("not a record: " + record.error().message);
    return gpu_gate::result_ref("gatekit-gate", gpu_gate::RefHalf::published, record->tree, record->machine,
                                gpu_gate::run_id(record->time, record_commit));
  }
  // Publishes a result (make_record, then a push to its own ref on the remote). Returns the record commit.
  std::string publish(const std::string& commit, gpu_gate::Verdict verdict, const std::string& machine,
                      const SshKey* key = nullptr, std::int64_t age_seconds = 60,
                      std::optional<std::int64_t> commit_date = std::nullopt) {
    const std::string record_commit = make_record(commit, verdict, machine, key, age_seconds, commit_date);
    git_in(dev, {"push", "-q", "origin", record_commit + ":" + result_ref_of(record_commit)});
    return record_commit;
  }

  // A CI clone of the remote's main (full history unless depth is given).
  fs::path ci_clone(const std::string& name = "ci") {
    const fs::path dir = tmp / name;
    git_in(tmp.path(), {"clone", "-q", url(), dir.string()});
    return dir;
  }

  // The configuration digest the records made carry: the default configuration's, with no
  // selection file (what a base branch without .github/gatekit/gpu-gate.yml gives).
  std::string config = gpu_gate::config_digest(gpu_gate::default_config(), std::nullopt);
  std::string backend = "override";  // the devices of the records made
  int gpus = 2;
  TempDir tmp;
  fs::path remote = tmp / "remote.git";
  fs::path dev = tmp / "dev";
};

// Real seams, but the workflow recorded and the API at the test server.
struct CiSeams {
  explicit CiSeams(const std::string& api_url) : env{{"GITHUB_TOKEN", "t0ken"}} { run.api_url = api_url; }
  Context context() {
    return Context{env,      run, clock, files, processes, [this] { return github::make_curl_transport(env); },
                   workflow, in,  out,   gpus,  err};
  }
  MapEnvironment env;
  RunInfo run;
  SystemClock clock;
  SystemFiles files;
  SystemProcessRunner processes;
  RecordingWorkflow workflow;
  std::istringstream in;
  std::ostringstream out;
  FakeGpuProbe gpus;
  std::ostringstream err;
};

}  // namespace gatekit::testing
