#pragma once
// Running programs: argv only (never a shell), in a process group of their own, with a
// timeout that sends SIGTERM to the whole group and SIGKILL after a grace period, live
// output streaming and bounded capture.
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gatekit/result.hpp"

namespace gatekit {

class Files;

enum class OutputStream { out, err };

struct ProcessSpec {
  // argv[0] is resolved through PATH when it contains no '/'.
  std::vector<std::string> argv;
  std::filesystem::path cwd;  // empty: the caller's working directory
  bool inherit_env = true;
  std::map<std::string, std::string> env_set;  // added or overridden
  std::vector<std::string> env_unset;
  std::optional<std::string> stdin_data;  // fed to stdin; else stdin is /dev/null
  std::chrono::milliseconds timeout{0};   // 0: no limit
  std::chrono::milliseconds kill_grace{5000};  // SIGTERM -> SIGKILL
  std::size_t capture_limit = 16u << 20;  // bytes kept per stream; the rest is counted
  bool merge_stderr = false;  // stderr goes to the stdout capture, in order
  // Cleanup of what the tool made (gpu-gate removing its worktree): a termination signal,
  // received before or while it runs, neither ends it nor is forwarded to it, so a cancelled
  // run still leaves nothing behind. Only `timeout` bounds it: give it one.
  bool cleanup = false;
  // Called with each chunk as it arrives (before capture limits apply).
  std::function<void(OutputStream, std::string_view)> on_output;
};

struct ProcessResult {
  int exit_code = -1;  // valid when signal == 0
  int signal = 0;      // the terminating signal, 0 if it exited normally
  bool timed_out = false;
  bool killed = false;  // SIGKILL was needed after the grace period
  // The program exited but processes it left behind kept its output open; they were killed.
  bool leftovers_killed = false;
  std::string out;
  std::string err;
  std::size_t out_bytes = 0;  // total produced, beyond capture_limit too
  std::size_t err_bytes = 0;
  std::chrono::milliseconds duration{0};

  bool succeeded() const { return !timed_out && signal == 0 && exit_code == 0; }
  // "exit code 1", "killed by signal 9 (SIGKILL)", "timed out after 30s"
  std::string describe(std::chrono::milliseconds timeout = {}) const;
};

class ProcessRunner {
 public:
  virtual ~ProcessRunner() = default;
  // An Error means the process could not be started (e.g. program not found); a process
  // that ran and failed is a successful Result with a non-zero exit.
  virtual Result<ProcessResult> run(const ProcessSpec& spec) = 0;
};

class SystemProcessRunner final : public ProcessRunner {
 public:
  Result<ProcessResult> run(const ProcessSpec& spec) override;
};

// Leftovers outside the process groups. A child's group is ended with it, but a process it
// starts can leave the group (setsid) and outlive the tool. adopt_orphans() makes this process
// the reaper of its orphaned descendants (PR_SET_CHILD_SUBREAPER), so such a process stays
// its child; end_child_processes() then kills (SIGKILL) and reaps every child process left,
// and what those leave behind in turn, until none is left or `limit` has passed. Call it only
// when none of the children is still wanted. Returns how many were still running.
void adopt_orphans();
int end_child_processes(std::chrono::milliseconds limit);

// Resolves a program name through PATH (or returns it when it has a '/'): the first
// executable file of that name, as `files` sees it.
Result<std::filesystem::path> find_program(const Files& files, std::string_view name, std::string_view path_var);

std::string signal_name(int signal);

// Test fake: answers by a handler and records every spec it was given.
class FakeProcessRunner final : public ProcessRunner {
 public:
  using Handler = std::function<Result<ProcessResult>(const ProcessSpec&)>;
  explicit FakeProcessRunner(Handler handler) : handler_(std::move(handler)) {}
  Result<ProcessResult> run(const ProcessSpec& spec) override {
    calls.push_back(spec);
    return handler_(spec);
  }
  std::vector<ProcessSpec> calls;

 private:
  Handler handler_;
};

}  // namespace gatekit
