#pragma once
// Orderly shutdown on SIGINT / SIGTERM. A cancelled GitHub Actions step's process gets
// SIGINT, then SIGTERM 7.5 s later, and its process tree is killed 2.5 s after that
// (https://docs.github.com/en/actions/reference/workflow-cancellation-reference).
// A tool that installs the handlers keeps running after the first signal: it finds
// termination_signal() != 0, stops starting work, ends its children, writes its reports
// within 2 s of that signal, and exits long before the kill.
//
// Children started by SystemProcessRunner (and the GPU probe) live in process groups of
// their own, so a signal sent to the tool does not reach them. While the handlers are
// installed every running group is registered here: the handler forwards SIGTERM to each
// group at once (SIGKILL on a second signal), and SystemProcessRunner kills a group that is
// still alive termination_grace() later.
#include <chrono>
#include <string_view>

#include <sys/types.h>

#include "gatekit/result.hpp"

namespace gatekit {

// Idempotent; safe to call from several tools' entry points.
void install_termination_handlers();

// The first SIGINT/SIGTERM received since start (or since reset), 0 if none.
int termination_signal();

// What the handler does, callable from ordinary code and tests: records `signal` and
// forwards SIGTERM (SIGKILL when a termination was already recorded) to every registered group.
void request_termination(int signal);

// How a run says it was cancelled: could not evaluate, `cancelled: <who> received <the
// recorded signal><rest>` ("cancelled: gpu-gate received SIGINT during the gate pass; ...").
// The frame (gatekit/cli.hpp) words any other error after the signal this way, and leaves an
// error that is_cancellation() as it is.
Error cancellation(std::string_view who, std::string_view rest);
bool is_cancellation(const Error& error);

// Clears the recorded signal (tests only).
void reset_termination_for_testing();

// SIGTERM -> SIGKILL delay for children once terminating. Default 1 s: a child that ignores
// SIGTERM is gone, and the reports written, well within 2 s of the signal.
std::chrono::milliseconds termination_grace();
void set_termination_grace(std::chrono::milliseconds grace);

// Registers a process group to receive forwarded termination signals while in scope.
class ScopedProcessGroup {
 public:
  explicit ScopedProcessGroup(pid_t pgid);
  ~ScopedProcessGroup();
  ScopedProcessGroup(const ScopedProcessGroup&) = delete;
  ScopedProcessGroup& operator=(const ScopedProcessGroup&) = delete;

 private:
  int slot_ = -1;
};

}  // namespace gatekit
