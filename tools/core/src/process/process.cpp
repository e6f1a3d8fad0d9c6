#include "gatekit/process.hpp"

// Boost.Process v1 uses Boost.Filesystem unless told to use std::filesystem (1.77+).
#ifndef BOOST_PROCESS_USE_STD_FS
#define BOOST_PROCESS_USE_STD_FS 1
#endif
#include <boost/version.hpp>

// Boost.Process v1. Boost 1.86 moved it to boost/process/v1/ (namespace boost::process::v1)
// and 1.88 made <boost/process.hpp> v2, a different API (Ubuntu 26.04 has Boost 1.90).
// The headers of what is used, never <boost/process.hpp>: that one also brings the async
// API's Boost.Asio, some 47,000 lines (0.8 s of the core's unit) this file does not use.
#if BOOST_VERSION >= 108600
#include <boost/process/v1/args.hpp>
#include <boost/process/v1/child.hpp>
#include <boost/process/v1/env.hpp>
#include <boost/process/v1/environment.hpp>
#include <boost/process/v1/exe.hpp>
#include <boost/process/v1/group.hpp>
#include <boost/process/v1/io.hpp>
#include <boost/process/v1/pipe.hpp>
#include <boost/process/v1/start_dir.hpp>
#else
#include <boost/process/args.hpp>
#include <boost/process/child.hpp>
#include <boost/process/env.hpp>
#include <boost/process/environment.hpp>
#include <boost/process/exe.hpp>
#include <boost/process/group.hpp>
#include <boost/process/io.hpp>
#include <boost/process/pipe.hpp>
#include <boost/process/start_dir.hpp>
#endif

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>

#include "gatekit/clock.hpp"
#include "gatekit/files.hpp"
#include "gatekit/platform.hpp"
#include "gatekit/termination.hpp"
#include "gatekit/text.hpp"

#if BOOST_VERSION >= 108600
namespace bp = boost::process::v1;
#else
namespace bp = boost::process;
#endif

namespace gatekit {

namespace {

// Timeouts, grace periods and durations on the machine's monotonic clock, read through
// SystemClock (gatekit/clock.hpp), the one reader of the standard clocks.
using Instant = Clock::duration;
Instant monotonic_now() { return SystemClock().monotonic(); }

// Spawning is serialised so that no child inherits another child's pipe between pipe()
// and the close-on-exec marking below.
std::mutex& spawn_mutex() {
  static std::mutex m;
  return m;
}

void set_cloexec(int fd) {
  if (fd >= 0) ::fcntl(fd, F_SETFD, ::fcntl(fd, F_GETFD) | FD_CLOEXEC);
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

struct Capture {
  std::string* text;
  std::size_t* total;
  std::size_t limit;
  void add(std::string_view chunk) {
    *total += chunk.size();
    if (text->size() < limit) text->append(chunk.substr(0, limit - text->size()));
  }
};

}  // namespace

std::string signal_name(int signal) {
  switch (signal) {
    case SIGTERM: return "SIGTERM";
    case SIGKILL: return "SIGKILL";
    case SIGINT: return "SIGINT";
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGPIPE: return "SIGPIPE";
    case SIGHUP: return "SIGHUP";
    case SIGQUIT: return "SIGQUIT";
    default: return "signal " + std::to_string(signal);
  }
}

std::string ProcessResult::describe(std::chrono::milliseconds timeout) const {
  if (timed_out) {
    std::string text = "timed out";
    if (timeout.count() > 0) text += " after " + format_duration(timeout);
    if (killed) text += " (killed after ignoring SIGTERM)";
    return text;
  }
  if (signal != 0) return "killed by signal " + std::to_string(signal) + " (" + signal_name(signal) + ")";
  return "exit code " + std::to_string(exit_code);
}

Result<std::filesystem::path> find_program(const Files& files, std::string_view name, std::string_view path_var) {
  if (name.empty()) return bad_input("empty program name");
  auto runnable = [&files](const std::filesystem::path& p) {
    auto status = files.stat(p);
    return status && status->is_file() && status->executable;
  };
  if (name.find('/') != std::string_view::npos) {
    std::filesystem::path p(name);
    if (runnable(p)) return p;
    return could_not_evaluate("program '" + std::string(name) + "' does not exist or is not executable");
  }
  std::size_t start = 0;
  while (start <= path_var.size()) {
    auto end = path_var.find(':', start);
    auto dir = path_var.substr(start, end == std::string_view::npos ? path_var.npos : end - start);
    std::filesystem::path candidate = std::filesystem::path(dir.empty() ? "." : std::string(dir)) / std::string(name);
    if (runnable(candidate)) return candidate;
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return could_not_evaluate("program '" + std::string(name) + "' not found on PATH");
}

void adopt_orphans() { platform::become_subreaper(); }

int end_child_processes(std::chrono::milliseconds limit) {
  int running = 0;
  std::vector<pid_t> seen;
  const auto deadline = monotonic_now() + limit;
  for (;;) {
    const auto children = platform::stray_processes();
    if (children.empty()) break;
    for (const auto& child : children) {
      if (!child.zombie && std::find(seen.begin(), seen.end(), child.pid) == seen.end()) {
        seen.push_back(child.pid);
        ++running;
      }
      if (!child.zombie) ::kill(child.pid, SIGKILL);  // its own children come to this process next (Linux)
    }
    for (const auto& child : children) {
      int status = 0;
      if (child.own_child) ::waitpid(child.pid, &status, WNOHANG);
    }
    if (monotonic_now() >= deadline) break;
    ::usleep(2000);
  }
  return running;
}

namespace {

// The child's environment: this process's (unless inherit_env is off), then the spec's
// additions and removals.
bp::environment child_environment(const ProcessSpec& spec) {
  bp::environment env;
  if (spec.inherit_env) {
    for (const auto& entry : boost::this_process::environment()) env[entry.get_name()] = entry.to_string();
  }
  for (const auto& [key, value] : spec.env_set) env[key] = value;
  for (const auto& key : spec.env_unset) env.erase(key);
  return env;
}

// A started child: its process group and the parent's ends of its three pipes.
struct Spawned {
  bp::group group;
  bp::child child;
  int out_fd = -1;
  int err_fd = -1;  // -1 when stderr is merged into stdout
  int in_fd = -1;
};

// The process runner's own view of the files (the system's: it starts real processes).
const Files& system_files() {
  static const SystemFiles files;
  return files;
}

// Starts the program in a new process group with piped stdin, stdout and stderr.
Result<std::unique_ptr<Spawned>> start_child(const ProcessSpec& spec, const std::filesystem::path& program,
                                             bp::environment& env) {
  std::vector<std::string> args(spec.argv.begin() + 1, spec.argv.end());
  auto current = spec.cwd.empty() ? system_files().current_folder() : Result<std::filesystem::path>(spec.cwd);
  if (!current) return current.error();
  const std::filesystem::path cwd = *current;
  auto spawned = std::make_unique<Spawned>();
  auto& s = *spawned;
  std::error_code ec;
  {
    // The pipes are made under the lock too: made outside it, a child forked meanwhile by
    // another thread would inherit them and hold this run's output open until it exits.
    std::lock_guard lock(spawn_mutex());
    bp::pipe out_pipe, err_pipe, in_pipe;
    for (auto* p : {&out_pipe, &err_pipe, &in_pipe}) {
      set_cloexec(p->native_source());
      set_cloexec(p->native_sink());
    }
    if (spec.merge_stderr) {
      s.child = bp::child(bp::exe = program.string(), bp::args = args, (bp::std_out & bp::std_err) > out_pipe,
                          bp::std_in < in_pipe, bp::start_dir = cwd.string(), env, s.group, ec);
    } else {
      s.child = bp::child(bp::exe = program.string(), bp::args = args, bp::std_out > out_pipe,
                          bp::std_err > err_pipe, bp::std_in < in_pipe, bp::start_dir = cwd.string(), env,
                          s.group, ec);
    }
    // The parent keeps only its own ends.
    int fd = out_pipe.native_sink(); close_fd(fd); out_pipe.assign_sink(-1);
    fd = err_pipe.native_sink(); close_fd(fd); err_pipe.assign_sink(-1);
    fd = in_pipe.native_source(); close_fd(fd); in_pipe.assign_source(-1);
    s.out_fd = out_pipe.native_source(); out_pipe.assign_source(-1);
    s.err_fd = err_pipe.native_source(); err_pipe.assign_source(-1);
    s.in_fd = in_pipe.native_sink(); in_pipe.assign_sink(-1);
  }
  if (ec) {
    close_fd(s.out_fd); close_fd(s.err_fd); close_fd(s.in_fd);
    return could_not_evaluate("cannot start '" + spec.argv.front() + "': " + ec.message());
  }
  if (spec.merge_stderr) close_fd(s.err_fd);
  return spawned;
}

// One started child watched to its end: feeds stdin, streams and captures its output, and
// applies the timeout, forwarded termination signals and the kill grace to its group.
class Supervision {
 public:
  // started: when the spawn began (the timeout and the duration count from there).
  Supervision(const ProcessSpec& spec, Spawned& child, Instant started)
      : spec_(spec), child_(child), pgid_(static_cast<pid_t>(child.group.native_handle())), started_(started) {
    if (input_.empty()) close_fd(child_.in_fd);
    else ::fcntl(child_.in_fd, F_SETFL, ::fcntl(child_.in_fd, F_GETFL) | O_NONBLOCK);
  }

  ProcessResult run() {
    // Termination signals received by the tool are forwarded to this group (termination.hpp),
    // unless it is a cleanup, which runs to its end.
    std::optional<ScopedProcessGroup> forwarded;
    if (!spec_.cleanup) forwarded.emplace(pgid_);
    while (!exited_ || child_.out_fd >= 0 || child_.err_fd >= 0) {
      pump_pipes();
      const auto now = monotonic_now();
      if (!exited_) check_exit(now);
      if (!exited_) enforce_limits(now);
      if (exited_) end_leftovers(now);
    }
    close_fd(child_.in_fd);
    std::error_code ignored;
    child_.group.terminate(ignored);  // leftovers of the group, if any
    child_.group.detach();
    result_.duration = std::chrono::duration_cast<std::chrono::milliseconds>(monotonic_now() - started_);
    return std::move(result_);
  }

 private:
  // Waits up to 20 ms for the pipes, then moves what is ready.
  void pump_pipes() {
    std::vector<pollfd> fds;
    if (child_.out_fd >= 0) fds.push_back({child_.out_fd, POLLIN, 0});
    if (child_.err_fd >= 0) fds.push_back({child_.err_fd, POLLIN, 0});
    if (child_.in_fd >= 0) fds.push_back({child_.in_fd, POLLOUT, 0});
    if (!fds.empty()) ::poll(fds.data(), static_cast<nfds_t>(fds.size()), 20);
    else ::usleep(5000);
    for (const auto& p : fds) {
      if (p.revents == 0) continue;
      if (p.fd == child_.in_fd) write_input();
      else read_output(p.fd);
    }
  }

  void write_input() {
    auto n = ::write(child_.in_fd, input_.data() + input_offset_, input_.size() - input_offset_);
    if (n > 0) input_offset_ += static_cast<std::size_t>(n);
    if (n < 0 && errno != EAGAIN && errno != EINTR) input_offset_ = input_.size();
    if (input_offset_ >= input_.size()) close_fd(child_.in_fd);
  }

  void read_output(int fd) {
    auto n = ::read(fd, buffer_.data(), buffer_.size());
    const bool is_out = fd == child_.out_fd;
    if (n > 0) {
      std::string_view chunk(buffer_.data(), static_cast<std::size_t>(n));
      if (spec_.on_output) spec_.on_output(is_out ? OutputStream::out : OutputStream::err, chunk);
      (is_out ? out_capture_ : err_capture_).add(chunk);
    } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
      close_fd(is_out ? child_.out_fd : child_.err_fd);
    }
  }

  void check_exit(Instant now) {
    std::error_code ec;
    if (child_.child.running(ec)) return;
    exited_ = true;
    exited_at_ = now;
    const int status = child_.child.native_exit_code();
    if (WIFSIGNALED(status)) result_.signal = WTERMSIG(status);
    else if (WIFEXITED(status)) result_.exit_code = WEXITSTATUS(status);
  }

  // The timeout or a termination signal sends SIGTERM to the group; SIGKILL follows after
  // the grace period (the shorter runner grace for a termination signal).
  void enforce_limits(Instant now) {
    if (spec_.timeout.count() > 0 && !term_sent_ && now - started_ >= spec_.timeout) {
      result_.timed_out = true;
      term_sent_ = true;
      ::killpg(pgid_, SIGTERM);
      kill_at_ = now + spec_.kill_grace;
    }
    if (!spec_.cleanup && !term_sent_ && termination_signal() != 0) {
      term_sent_ = true;
      ::killpg(pgid_, SIGTERM);
      kill_at_ = now + std::min(spec_.kill_grace, termination_grace());
    }
    if (term_sent_ && !result_.killed && now >= kill_at_) {
      result_.killed = true;
      ::killpg(pgid_, SIGKILL);
    }
  }

  // The leader is gone but something it left behind still holds the pipes: the process
  // group is ours alone, so end it rather than wait on it.
  void end_leftovers(Instant now) {
    if (child_.out_fd < 0 && child_.err_fd < 0) return;
    if (now - exited_at_ <= std::chrono::milliseconds(200)) return;
    result_.leftovers_killed = true;
    ::killpg(pgid_, SIGKILL);
    if (now - exited_at_ > std::chrono::milliseconds(400)) {
      close_fd(child_.out_fd);
      close_fd(child_.err_fd);
    }
  }

  const ProcessSpec& spec_;
  Spawned& child_;
  const pid_t pgid_;
  const Instant started_;
  ProcessResult result_;
  const std::string input_ = spec_.stdin_data.value_or("");
  std::size_t input_offset_ = 0;
  Capture out_capture_{&result_.out, &result_.out_bytes, spec_.capture_limit};
  Capture err_capture_{&result_.err, &result_.err_bytes, spec_.capture_limit};
  bool exited_ = false;
  bool term_sent_ = false;
  Instant kill_at_{}, exited_at_{};
  std::vector<char> buffer_ = std::vector<char>(64 * 1024);
};

}  // namespace

Result<ProcessResult> SystemProcessRunner::run(const ProcessSpec& spec) {
  if (spec.argv.empty()) return bad_input("no program given");
  static std::once_flag ignore_sigpipe;
  std::call_once(ignore_sigpipe, [] { ::signal(SIGPIPE, SIG_IGN); });
  auto env = child_environment(spec);
  std::string path_var;
  if (auto it = env.find("PATH"); it != env.end()) path_var = it->to_string();
  auto program = find_program(system_files(), spec.argv.front(), path_var);
  if (!program) return program.error();
  const auto started = monotonic_now();
  auto spawned = start_child(spec, *program, env);
  if (!spawned) return spawned.error();
  return Supervision(spec, **spawned, started).run();
}

}  // namespace gatekit
