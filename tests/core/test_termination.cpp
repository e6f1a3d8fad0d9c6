// Orderly shutdown (termination.hpp): the first SIGINT/SIGTERM is recorded and forwarded as
// SIGTERM to every registered process group, a second one as SIGKILL, and
// SystemProcessRunner ends a child that ignores SIGTERM after the short termination grace.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "catch.hpp"
#include "gatekit/process.hpp"
#include "gatekit/termination.hpp"
#include "temp_dir.hpp"

using namespace gatekit;
using namespace std::chrono_literals;

namespace {

// `script` under sh, leading a process group of its own, as SystemProcessRunner starts children.
pid_t spawn_group(const std::string& script) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::setpgid(0, 0);
    ::execl("/bin/sh", "sh", "-c", script.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::setpgid(pid, pid);
  return pid;
}

bool wait_for_file(const std::filesystem::path& path) {
  for (int i = 0; i < 500 && !std::filesystem::exists(path); ++i) std::this_thread::sleep_for(10ms);
  return std::filesystem::exists(path);
}

// The wait status, or -1 when the process is still running after `limit`.
int wait_status(pid_t pid, std::chrono::milliseconds limit = 5s) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  int status = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    if (::waitpid(pid, &status, WNOHANG) == pid) return status;
    std::this_thread::sleep_for(10ms);
  }
  return -1;
}

// A script that exits 7 when its group gets SIGTERM, after writing `ready`.
std::string exits_7_on_term(const std::filesystem::path& ready) {
  return "trap 'exit 7' TERM; : > '" + ready.string() + "'; while :; do sleep 0.05; done";
}

}  // namespace

TEST_CASE("the first signal is recorded and forwarded as SIGTERM to every registered group") {
  reset_termination_for_testing();
  testing::TempDir tmp;
  const pid_t a = spawn_group(exits_7_on_term(tmp / "a"));
  const pid_t b = spawn_group(exits_7_on_term(tmp / "b"));
  REQUIRE(wait_for_file(tmp / "a"));
  REQUIRE(wait_for_file(tmp / "b"));
  {
    const ScopedProcessGroup ga(a), gb(b);
    CHECK(termination_signal() == 0);
    request_termination(SIGINT);
    CHECK(termination_signal() == SIGINT);
    const int sa = wait_status(a), sb = wait_status(b);
    CHECK((WIFEXITED(sa) && WEXITSTATUS(sa) == 7));
    CHECK((WIFEXITED(sb) && WEXITSTATUS(sb) == 7));
  }
  reset_termination_for_testing();
}

TEST_CASE("a second signal kills the groups, and the first one stays the recorded one") {
  reset_termination_for_testing();
  testing::TempDir tmp;
  const pid_t deaf = spawn_group("trap '' TERM INT; : > '" + (tmp / "ready").string() + "'; exec sleep 30");
  REQUIRE(wait_for_file(tmp / "ready"));
  {
    const ScopedProcessGroup g(deaf);
    request_termination(SIGINT);
    CHECK(wait_status(deaf, 300ms) == -1);  // SIGTERM is ignored
    request_termination(SIGTERM);
    const int status = wait_status(deaf);
    CHECK((WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL));
    CHECK(termination_signal() == SIGINT);
  }
  reset_termination_for_testing();
}

TEST_CASE("a group registered after the signal still gets SIGTERM") {
  reset_termination_for_testing();
  testing::TempDir tmp;
  request_termination(SIGTERM);
  const pid_t late = spawn_group(exits_7_on_term(tmp / "ready"));
  REQUIRE(wait_for_file(tmp / "ready"));
  {
    const ScopedProcessGroup g(late);
    const int status = wait_status(late);
    CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 7));
  }
  reset_termination_for_testing();
}

TEST_CASE("once terminating, a child that ignores SIGTERM is killed after the short grace, not its own") {
  reset_termination_for_testing();
  CHECK(termination_grace() == 1s);  // reports within 2 s of the signal need it short
  set_termination_grace(300ms);
  SystemProcessRunner runner;
  ProcessSpec spec{.argv = {"sh", "-c", "trap '' TERM; sh -c 'trap \"\" TERM; sleep 30' & while :; do sleep 0.05; done"}};
  spec.kill_grace = 30s;
  std::thread signal_later([] {
    std::this_thread::sleep_for(300ms);
    request_termination(SIGINT);
  });
  const auto start = std::chrono::steady_clock::now();
  auto r = runner.run(spec);
  signal_later.join();
  const auto took = std::chrono::steady_clock::now() - start;
  REQUIRE(r.ok());
  CHECK(r->killed);
  CHECK(r->signal == SIGKILL);
  CHECK_FALSE(r->timed_out);
  CHECK(took >= 600ms);
  CHECK(took < 10s);
  set_termination_grace(1s);
  reset_termination_for_testing();
}

TEST_CASE("the installed handlers record SIGINT and SIGTERM instead of ending the tool") {
  reset_termination_for_testing();
  install_termination_handlers();
  install_termination_handlers();  // idempotent
  REQUIRE(::raise(SIGINT) == 0);   // without the handler this process would end here
  CHECK(termination_signal() == SIGINT);
  REQUIRE(::raise(SIGTERM) == 0);
  CHECK(termination_signal() == SIGINT);  // the first one stays the recorded one
  reset_termination_for_testing();
  CHECK(termination_signal() == 0);
}

TEST_CASE("a group whose registration ended gets no forwarded signal") {
  reset_termination_for_testing();
  testing::TempDir tmp;
  const pid_t pid = spawn_group(exits_7_on_term(tmp / "ready"));
  REQUIRE(wait_for_file(tmp / "ready"));
  { const ScopedProcessGroup g(pid); }
  request_termination(SIGTERM);
  CHECK(wait_status(pid, 300ms) == -1);  // still running: nobody signalled it
  ::killpg(pid, SIGKILL);
  const int status = wait_status(pid);
  CHECK((WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL));
  reset_termination_for_testing();
}

TEST_CASE("a cleanup runs to its end after a termination signal; an ordinary command is ended") {
  reset_termination_for_testing();
  request_termination(SIGINT);  // the tool was cancelled before the command started
  SystemProcessRunner runner;
  ProcessSpec spec{.argv = {"sh", "-c", "sleep 0.3; exit 7"}};
  spec.timeout = 10s;
  spec.cleanup = true;
  auto cleanup = runner.run(spec);
  REQUIRE(cleanup.ok());
  CHECK(cleanup->exit_code == 7);
  CHECK(cleanup->signal == 0);
  CHECK_FALSE(cleanup->killed);
  spec.cleanup = false;
  auto ordinary = runner.run(spec);
  REQUIRE(ordinary.ok());
  CHECK(ordinary->signal == SIGTERM);
  reset_termination_for_testing();
}

TEST_CASE("a cleanup gets no forwarded signal, and only its own timeout ends it") {
  reset_termination_for_testing();
  SystemProcessRunner runner;
  ProcessSpec spec{.argv = {"sh", "-c", "trap 'exit 9' TERM; sleep 0.6 & wait; exit 7"}};
  spec.timeout = 10s;
  spec.cleanup = true;
  std::thread signal_later([] {
    std::this_thread::sleep_for(200ms);
    request_termination(SIGTERM);  // while it runs: forwarded to ordinary groups only
  });
  auto r = runner.run(spec);
  signal_later.join();
  REQUIRE(r.ok());
  CHECK(r->exit_code == 7);
  spec.argv = {"sh", "-c", "sleep 30"};
  spec.timeout = 300ms;
  spec.kill_grace = 300ms;
  const auto start = std::chrono::steady_clock::now();
  r = runner.run(spec);
  REQUIRE(r.ok());
  CHECK(r->timed_out);
  CHECK(std::chrono::steady_clock::now() - start < 5s);
  reset_termination_for_testing();
}
