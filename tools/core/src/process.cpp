#include "gatekit/process.hpp"

#include "gatekit/compat.hpp"  // before Boost.Process: selects std::filesystem

// Boost.Process v1. Boost 1.86 moved it to boost/process/v1/ (namespace boost::process::v1)
// and 1.88 made <boost/process.hpp> v2, a different API (Ubuntu 26.04 has Boost 1.90).
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
#include <boost/process.hpp>
#endif

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <mutex>

#include "gatekit/termination.hpp"
#include "gatekit/text.hpp"

#if BOOST_VERSION >= 108600
namespace bp = boost::process::v1;
#else
namespace bp = boost::process;
#endif

namespace gatekit {

namespace {

using steady = std::chrono::steady_clock;

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

Result<std::filesystem::path> find_program(std::string_view name, std::string_view path_var) {
  if (name.empty()) return make_error("empty program name", ExitCode::usage_error);
  if (name.find('/') != std::string_view::npos) {
    std::filesystem::path p(name);
    if (::access(p.c_str(), X_OK) == 0) return p;
    return make_error("program '" + std::string(name) + "' does not exist or is not executable");
  }
  std::size_t start = 0;
  while (start <= path_var.size()) {
    auto end = path_var.find(':', start);
    auto dir = path_var.substr(start, end == std::string_view::npos ? path_var.npos : end - start);
    std::filesystem::path candidate = std::filesystem::path(dir.empty() ? "." : std::string(dir)) / std::string(name);
    std::error_code ec;
    if (std::filesystem::is_regular_file(candidate, ec) && ::access(candidate.c_str(), X_OK) == 0)
      return candidate;
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return make_error("program '" + std::string(name) + "' not found on PATH");
}

namespace {

struct ChildProcess {
  pid_t pid = 0;
  bool zombie = false;
};

// The children of this process, from /proc (a zombie is listed until it is reaped).
std::vector<ChildProcess> child_processes() {
  std::vector<ChildProcess> children;
  const pid_t self = ::getpid();
  std::error_code ec;
  for (std::filesystem::directory_iterator it("/proc", ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(it->path() / "stat");
    std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    // "pid (comm) state ppid ...": comm may hold anything, so read after its last ')'.
    const auto close = stat.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream fields(stat.substr(close + 1));
    char state = 0;
    long ppid = 0;
    if (!(fields >> state >> ppid) || ppid != self) continue;
    children.push_back({static_cast<pid_t>(std::stol(name)), state == 'Z'});
  }
  return children;
}

}  // namespace

void adopt_orphans() { ::prctl(PR_SET_CHILD_SUBREAPER, 1L, 0L, 0L, 0L); }

int end_child_processes(std::chrono::milliseconds limit) {
  int running = 0;
  std::vector<pid_t> seen;
  const auto deadline = steady::now() + limit;
  for (;;) {
    const auto children = child_processes();
    if (children.empty()) break;
    for (const auto& child : children) {
      if (!child.zombie && std::find(seen.begin(), seen.end(), child.pid) == seen.end()) {
        seen.push_back(child.pid);
        ++running;
      }
      if (!child.zombie) ::kill(child.pid, SIGKILL);  // its own children come to this process next
    }
    for (const auto& child : children) {
      int status = 0;
      ::waitpid(child.pid, &status, WNOHANG);
    }
    if (steady::now() >= deadline) break;
    ::usleep(2000);
  }
  return running;
}

Result<ProcessResult> SystemProcessRunner::run(const ProcessSpec& spec) {
  if (spec.argv.empty()) return make_error("no program given", ExitCode::usage_error);
  static std::once_flag ignore_sigpipe;
  std::call_once(ignore_sigpipe, [] { ::signal(SIGPIPE, SIG_IGN); });

  bp::environment env;
  if (spec.inherit_env) {
    for (const auto& entry : boost::this_process::environment()) env[entry.get_name()] = entry.to_string();
  }
  for (const auto& [key, value] : spec.env_set) env[key] = value;
  for (const auto& key : spec.env_unset) env.erase(key);

  std::string path_var;
  if (auto it = env.find("PATH"); it != env.end()) path_var = it->to_string();
  auto program = find_program(spec.argv.front(), path_var);
  if (!program) return program.error();

  std::vector<std::string> args(spec.argv.begin() + 1, spec.argv.end());
  const std::filesystem::path cwd = spec.cwd.empty() ? std::filesystem::current_path() : spec.cwd;

  ProcessResult result;
  const auto started = steady::now();
  bp::group group;
  bp::child child;
  int out_fd = -1, err_fd = -1, in_fd = -1;
  {
    // The pipes are made under the lock too: made outside it, a child forked meanwhile by
    // another thread would inherit them and hold this run's output open until it exits.
    std::lock_guard lock(spawn_mutex());
    bp::pipe out_pipe, err_pipe, in_pipe;
    for (auto* p : {&out_pipe, &err_pipe, &in_pipe}) {
      set_cloexec(p->native_source());
      set_cloexec(p->native_sink());
    }
    std::error_code ec;
    if (spec.merge_stderr) {
      child = bp::child(bp::exe = program->string(), bp::args = args,
                        (bp::std_out & bp::std_err) > out_pipe, bp::std_in < in_pipe,
                        bp::start_dir = cwd.string(), env, group, ec);
    } else {
      child = bp::child(bp::exe = program->string(), bp::args = args, bp::std_out > out_pipe,
                        bp::std_err > err_pipe, bp::std_in < in_pipe, bp::start_dir = cwd.string(),
                        env, group, ec);
    }
    // The parent keeps only its own ends.
    int fd = out_pipe.native_sink(); close_fd(fd); out_pipe.assign_sink(-1);
    fd = err_pipe.native_sink(); close_fd(fd); err_pipe.assign_sink(-1);
    fd = in_pipe.native_source(); close_fd(fd); in_pipe.assign_source(-1);
    out_fd = out_pipe.native_source(); out_pipe.assign_source(-1);
    err_fd = err_pipe.native_source(); err_pipe.assign_source(-1);
    in_fd = in_pipe.native_sink(); in_pipe.assign_sink(-1);
    if (ec) {
      close_fd(out_fd); close_fd(err_fd); close_fd(in_fd);
      return make_error("cannot start '" + spec.argv.front() + "': " + ec.message());
    }
  }
  if (spec.merge_stderr) close_fd(err_fd);

  std::string pending_input = spec.stdin_data.value_or("");
  std::size_t input_offset = 0;
  if (pending_input.empty()) close_fd(in_fd);
  else ::fcntl(in_fd, F_SETFL, ::fcntl(in_fd, F_GETFL) | O_NONBLOCK);

  Capture out_capture{&result.out, &result.out_bytes, spec.capture_limit};
  Capture err_capture{&result.err, &result.err_bytes, spec.capture_limit};
  const pid_t pgid = static_cast<pid_t>(group.native_handle());
  // Termination signals received by the tool are forwarded to this group (termination.hpp).
  const ScopedProcessGroup forwarded(pgid);

  bool exited = false;
  bool term_sent = false;
  steady::time_point kill_at{}, exited_at{};
  std::vector<char> buffer(64 * 1024);

  while (!exited || out_fd >= 0 || err_fd >= 0) {
    std::vector<pollfd> fds;
    if (out_fd >= 0) fds.push_back({out_fd, POLLIN, 0});
    if (err_fd >= 0) fds.push_back({err_fd, POLLIN, 0});
    if (in_fd >= 0) fds.push_back({in_fd, POLLOUT, 0});
    if (!fds.empty()) ::poll(fds.data(), fds.size(), 20);
    else ::usleep(5000);

    for (const auto& p : fds) {
      if (p.revents == 0) continue;
      if (p.fd == in_fd) {
        auto n = ::write(in_fd, pending_input.data() + input_offset, pending_input.size() - input_offset);
        if (n > 0) input_offset += static_cast<std::size_t>(n);
        if (n < 0 && errno != EAGAIN && errno != EINTR) input_offset = pending_input.size();
        if (input_offset >= pending_input.size()) close_fd(in_fd);
        continue;
      }
      auto n = ::read(p.fd, buffer.data(), buffer.size());
      if (n > 0) {
        std::string_view chunk(buffer.data(), static_cast<std::size_t>(n));
        const bool is_out = p.fd == out_fd;
        if (spec.on_output) spec.on_output(is_out ? OutputStream::out : OutputStream::err, chunk);
        (is_out ? out_capture : err_capture).add(chunk);
      } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
        if (p.fd == out_fd) close_fd(out_fd);
        else close_fd(err_fd);
      }
    }

    const auto now = steady::now();
    if (!exited) {
      std::error_code ec;
      if (!child.running(ec)) {
        exited = true;
        exited_at = now;
        const int status = child.native_exit_code();
        if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
        else if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
      }
    }
    if (!exited && spec.timeout.count() > 0 && !term_sent && now - started >= spec.timeout) {
      result.timed_out = true;
      term_sent = true;
      ::killpg(pgid, SIGTERM);
      kill_at = now + spec.kill_grace;
    }
    if (!exited && !term_sent && termination_signal() != 0) {
      term_sent = true;
      ::killpg(pgid, SIGTERM);
      kill_at = now + std::min(spec.kill_grace, termination_grace());
    }
    if (!exited && term_sent && !result.killed && now >= kill_at) {
      result.killed = true;
      ::killpg(pgid, SIGKILL);
    }
    // The leader is gone but something it left behind still holds the pipes: the process
    // group is ours alone, so end it rather than wait on it.
    if (exited && (out_fd >= 0 || err_fd >= 0) && now - exited_at > std::chrono::milliseconds(200)) {
      result.leftovers_killed = true;
      ::killpg(pgid, SIGKILL);
      if (now - exited_at > std::chrono::milliseconds(400)) {
        close_fd(out_fd);
        close_fd(err_fd);
      }
    }
  }
  close_fd(in_fd);
  std::error_code ignored;
  group.terminate(ignored);  // leftovers of the group, if any
  group.detach();
  result.duration = std::chrono::duration_cast<std::chrono::milliseconds>(steady::now() - started);
  return result;
}

}  // namespace gatekit
