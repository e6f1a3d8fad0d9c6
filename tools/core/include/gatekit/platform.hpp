#pragma once
// The platform part of the core: every call that differs between Linux and macOS sits behind
// these functions, and nowhere else (docs/contributing.md, "Platform code"). CMake compiles
// exactly one of src/platform/linux.cpp and src/platform/macos.cpp; the pure tables
// (src/platform/names.cpp) are compiled everywhere, so both platforms' answers are tested on
// any machine.
#include <string>
#include <vector>

#include <sys/types.h>

namespace gatekit::platform {

enum class Os { gnu_linux, macos };

// The platform this build runs on.
Os host_os();

// ---- pure: names that differ per platform -------------------------------------------------

// Default file names handed to dlopen, in the order tried.
std::vector<std::string> hip_library_names(Os os);
std::vector<std::string> cuda_library_names(Os os);
// The libcurl the GitHub transport loads (the system one on macOS).
std::string libcurl_name(Os os);

// ---- effects ------------------------------------------------------------------------------

// The CPUs this process may run on, as `nproc` counts them: Linux, its affinity mask
// (sched_getaffinity: a container's or `taskset`'s cpuset), else the online CPUs; macOS, the
// active CPUs (hw.activecpu). At least 1.
int usable_cpus();

// For a process that runs for milliseconds and touches a few megabytes (a path gate, a
// verdict): keeps the heap in transparent huge pages where the kernel offers them on request
// (Linux THP in "madvise" or "always" mode), so a fresh page costs one fault per 2 MiB
// instead of one per 4 KiB, on entry and again on exit. glibc's heap is grown at once by
// 32 MiB of address space (not memory: a page is backed when first touched), large blocks
// come from it rather than from mappings of their own, freed memory stays for reuse, and that
// range is advised MADV_HUGEPAGE. The frame calls it first thing (run_tool). Returns whether
// a range was advised: false on a second call, on macOS, with another allocator than glibc's
// (a sanitizer's), or when the kernel refuses the advice (no THP).
bool prefer_huge_pages();

// Makes this process the reaper of its orphaned descendants (Linux: PR_SET_CHILD_SUBREAPER).
// Returns false where the platform has no such thing (macOS): there a descendant that loses
// its parent goes to launchd, and stray_processes() finds only what is still attached below
// this process.
bool become_subreaper();

// In a freshly forked child: have the child killed (SIGKILL) when `parent` dies.
// Linux: PR_SET_PDEATHSIG. macOS: a thread waiting on kqueue's EVFILT_PROC NOTE_EXIT.
// Exits at once when `parent` is already gone.
void die_with_parent(pid_t parent);

struct StrayProcess {
  pid_t pid = 0;
  bool zombie = false;    // exited, not yet reaped
  bool own_child = false; // a direct child (waitpid can reap it)
};

// Processes below this one that end_child_processes() must end. Linux: the direct children
// (/proc), which with become_subreaper() include orphaned descendants. macOS: every
// descendant still linked to this process by parent ids (sysctl KERN_PROC_ALL).
std::vector<StrayProcess> stray_processes();

}  // namespace gatekit::platform
