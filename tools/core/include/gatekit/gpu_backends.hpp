#pragma once
// The GPU backends gatekit knows, in one table (src/gpu/gpu_backends.cpp): a vendor's stack is
// one entry, and no other file names a backend, its runtime's entry points or its variables
// (tests/core/test_gpu_backends.py fails on one that does). An entry says what the backend is
// called (GpuInventory::backend, a gate record's gpu-backend), how its devices are found, which
// environment variables choose the devices a process sees, and the facts that messages and
// reports quote. The default library file names of a runtime live in the platform part
// (platform.hpp), as every name that differs between Linux and macOS does; the entry points at
// them.
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gatekit/platform.hpp"

namespace gatekit {

// How a backend's devices are found (gpu.hpp, metal.hpp).
enum class GpuDiscovery {
  runtime,          // its runtime library, loaded with dlopen in a child process (detect_gpus)
  system_profiler,  // macOS's system_profiler names the device (read_metal_facts)
};

// A runtime's C entry points, each returning 0 on success. The first call that can say "no
// device" (init, else count) answering 100 (the code CUDA and HIP share) means no device;
// any other failure is the probe's error.
struct GpuRuntimeCalls {
  const char* init = nullptr;             // int(unsigned flags), called with 0 first; nullptr: none
  const char* count = nullptr;            // int(int* count)
  const char* driver_version = nullptr;   // int(int* version); nullptr: not asked
  std::string (*driver_text)(int) = nullptr;   // that version as shown ("12.4")
  const char* runtime_version = nullptr;  // int(int* version); nullptr: not asked
  std::string (*runtime_text)(int) = nullptr;
  const char* device_get = nullptr;       // int(int* device, int ordinal); nullptr: the ordinal is the device
  const char* device_name = nullptr;      // int(char* name, int length, int device); nullptr: "GPU N"
};

struct GpuBackend {
  std::string_view name;  // GpuInventory::backend and a gate record's gpu-backend: "cuda"
  GpuDiscovery discovery = GpuDiscovery::runtime;

  // GpuDiscovery::runtime: the library to load and what to call in it.
  std::string_view library_variable;  // a value replaces the default names; "none" skips the backend
  std::vector<std::string> (*library_names)(platform::Os) = nullptr;  // the defaults, tried in order
  GpuRuntimeCalls calls;

  // Device visibility (gpu.hpp, "visibility rules"): the variable that lists the devices a
  // process of this backend sees, the one the runtime reads when that is unset, and one a
  // layer below the runtime applies first (the runtime indexes into what it leaves; a child
  // inherits it untouched). "" where the backend has none (Metal: one device, no variable).
  std::string_view visibility;
  std::string_view visibility_fallback;
  std::string_view visibility_outer;
  std::string_view reported;  // another variable that orders or picks devices: shown in reports

  // Facts.
  std::string_view passthrough;  // what a container needs to see the devices (the no-GPU advice)
  bool mlx = false;              // MLX runs on its devices: gpu-gate records MLX's device facts
};

// Every backend, in the order they are probed: HIP before CUDA (with as many devices each,
// HIP's answer is kept), then Metal.
std::span<const GpuBackend> gpu_backends();

// The entry called `name`; nullptr for any other value (override, none, fake).
const GpuBackend* find_gpu_backend(std::string_view name);

// GpuInventory::backend when no backend's probe counted the devices.
inline constexpr std::string_view kGpuOverride = "override";  // the count came from --gpus N
inline constexpr std::string_view kGpuNone = "none";          // no device found
inline constexpr std::string_view kGpuFake = "fake";          // FakeGpuProbe's devices (tests)

// The values a gate record's gpu-backend takes: every backend's name, override and none.
bool is_recorded_gpu_backend(std::string_view name);
// Those values for an error message, names sorted: "cuda, hip, metal, override or none".
std::string recorded_gpu_backends_text();

// Every variable that picks the devices a process sees, each backend's outer variable before
// its own, in table order: ROCR_VISIBLE_DEVICES, HIP_VISIBLE_DEVICES, CUDA_VISIBLE_DEVICES.
std::vector<std::string> gpu_visibility_variables();

// What containers need to see each backend's devices, in table order, joined with ", ".
std::string gpu_passthrough_advice();

}  // namespace gatekit
