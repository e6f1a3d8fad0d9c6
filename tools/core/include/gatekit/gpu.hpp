#pragma once
// GPU discovery and device visibility, over the backend table (gatekit/gpu_backends.hpp).
//
// Counting: each runtime backend's library (the HIP runtime: hipGetDeviceCount; the CUDA
// driver: cuInit + cuDeviceGetCount) is loaded with dlopen at run time, so gatekit builds and
// runs without any; NVML / nvidia-smi / rocm-smi are never used because they ignore the
// *_VISIBLE_DEVICES variables. The runtimes apply those variables themselves; the pure
// functions below implement the same documented rules for the paths where gatekit must
// compute them itself: an explicit GPU count (--gpus N) and the device sets handed to
// child processes.
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gatekit/environment.hpp"
#include "gatekit/gpu_backends.hpp"
#include "gatekit/result.hpp"

namespace gatekit {

class ProcessRunner;

// ---- visibility rules (pure) -------------------------------------------------------------

// One *_VISIBLE_DEVICES value applied to `available` devices, the CUDA way:
//   unset (nullopt)  -> every device, as indices "0".."available-1";
//   ""               -> none;
//   otherwise comma-separated entries, whitespace around each ignored, taken in order up to
//   the first invalid one: an integer index is valid when 0 <= i < available and not
//   repeated; a UUID entry ("GPU-...", "MIG-...") is taken as valid (only the runtime can
//   check it); anything else (e.g. "-1", "x", an empty entry) ends the list there.
// The result holds the accepted entries, spelled as in the value, at most `available`.
std::vector<std::string> visible_entries(const std::optional<std::string>& value, int available);

// Devices a process sees when `physical` GPUs are installed, given the environment: the
// first backend (table order) whose visibility or outer variable is set decides: its outer
// variable first, then its own (else its fallback) indexing into what is left. So the ROCm
// chain when ROCR_VISIBLE_DEVICES or HIP_VISIBLE_DEVICES is set (ROCR first, then
// HIP_VISIBLE_DEVICES, else CUDA_VISIBLE_DEVICES), else the CUDA rule on
// CUDA_VISIBLE_DEVICES; every device when none is set.
int visible_gpu_count(int physical, const Environment& env);

// The environment a child process needs to see exactly `assigned` (positions 0..visible-1
// among the devices this process sees). Each variable is composed with this process's own
// value, so a runner started with CUDA_VISIBLE_DEVICES=4,5,6,7 hands "6" (not "2") to a child
// assigned position 2. Sets every backend's visibility variable, each composed from its own
// value, else its fallback's, as the runtime reads them (HIP_VISIBLE_DEVICES from
// HIP_VISIBLE_DEVICES, else CUDA_VISIBLE_DEVICES); an outer variable (ROCR_VISIBLE_DEVICES)
// is inherited untouched because the runtime indexes into what it leaves.
std::map<std::string, std::string> child_visibility_env(const Environment& env, int visible,
                                                        const std::vector<int>& assigned);

// The visibility variables as set in `env` (for reports): name -> value, set ones only; each
// backend's outer, own and reported variable.
std::map<std::string, std::string> visibility_variables(const Environment& env);

// ---- discovery (dlopen) ------------------------------------------------------------------

struct GpuDevice {
  int index = 0;     // position among the visible devices
  std::string name;  // e.g. "AMD Instinct MI300X", "NVIDIA H100 80GB HBM3"
};

struct GpuBackendProbe {
  std::string backend;  // the backend's name (gpu_backends.hpp)
  std::string library;  // the file dlopen was given
  bool loaded = false;
  int count = 0;
  std::vector<GpuDevice> devices;
  std::string driver_version;   // as the backend's driver_text shows it ("12.4")
  std::string runtime_version;  // as its runtime_text shows it ("6.2.41133"); empty when not asked
  std::string error;            // why it was not loaded or why counting failed
};

struct GpuInventory {
  int count = 0;
  std::string backend;  // a backend's name, kGpuOverride (--gpus N) or kGpuNone (gpu_backends.hpp)
  std::vector<GpuDevice> devices;
  std::string driver_version;
  std::string runtime_version;
  std::map<std::string, std::string> visibility;  // variables in effect
  std::vector<GpuBackendProbe> probes;             // every backend tried
  // One line for logs: "2 GPUs (cuda: NVIDIA H100 x2, driver 12.4)".
  std::string describe() const;
};

// The libraries tried for a runtime backend, in order: its library_variable
// (GATEKIT_HIP_LIBRARY, GATEKIT_CUDA_LIBRARY) replaces the default names (a path, for tests
// with a stub library, or an unusual install); the value "none" disables that backend.
std::vector<std::string> library_candidates(const GpuBackend& backend, const Environment& env);

// Probes every runtime backend in a child process (fork) bounded by `timeout`, so a wedged
// driver cannot hang the caller and the runtimes are never initialised in the caller. The
// backend that sees more devices wins (on a tie, the first in table order: HIP). An Error only
// when probing itself failed (fork, timeout, crash); "no runtime found" is an inventory of 0.
// The probe leads its own process group. A termination signal (termination.hpp) ends that
// group with SIGKILL and returns an Error at once; so does the timeout. Either way nothing
// of the probe is left running (short of a process stuck in the kernel, which no signal ends).
Result<GpuInventory> detect_gpus(const Environment& env,
                                 std::chrono::milliseconds timeout = std::chrono::seconds(120));

// Probes one runtime backend in this process through its entry points (backend.calls; used
// by detect_gpus' child, exposed for tests).
GpuBackendProbe probe_runtime(const GpuBackend& backend, const std::vector<std::string>& candidates);

// An inventory for an explicit count: `physical` devices narrowed by the visibility
// variables in `env`.
GpuInventory override_inventory(int physical, const Environment& env);

// ---- the seam (Context::gpus) -------------------------------------------------------------

// The devices this process sees. Tools ask the Context's probe, never detect_gpus directly,
// so a test decides what a machine has.
class GpuProbe {
 public:
  virtual ~GpuProbe() = default;
  virtual Result<GpuInventory> detect(const Environment& env) = 0;
};

// The host's GPUs: detect_gpus (a child process probing the runtime backends) on Linux;
// on macOS one GPU when system_profiler, run through `processes`, names a Metal device
// (detect_host_gpus, gatekit/metal.hpp).
class SystemGpuProbe final : public GpuProbe {
 public:
  explicit SystemGpuProbe(ProcessRunner& processes) : processes_(processes) {}
  Result<GpuInventory> detect(const Environment& env) override;

 private:
  ProcessRunner& processes_;
};

// The given devices (backend kGpuFake), or the given error; counts its calls.
class FakeGpuProbe final : public GpuProbe {
 public:
  FakeGpuProbe() = default;
  explicit FakeGpuProbe(std::vector<std::string> names) { set_devices(std::move(names)); }
  // Devices 0..n-1 with these names, driver "fake".
  void set_devices(std::vector<std::string> names);
  Result<GpuInventory> detect(const Environment& env) override;

  Result<GpuInventory> answer = GpuInventory{0, std::string(kGpuNone)};
  int calls = 0;
};

// "12.4" from 12040 (CUDA), "6.2.41133" from 60241133 (HIP: major*1e7 + minor*1e5 + patch).
std::string format_cuda_version(int version);
std::string format_hip_version(int version);

}  // namespace gatekit
