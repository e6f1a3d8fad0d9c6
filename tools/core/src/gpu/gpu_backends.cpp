// The GPU backend table (gatekit/gpu_backends.hpp): the one place that names a backend.
#include "gatekit/gpu_backends.hpp"

#include <algorithm>
#include <array>

#include "gatekit/gpu.hpp"
#include "gatekit/text.hpp"

namespace gatekit {

namespace {

// HIP's driver version is shown as the runtime gives it (hipDriverGetVersion: a build number).
std::string as_number(int version) { return std::to_string(version); }

constexpr std::array<GpuBackend, 3> kBackends{{
    {
        .name = "hip",
        .discovery = GpuDiscovery::runtime,
        .library_variable = "GATEKIT_HIP_LIBRARY",
        .library_names = &platform::hip_library_names,
        // hipDeviceGetName rather than hipGetDeviceProperties: the properties struct changes
        // layout between ROCm releases.
        .calls = {.init = nullptr,
                  .count = "hipGetDeviceCount",
                  .driver_version = "hipDriverGetVersion",
                  .driver_text = &as_number,
                  .runtime_version = "hipRuntimeGetVersion",
                  .runtime_text = &format_hip_version,
                  .device_get = "hipDeviceGet",
                  .device_name = "hipDeviceGetName"},
        // ROCm's runtime applies ROCR_VISIBLE_DEVICES first; HIP then reads its own variable,
        // else CUDA's, as an index into what is left.
        .visibility = "HIP_VISIBLE_DEVICES",
        .visibility_fallback = "CUDA_VISIBLE_DEVICES",
        .visibility_outer = "ROCR_VISIBLE_DEVICES",
        .reported = "GPU_DEVICE_ORDINAL",
        .passthrough = "a ROCm container needs --device /dev/kfd --device /dev/dri (and the video/render groups)",
        .mlx = false,
    },
    {
        .name = "cuda",
        .discovery = GpuDiscovery::runtime,
        .library_variable = "GATEKIT_CUDA_LIBRARY",
        .library_names = &platform::cuda_library_names,
        // The driver API (libcuda), not the runtime (libcudart): it comes with the driver.
        .calls = {.init = "cuInit",
                  .count = "cuDeviceGetCount",
                  .driver_version = "cuDriverGetVersion",
                  .driver_text = &format_cuda_version,
                  .runtime_version = nullptr,
                  .runtime_text = nullptr,
                  .device_get = "cuDeviceGet",
                  .device_name = "cuDeviceGetName"},
        .visibility = "CUDA_VISIBLE_DEVICES",
        .visibility_fallback = "",
        .visibility_outer = "",
        .reported = "CUDA_DEVICE_ORDER",
        .passthrough = "an NVIDIA container needs the NVIDIA container runtime (--gpus all)",
        .mlx = false,
    },
    {
        .name = "metal",
        .discovery = GpuDiscovery::system_profiler,
        .library_variable = "",
        .library_names = nullptr,
        .calls = {},
        // Metal has no device-visibility variable: a Mac offers its one GPU.
        .visibility = "",
        .visibility_fallback = "",
        .visibility_outer = "",
        .reported = "",
        .passthrough = "",
        .mlx = true,
    },
}};

}  // namespace

std::span<const GpuBackend> gpu_backends() { return kBackends; }

const GpuBackend* find_gpu_backend(std::string_view name) {
  const auto found = std::find_if(kBackends.begin(), kBackends.end(),
                                  [&](const GpuBackend& backend) { return backend.name == name; });
  return found == kBackends.end() ? nullptr : &*found;
}

bool is_recorded_gpu_backend(std::string_view name) {
  return find_gpu_backend(name) != nullptr || name == kGpuOverride || name == kGpuNone;
}

std::string recorded_gpu_backends_text() {
  std::vector<std::string> names;
  for (const auto& backend : kBackends) names.emplace_back(backend.name);
  std::sort(names.begin(), names.end());
  names.emplace_back(kGpuOverride);
  return join(names, ", ") + " or " + std::string(kGpuNone);
}

std::vector<std::string> gpu_visibility_variables() {
  std::vector<std::string> names;
  for (const auto& backend : kBackends) {
    for (const auto name : {backend.visibility_outer, backend.visibility}) {
      if (!name.empty() && std::find(names.begin(), names.end(), name) == names.end()) names.emplace_back(name);
    }
  }
  return names;
}

std::string gpu_passthrough_advice() {
  std::vector<std::string> advice;
  for (const auto& backend : kBackends) {
    if (!backend.passthrough.empty()) advice.emplace_back(backend.passthrough);
  }
  return join(advice, ", ");
}

}  // namespace gatekit
