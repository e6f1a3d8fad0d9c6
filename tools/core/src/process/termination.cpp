#include "gatekit/termination.hpp"

#include <signal.h>

#include <array>
#include <atomic>
#include <string>

#include "gatekit/process.hpp"

namespace gatekit {

namespace {

// Lock-free on every supported platform, so the handler may touch them.
std::atomic<int> g_signal{0};
std::atomic<long long> g_grace_ms{1000};
constexpr std::size_t kSlots = 1024;
std::array<std::atomic<pid_t>, kSlots> g_groups{};

void forward(int signal_to_send) {
  for (auto& slot : g_groups) {
    const pid_t pgid = slot.load();
    if (pgid > 0) ::killpg(pgid, signal_to_send);
  }
}

extern "C" void on_termination_signal(int signal) { request_termination(signal); }

}  // namespace

void request_termination(int signal) {
  int expected = 0;
  const bool first = g_signal.compare_exchange_strong(expected, signal);
  forward(first ? SIGTERM : SIGKILL);
}

int termination_signal() { return g_signal.load(); }

namespace {
constexpr std::string_view kCancelled = "cancelled: ";
}  // namespace

Error cancellation(std::string_view who, std::string_view rest) {
  return could_not_evaluate(std::string(kCancelled) + std::string(who) + " received " +
                            signal_name(termination_signal()) + std::string(rest));
}

// A bad-input message that happens to start so (a file named `cancelled: x`) is not one.
bool is_cancellation(const Error& error) {
  return error.kind == ErrorKind::could_not_evaluate && error.message.starts_with(kCancelled);
}

void reset_termination_for_testing() { g_signal.store(0); }

std::chrono::milliseconds termination_grace() { return std::chrono::milliseconds(g_grace_ms.load()); }

void set_termination_grace(std::chrono::milliseconds grace) { g_grace_ms.store(grace.count()); }

void install_termination_handlers() {
  static std::atomic<bool> installed{false};
  if (installed.exchange(true)) return;
  struct sigaction action {};
  action.sa_handler = on_termination_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  ::sigaction(SIGINT, &action, nullptr);
  ::sigaction(SIGTERM, &action, nullptr);
}

ScopedProcessGroup::ScopedProcessGroup(pid_t pgid) {
  if (pgid <= 0) return;
  for (std::size_t i = 0; i < kSlots; ++i) {
    pid_t empty = 0;
    if (g_groups[i].compare_exchange_strong(empty, pgid)) {
      slot_ = static_cast<int>(i);
      break;
    }
  }
  // A signal that arrived before registration is seen by the caller's termination_signal()
  // check; one arriving now must still reach this group.
  if (g_signal.load() != 0) ::killpg(pgid, SIGTERM);
}

ScopedProcessGroup::~ScopedProcessGroup() {
  if (slot_ >= 0) g_groups[static_cast<std::size_t>(slot_)].store(0);
}

}  // namespace gatekit
