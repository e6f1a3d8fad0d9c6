// Names that differ per platform (platform.hpp): pure tables, compiled on every platform.
#include "gatekit/platform.hpp"

namespace gatekit::platform {

std::vector<std::string> hip_library_names(Os os) {
  if (os == Os::macos) return {"libamdhip64.dylib"};
  return {"libamdhip64.so", "libamdhip64.so.7", "libamdhip64.so.6", "libamdhip64.so.5", "/opt/rocm/lib/libamdhip64.so"};
}

std::vector<std::string> cuda_library_names(Os os) {
  // The last CUDA for macOS (10.2) installed its driver library under /usr/local/cuda/lib.
  if (os == Os::macos) return {"libcuda.dylib", "/usr/local/cuda/lib/libcuda.dylib"};
  return {"libcuda.so.1", "libcuda.so"};
}

std::string libcurl_name(Os os) {
  // macOS ships libcurl in the system (the dyld shared cache answers this path).
  if (os == Os::macos) return "/usr/lib/libcurl.4.dylib";
  return "libcurl.so.4";
}

}  // namespace gatekit::platform
