// The Linux implementation of platform.hpp (compiled on Linux only: tools/core/CMakeLists.txt).
#include <malloc.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include "gatekit/platform.hpp"

// A sanitizer brings its own allocator: the heap is not glibc's to pad and advise.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define GATEKIT_OWN_ALLOCATOR 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(GATEKIT_OWN_ALLOCATOR)
#define GATEKIT_OWN_ALLOCATOR 1
#endif

namespace gatekit::platform {

Os host_os() { return Os::gnu_linux; }

int usable_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  return online > 0 ? static_cast<int>(online) : 1;
}

#if defined(__GLIBC__) && !defined(GATEKIT_OWN_ALLOCATOR)
namespace {
// The block prefer_huge_pages keeps below the advised range (held here, so that a leak
// checker sees it reachable).
void* heap_spacer = nullptr;
}  // namespace
#endif

bool prefer_huge_pages() {
#if defined(__GLIBC__) && !defined(GATEKIT_OWN_ALLOCATOR)
  if (heap_spacer != nullptr) return false;  // once
  constexpr std::size_t kReserve = std::size_t{32} << 20;  // address space added to the heap
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  constexpr std::uintptr_t kHeader = 2 * sizeof(std::size_t);  // glibc's chunk header
  // Blocks up to 32 MiB from the heap (glibc's largest mmap threshold), no trimming below
  // 64 MiB, and every growth of the heap padded by kReserve.
  if (::mallopt(M_MMAP_THRESHOLD, static_cast<int>(kReserve)) == 0 ||
      ::mallopt(M_TRIM_THRESHOLD, static_cast<int>(2 * kReserve)) == 0 ||
      ::mallopt(M_TOP_PAD, static_cast<int>(kReserve)) == 0) {
    return false;
  }
  // The heap ends at `end`, its free top starting at end - keepcost. A block from there to a
  // page short of the first 2 MiB boundary past `end`, kept for the life of the process, is
  // larger than the free top, so the heap grows now, by the pad; and everything allocated
  // after it starts in that last page, then fills whole huge pages. Nothing at or past the
  // boundary is touched before the advice (a 2 MiB range that already has a small page keeps
  // small pages): of the block, only its header is ever written, the rest is address space.
  constexpr std::uintptr_t kPage = 4096;
  const auto end = reinterpret_cast<std::uintptr_t>(::sbrk(0));
  const std::uintptr_t top = end - ::mallinfo2().keepcost;
  const std::uintptr_t first = (end + kPage + kHeader + kHuge - 1) & ~(kHuge - 1);
  heap_spacer = std::malloc(first - kPage - top - kHeader);
  const std::uintptr_t last = reinterpret_cast<std::uintptr_t>(::sbrk(0)) & ~(kHuge - 1);
  if (heap_spacer == nullptr || last <= first) return false;
  return ::madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE) == 0;
#else
  return false;  // glibc's allocator only, and not under a sanitizer's
#endif
}

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
