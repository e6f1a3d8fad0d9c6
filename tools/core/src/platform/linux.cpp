// The Linux implementation of platform.hpp (compiled on Linux only: tools/core/CMakeLists.txt).
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include "gatekit/platform.hpp"

namespace gatekit::platform {

Os host_os() { return Os::gnu_linux; }

bool become_subreaper() { return ::prctl(PR_SET_CHILD_SUBREAPER, 1L, 0L, 0L, 0L) == 0; }

void die_with_parent(pid_t parent) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  // The parent may have died before the call: then the signal never comes.
  if (::getppid() != parent) ::_exit(1);
}

// The children of this process, from /proc (a zombie is listed until it is reaped).
std::vector<StrayProcess> stray_processes() {
  std::vector<StrayProcess> children;
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
    children.push_back({static_cast<pid_t>(std::stol(name)), state == 'Z', true});
  }
  return children;
}

}  // namespace gatekit::platform
