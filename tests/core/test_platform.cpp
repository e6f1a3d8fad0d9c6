// The platform part of the core (platform.hpp): the pure name tables of both platforms,
// tested on any host, and the GPU probe's use of them.
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
  const MapEnvironment none;
  CHECK(hip_library_candidates(none) == platform::hip_library_names(platform::host_os()));
  CHECK(cuda_library_candidates(none) == platform::cuda_library_names(platform::host_os()));
  const MapEnvironment set{{"GATEKIT_CUDA_LIBRARY", "/x/libcuda.dylib"}, {"GATEKIT_HIP_LIBRARY", "none"}};
  CHECK(cuda_library_candidates(set) == std::vector<std::string>{"/x/libcuda.dylib"});
  CHECK(hip_library_candidates(set).empty());
}
