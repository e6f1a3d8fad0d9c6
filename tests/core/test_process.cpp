#include <signal.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <thread>
#include <vector>

#include "catch.hpp"
#include "gatekit/files.hpp"
#include "gatekit/process.hpp"
#include "temp_dir.hpp"

using namespace gatekit;
using namespace std::chrono_literals;

TEST_CASE("a program's exit code and output are captured") {
  SystemProcessRunner runner;
  auto r = runner.run({.argv = {"sh", "-c", "echo out; echo err >&2; exit 3"}});
  REQUIRE(r.ok());
  CHECK(r->exit_code == 3);
  CHECK(r->signal == 0);
  CHECK(r->out == "out\n");
  CHECK(r->err == "err\n");
  CHECK_FALSE(r->succeeded());
  CHECK(r->describe() == "exit code 3");
}

TEST_CASE("argv is passed without a shell") {
  SystemProcessRunner runner;
  auto r = runner.run({.argv = {"printf", "%s|", "a b", "$HOME", "*"}});
  REQUIRE(r.ok());
  CHECK(r->out == "a b|$HOME|*|");
}

TEST_CASE("a missing program is an error, not a failed run") {
  SystemProcessRunner runner;
  auto r = runner.run({.argv = {"gatekit-no-such-program"}});
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message == "program 'gatekit-no-such-program' not found on PATH");
}

TEST_CASE("working directory, environment and stdin reach the child") {
  testing::TempDir tmp;
  SystemProcessRunner runner;
  ProcessSpec spec{.argv = {"sh", "-c", "pwd; echo \"$GK_A\"; echo \"${HOME-unset}\"; cat"}};
  spec.cwd = tmp.path();
  spec.env_set = {{"GK_A", "value"}};
  spec.env_unset = {"HOME"};
  spec.stdin_data = "from stdin";
  auto r = runner.run(spec);
  REQUIRE(r.ok());
  CHECK(r->out == tmp.path().string() + "\nvalue\nunset\nfrom stdin");
}

TEST_CASE("a timeout sends SIGTERM to the whole process group") {
  SystemProcessRunner runner;
  ProcessSpec spec{.argv = {"sh", "-c", "sleep 30 & sleep 30; echo never"}};
  spec.timeout = 200ms;
  auto start = std::chrono::steady_clock::now();
  auto r = runner.run(spec);
  REQUIRE(r.ok());
  CHECK(r->timed_out);
  CHECK_FALSE(r->killed);
  CHECK(r->signal == 15);
  CHECK(std::chrono::steady_clock::now() - start < 5s);
  CHECK(r->describe(200ms) == "timed out after 200ms");
}

TEST_CASE("a child that ignores SIGTERM is killed after the grace period") {
  SystemProcessRunner runner;
  ProcessSpec spec{.argv = {"sh", "-c", "trap '' TERM; echo ready; while :; do sleep 0.05; done"}};
  spec.timeout = 200ms;
  spec.kill_grace = 200ms;
  auto r = runner.run(spec);
  REQUIRE(r.ok());
  CHECK(r->timed_out);
  CHECK(r->killed);
  CHECK(r->signal == 9);
  CHECK(r->out == "ready\n");
}

TEST_CASE("a child that dies by a signal reports it") {
  SystemProcessRunner runner;
  auto r = runner.run({.argv = {"sh", "-c", "kill -SEGV $$"}});
  REQUIRE(r.ok());
  CHECK(r->signal == 11);
  CHECK(r->describe() == "killed by signal 11 (SIGSEGV)");
}

TEST_CASE("captured output is bounded but fully counted and streamed") {
  SystemProcessRunner runner;
  ProcessSpec spec{.argv = {"sh", "-c", "head -c 3000000 /dev/zero"}};
  spec.capture_limit = 1000;
  std::size_t streamed = 0;
  spec.on_output = [&](OutputStream, std::string_view chunk) { streamed += chunk.size(); };
  auto r = runner.run(spec);
  REQUIRE(r.ok());
  CHECK(r->out.size() == 1000);
  CHECK(r->out_bytes == 3000000);
  CHECK(streamed == 3000000);
}

TEST_CASE("merged stderr keeps the order of the two streams") {
  SystemProcessRunner runner;
  ProcessSpec spec{.argv = {"sh", "-c", "echo 1; echo 2 >&2; echo 3"}};
  spec.merge_stderr = true;
  auto r = runner.run(spec);
  REQUIRE(r.ok());
  CHECK(r->out == "1\n2\n3\n");
  CHECK(r->err.empty());
}

TEST_CASE("a background process left holding the pipe does not hang the run") {
  SystemProcessRunner runner;
  auto start = std::chrono::steady_clock::now();
  auto r = runner.run({.argv = {"sh", "-c", "sleep 30 & echo started"}});
  REQUIRE(r.ok());
  CHECK(r->exit_code == 0);
  CHECK(r->out == "started\n");
  CHECK(r->leftovers_killed);
  CHECK(std::chrono::steady_clock::now() - start < 5s);
}

TEST_CASE("runs on several threads never hold each other's output open") {
  // A pipe made while another thread forks would be inherited by that thread's child, and
  // this run's output would stay open until that child exits: short runs beside long ones
  // would then be reported as leaving processes behind.
  SystemProcessRunner runner;
  std::atomic<int> held{0};
  std::atomic<bool> sleepers_done{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 3; ++i) {
        auto r = runner.run({.argv = {"sleep", "0.6"}});
        if (!r.ok() || r->leftovers_killed) ++held;
      }
      sleepers_done = true;
    });
  }
  for (int t = 0; t < 2; ++t) {
    threads.emplace_back([&] {
      while (!sleepers_done) {
        auto r = runner.run({.argv = {"true"}});
        if (!r.ok() || r->leftovers_killed) ++held;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK(held == 0);
}

TEST_CASE("find_program searches PATH in order") {
  auto found = find_program(SystemFiles(), "sh", "/nonexistent:/bin:/usr/bin");
  REQUIRE(found.ok());
  CHECK(found->filename() == "sh");
  CHECK_FALSE(find_program(SystemFiles(), "sh", "/nonexistent").ok());
}

TEST_CASE("a process that left its group (setsid) stays a child of an adopting runner and is ended") {
  adopt_orphans();
  testing::TempDir tmp;
  SystemProcessRunner runner;
  // The smoke waits until the escapee is in its own session, then exits.
  const std::string ready = (tmp / "ready").string();
  auto r = runner.run({.argv = {"sh", "-c",
                                "setsid sh -c 'echo $$ > \"$0\"; sleep 30; sleep 30' '" + ready +
                                    "' </dev/null >/dev/null 2>&1 &\n"
                                    "while [ ! -s '" + ready + "' ]; do sleep 0.01; done"}});
  REQUIRE(r.ok());
  CHECK_FALSE(r->leftovers_killed);  // it did not hold the output open: only adoption finds it
  int escapee = 0;
  std::ifstream(tmp / "ready") >> escapee;
  REQUIRE(escapee > 0);
  REQUIRE(::kill(escapee, 0) == 0);
  CHECK(end_child_processes(2000ms) >= 1);  // the escaped shell (and its `sleep`, once started)
  CHECK(::kill(escapee, 0) != 0);           // killed and reaped
  CHECK(end_child_processes(100ms) == 0);
}

TEST_CASE("find_program asks the Files seam: the first executable file on PATH, folders and plain files passed over") {
  MemoryFiles files;
  files.files["/opt/bin/pytest"] = "#!/bin/sh\n";  // not executable
  REQUIRE(files.make_directories("/usr/local/bin/pytest").ok());  // a folder of that name
  files.files["/usr/bin/pytest"] = "#!/bin/sh\n";
  files.executables.insert("/usr/bin/pytest");
  auto found = find_program(files, "pytest", "/opt/bin:/usr/local/bin:/usr/bin");
  REQUIRE(found.ok());
  CHECK(*found == "/usr/bin/pytest");
  auto missing = find_program(files, "pytest", "/opt/bin");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().message == "program 'pytest' not found on PATH");
  CHECK(find_program(files, "/usr/bin/pytest", "").ok());  // a path is taken as it is, if it runs
  CHECK(find_program(files, "/opt/bin/pytest", "").error().message ==
        "program '/opt/bin/pytest' does not exist or is not executable");
}
