// The platform part of the core (platform.hpp): the pure name tables of both platforms,
// tested on any host, and the GPU probe's use of them.
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#if defined(__linux__)
#include <sched.h>
#include <unistd.h>
#endif

#include "catch.hpp"
#include "gatekit/environment.hpp"
#include "gatekit/gpu.hpp"
#include "gatekit/platform.hpp"

using namespace gatekit;
using platform::Os;

TEST_CASE("platform: GPU runtime library names per platform") {
  CHECK(platform::hip_library_names(Os::gnu_linux) ==
        std::vector<std::string>{"libamdhip64.so", "libamdhip64.so.7", "libamdhip64.so.6", "libamdhip64.so.5",
                                 "/opt/rocm/lib/libamdhip64.so"});
  CHECK(platform::cuda_library_names(Os::gnu_linux) == std::vector<std::string>{"libcuda.so.1", "libcuda.so"});
  CHECK(platform::hip_library_names(Os::macos) == std::vector<std::string>{"libamdhip64.dylib"});
  CHECK(platform::cuda_library_names(Os::macos) ==
        std::vector<std::string>{"libcuda.dylib", "/usr/local/cuda/lib/libcuda.dylib"});
  for (const auto os : {Os::gnu_linux, Os::macos}) {
    const std::string suffix = os == Os::macos ? ".dylib" : ".so";
    for (const auto& name : platform::hip_library_names(os)) CHECK(name.find(suffix) != std::string::npos);
    for (const auto& name : platform::cuda_library_names(os)) CHECK(name.find(suffix) != std::string::npos);
  }
}

TEST_CASE("platform: libcurl per platform") {
  CHECK(platform::libcurl_name(Os::gnu_linux) == "libcurl.so.4");
  CHECK(platform::libcurl_name(Os::macos) == "/usr/lib/libcurl.4.dylib");
}

TEST_CASE("platform: the GPU probe's defaults are the host's names, overridable") {
  const GpuBackend& hip = *find_gpu_backend("hip");
  const GpuBackend& cuda = *find_gpu_backend("cuda");
  const MapEnvironment none;
  CHECK(library_candidates(hip, none) == platform::hip_library_names(platform::host_os()));
  CHECK(library_candidates(cuda, none) == platform::cuda_library_names(platform::host_os()));
  const MapEnvironment set{{"GATEKIT_CUDA_LIBRARY", "/x/libcuda.dylib"}, {"GATEKIT_HIP_LIBRARY", "none"}};
  CHECK(library_candidates(cuda, set) == std::vector<std::string>{"/x/libcuda.dylib"});
  CHECK(library_candidates(hip, set).empty());
}

#if defined(__linux__)
// The CPUs a process may use are its affinity mask's (a container's or taskset's cpuset), not
// the machine's: narrowed to one CPU, the environment seam says 1 (gpu-gate's default workers).
TEST_CASE("platform: the usable CPUs are the affinity mask's, as the environment seam counts them (Linux)") {
  cpu_set_t saved;
  CPU_ZERO(&saved);
  REQUIRE(::sched_getaffinity(0, sizeof saved, &saved) == 0);
  CHECK(platform::usable_cpus() == CPU_COUNT(&saved));
  CHECK(SystemEnvironment().cpu_count() == CPU_COUNT(&saved));
  int first = 0;
  while (!CPU_ISSET(first, &saved)) ++first;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(first, &one);
  REQUIRE(::sched_setaffinity(0, sizeof one, &one) == 0);
  const int narrowed = platform::usable_cpus();
  const int seam = SystemEnvironment().cpu_count();
  REQUIRE(::sched_setaffinity(0, sizeof saved, &saved) == 0);
  CHECK(narrowed == 1);
  CHECK(seam == 1);
}
#else
TEST_CASE("platform: the usable CPUs are at least one (macOS: hw.activecpu)") {
  CHECK(platform::usable_cpus() >= 1);
  CHECK(SystemEnvironment().cpu_count() == platform::usable_cpus());
}
#endif

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GATEKIT_TEST_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define GATEKIT_TEST_SANITIZED 1
#endif

#if defined(__linux__) && defined(__GLIBC__) && !defined(GATEKIT_TEST_SANITIZED)
namespace {
// The address ranges of /proc/self/smaps named `name` whose VmFlags hold `flag`.
std::vector<std::pair<std::uintptr_t, std::uintptr_t>> ranges_flagged(const std::string& name,
                                                                       const std::string& flag) {
  std::ifstream smaps("/proc/self/smaps");
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> found;
  std::uintptr_t from = 0, to = 0;
  bool named = false;
  for (std::string line; std::getline(smaps, line);) {
    const auto dash = line.find('-');
    const auto space = line.find(' ');
    if (dash != std::string::npos && space != std::string::npos && dash < space &&
        line.find_first_not_of("0123456789abcdef") == dash) {  // "from-to perms offset dev inode name"
      from = std::stoull(line.substr(0, dash), nullptr, 16);
      to = std::stoull(line.substr(dash + 1, space - dash - 1), nullptr, 16);
      named = line.size() >= name.size() && line.compare(line.size() - name.size(), name.size(), name) == 0;
    } else if (named && line.rfind("VmFlags:", 0) == 0 && (line + " ").find(" " + flag + " ") != std::string::npos) {
      found.emplace_back(from, to);
    }
  }
  return found;
}
}  // namespace

TEST_CASE("platform: the heap in huge pages (Linux, glibc)") {
  std::ifstream mode("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string modes;
  std::getline(mode, modes);
  if (modes.empty() || modes.find("[never]") != std::string::npos) {
    WARN("this kernel offers no transparent huge pages (" << modes << "): nothing to check");
    return;
  }
  // The first call in this process advises (a tool's frame makes it; a test may have too).
  platform::prefer_huge_pages();
  CHECK_FALSE(platform::prefer_huge_pages());  // once
  // A range of the heap, 2 MiB aligned and at least 30 MiB long, is advised (VmFlags "hg"),
  // and a block of a megabyte comes from the heap (below the program break), not from a
  // mapping of its own far above it.
  const auto advised = ranges_flagged("[heap]", "hg");
  REQUIRE(advised.size() == 1);
  CHECK(advised[0].first % (std::uintptr_t{2} << 20) == 0);
  CHECK(advised[0].second - advised[0].first >= (std::uintptr_t{30} << 20));
  void* block = std::malloc(std::size_t{1} << 20);
  const auto at = reinterpret_cast<std::uintptr_t>(block);
  const auto brk = reinterpret_cast<std::uintptr_t>(::sbrk(0));
  std::free(block);
  CHECK(at < brk);
}
#else
TEST_CASE("platform: no huge-page advice off glibc's allocator") {
  // macOS's allocator, or a sanitizer's: the heap is not glibc's to pad and advise.
  CHECK_FALSE(platform::prefer_huge_pages());
}
#endif
