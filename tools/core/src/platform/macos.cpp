// The macOS implementation of platform.hpp (compiled on macOS only: tools/core/CMakeLists.txt).
//
// macOS has no subreaper and no parent-death signal. Descendants are found by walking the
// parent ids of the process table (sysctl CTL_KERN / KERN_PROC / KERN_PROC_ALL, the
// interface ps(1) uses); the forked GPU probe watches its parent with kqueue (EVFILT_PROC,
// NOTE_EXIT). See docs/architecture.md, "Platforms", for what differs in behaviour.
#include <signal.h>
#include <sys/event.h>
#include <sys/sysctl.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <map>
#include <thread>
#include <vector>

#include "gatekit/platform.hpp"

namespace gatekit::platform {

Os host_os() { return Os::macos; }

// macOS's allocator keeps its own regions; there is nothing to ask for.
int usable_cpus() {
  int count = 0;
  std::size_t size = sizeof(count);
  if (sysctlbyname("hw.activecpu", &count, &size, nullptr, 0) == 0 && count > 0) return count;
  const unsigned hardware = std::thread::hardware_concurrency();
  return hardware > 0 ? static_cast<int>(hardware) : 1;
}

bool prefer_huge_pages() { return false; }

bool become_subreaper() { return false; }

void die_with_parent(pid_t parent) {
  const int queue = ::kqueue();
  if (queue < 0) return;
  struct kevent change {};
  EV_SET(&change, static_cast<uintptr_t>(parent), EVFILT_PROC, EV_ADD | EV_ONESHOT, NOTE_EXIT, 0, nullptr);
  if (::kevent(queue, &change, 1, nullptr, 0, nullptr) < 0) {
    // ESRCH: the parent is gone already.
    if (errno == ESRCH) ::_exit(1);
    ::close(queue);
    return;
  }
  if (::getppid() != parent) ::_exit(1);
  std::thread([queue] {
    struct kevent event {};
    while (::kevent(queue, nullptr, 0, &event, 1, nullptr) < 0 && errno == EINTR) {
    }
    ::kill(::getpid(), SIGKILL);
  }).detach();
}

namespace {

// Every process's pid, parent pid and state. The table grows between the size query and the
// read, so the buffer gets some room and the read is retried on ENOMEM.
std::vector<kinfo_proc> process_table() {
  int mib[4] = {CTL_KERN, KERN_PROC, KERN_PROC_ALL, 0};
  for (int attempt = 0; attempt < 8; ++attempt) {
    std::size_t size = 0;
    if (::sysctl(mib, 3, nullptr, &size, nullptr, 0) < 0) return {};
    size += size / 4 + 16 * sizeof(kinfo_proc);
    std::vector<kinfo_proc> table(size / sizeof(kinfo_proc));
    size = table.size() * sizeof(kinfo_proc);
    if (::sysctl(mib, 3, table.data(), &size, nullptr, 0) == 0) {
      table.resize(size / sizeof(kinfo_proc));
      return table;
    }
    if (errno != ENOMEM) return {};
  }
  return {};
}

}  // namespace

std::vector<StrayProcess> stray_processes() {
  const pid_t self = ::getpid();
  std::multimap<pid_t, const kinfo_proc*> by_parent;
  const auto table = process_table();
  for (const auto& p : table) by_parent.emplace(p.kp_eproc.e_ppid, &p);
  std::vector<StrayProcess> found;
  std::vector<pid_t> pending{self};
  while (!pending.empty()) {
    const pid_t parent = pending.back();
    pending.pop_back();
    const auto [first, last] = by_parent.equal_range(parent);
    for (auto it = first; it != last; ++it) {
      const pid_t pid = it->second->kp_proc.p_pid;
      if (pid <= 0 || pid == self) continue;
      if (std::any_of(found.begin(), found.end(), [pid](const StrayProcess& s) { return s.pid == pid; })) continue;
      found.push_back({pid, it->second->kp_proc.p_stat == SZOMB, parent == self});
      pending.push_back(pid);
    }
  }
  return found;
}

}  // namespace gatekit::platform
