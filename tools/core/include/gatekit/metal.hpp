#pragma once
// Metal device facts on macOS, and MLX's own device facts (docs/guides/gpu-gate-on-a-mac.md).
//
// The facts come from one supported command, run through the process seam:
//   /usr/sbin/system_profiler -json -detailLevel mini SPDisplaysDataType SPHardwareDataType SPSoftwareDataType
// (`mini` leaves out serial numbers, user and host names). Its JSON is decoded by a pure
// function that treats it as hostile: bounded size and counts, every field read checked for
// its type, length and characters, and an error naming the field that is wrong.
//
// system_profiler spelled Metal support three ways over the years; all are read:
//   spdisplays_mtlgpufamilysupport "spdisplays_metal3"           (macOS 13 and later)
//   spdisplays_metalfamily "spdisplays_mtlgpufamilymac2"         (macOS 11 and 12)
//   spdisplays_metal "spdisplays_supported" / "spdisplays_metalfeaturesetfamily..." (10.14, 10.15)
// A device without any of them has no Metal support (a virtual machine's display adapter).
// The macOS version is SPSoftwareDataType's os_version: "macOS 15.3 (24D60)", and with a Rapid
// Security Response installed "macOS 13.3.1 (a) (22E772610a)".
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gatekit/environment.hpp"
#include "gatekit/gpu.hpp"
#include "gatekit/platform.hpp"
#include "gatekit/process.hpp"
#include "gatekit/result.hpp"

namespace gatekit {

struct MetalDevice {
  std::string name;          // "Apple M1 Max", "AMD Radeon Pro 5500M" (sppci_model, else _name)
  std::string vendor;        // "Apple", "Intel", "AMD", "NVIDIA" or as given (spdisplays_vendor,
                             // else the PCI id spdisplays_vendor-id: "0x15ad" for VMware's display)
  bool metal = false;        // Metal is supported
  std::string metal_family;  // "Metal 3", "Mac 2", "" when supported but not named
  std::optional<int> cores;  // GPU cores (Apple silicon reports them)
  bool unified_memory = false;  // Apple silicon: the GPU shares the machine's memory
  std::string vram;          // "4 GB", "1536 MB" (discrete or shared VRAM; "" on Apple silicon)
};

struct MetalFacts {
  std::vector<MetalDevice> devices;  // in system_profiler's order
  std::string macos_version;         // "11.4" ("" when SPSoftwareDataType is absent)
  std::string macos_version_extra;   // "(a)": a Rapid Security Response is installed; "" when none
  std::string macos_build;           // "20F71", "22E772610a"
  std::string chip;                  // "Apple M1 Max" (chip_type) or "8-Core Intel Core i9" (cpu_type)
  std::string machine_model;         // "MacBookPro16,1"
  std::string memory;                // "16 GB" (physical_memory)

  int metal_device_count() const;
  const MetalDevice* first_metal_device() const;  // nullptr when none
};

// The longest system_profiler output decoded, the most devices, the longest value kept.
inline constexpr std::size_t kMaxMetalReportBytes = 4u << 20;
inline constexpr std::size_t kMaxMetalDevices = 16;
inline constexpr std::size_t kMaxMetalValueBytes = 200;

// Pure. `source` names the text in errors ("system_profiler", a file name). Every error is
// could_not_evaluate: the text is the machine's, not the user's. The error names the field:
// "system_profiler: SPDisplaysDataType[0].sppci_cores: not a count: \"x\"".
Result<MetalFacts> decode_metal_facts(std::string_view json, std::string_view source);

// The argv that decode_metal_facts' input comes from.
std::vector<std::string> metal_facts_command();

// Runs metal_facts_command() through `processes` (bounded by `timeout`) and decodes it.
Result<MetalFacts> read_metal_facts(ProcessRunner& processes,
                                    std::chrono::milliseconds timeout = std::chrono::seconds(60));

// Pure: the inventory a Mac offers the runners. One GPU when a Metal device is present (the
// first one; Metal has no device-visibility variables), else none; the backend is the table's
// system_profiler one (gpu_backends.hpp: metal); the driver version is the macOS version
// ("macOS 11.4 (20F71)"), the runtime the Metal family.
GpuInventory metal_inventory(const MetalFacts& facts);

// The GPU inventory of a host running `os`: on macOS the Metal facts (read_metal_facts, one
// system_profiler run through `processes`) made an inventory (metal_inventory); elsewhere the
// HIP and CUDA runtimes (detect_gpus). The one call a GPU probe seam plugs in; `os` is a
// parameter so both branches are tested on any host.
Result<GpuInventory> detect_host_gpus(platform::Os os, const Environment& env, ProcessRunner& processes);

// ---- MLX --------------------------------------------------------------------------------

// MLX's own view of the device: mx.device_info() (mx.metal.device_info() before MLX 0.29),
// plus "mlx_version". Values are kept as text, keys sorted.
struct MlxFacts {
  std::map<std::string, std::string> info;  // "architecture" -> "applegpu_g13s", "memory_size" -> "68719476736"
};

inline constexpr std::size_t kMaxMlxReportBytes = 64 * 1024;
inline constexpr std::size_t kMaxMlxKeys = 64;

// Pure. The output of mlx_facts_script(): "null" (MLX is not installed: nullopt) or one JSON
// object whose values are strings, numbers or booleans. Anything else is could_not_evaluate,
// naming the key.
Result<std::optional<MlxFacts>> decode_mlx_facts(std::string_view json, std::string_view source);

// The Python program the test interpreter runs (`python -I -c SCRIPT`).
std::string_view mlx_facts_script();

// Runs `python -I -c mlx_facts_script()` through `processes`. MLX absent -> nullopt (not an
// error); the interpreter failing otherwise, or answering nonsense, is could_not_evaluate.
Result<std::optional<MlxFacts>> read_mlx_facts(ProcessRunner& processes, const std::string& python,
                                               std::chrono::milliseconds timeout = std::chrono::seconds(60));

}  // namespace gatekit
