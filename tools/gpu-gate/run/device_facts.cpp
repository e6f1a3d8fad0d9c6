#include "run/device_facts.hpp"

#include <algorithm>
#include <filesystem>

#include "gatekit/gpu_backends.hpp"
#include "gatekit/platform.hpp"
#include "gatekit/text.hpp"
#include "gatekit/workflow.hpp"

namespace gatekit::gpu_gate {

namespace {

// "MLX 0.29.1 applegpu_g13s" from MLX's facts; "MLX" when it gave neither.
std::string mlx_summary(const MlxFacts& mlx) {
  std::string text = "MLX";
  for (const char* key : {"mlx_version", "architecture"}) {
    if (auto it = mlx.info.find(key); it != mlx.info.end() && !it->second.empty()) text += " " + it->second;
  }
  return text;
}

}  // namespace

DeviceFacts device_facts_of(const GpuInventory& inventory, const std::optional<MlxFacts>& mlx) {
  DeviceFacts facts;
  facts.backend = is_recorded_gpu_backend(inventory.backend) ? inventory.backend : std::string(kGpuNone);
  facts.count = std::clamp(inventory.count, 0, 1024);
  for (const auto& device : inventory.devices) {
    if (facts.gpus.size() >= 64 || facts.gpus.size() >= static_cast<std::size_t>(facts.count)) break;
    auto name = clean_fact(device.name);
    facts.gpus.push_back(name.empty() ? "unnamed" : name);
  }
  facts.driver_version = clean_fact(inventory.driver_version, 64);
  std::string runtime = inventory.runtime_version;
  if (mlx) runtime += (runtime.empty() ? "" : "; ") + mlx_summary(*mlx);
  facts.runtime_version = clean_fact(runtime, 64);
  std::vector<std::string> visible;
  for (const auto& [name, value] : inventory.visibility) visible.push_back(name + "=" + value);
  facts.visible_devices = clean_fact(join(visible, ";"));
  return facts;
}

std::optional<std::string> test_interpreter(const Config& config) {
  if (config.command.empty()) return std::nullopt;
  const std::string name = std::filesystem::path(config.command.front()).filename().string();
  if (name.rfind("python", 0) != 0) return std::nullopt;
  return config.command.front();
}

std::optional<MlxFacts> mlx_facts_for(const GpuInventory& inventory, const Config& config, Context& context) {
  const GpuBackend* backend = find_gpu_backend(inventory.backend);
  if (backend == nullptr || !backend->mlx) return std::nullopt;
  const auto python = test_interpreter(config);
  if (!python) {
    context.workflow.log("MLX device facts: not asked (the test command does not start with a python)");
    return std::nullopt;
  }
  auto facts = read_mlx_facts(context.processes, *python);
  if (!facts) {
    context.workflow.log("MLX device facts left out: " + facts.error().message);
    return std::nullopt;
  }
  if (!*facts) {
    context.workflow.log("MLX device facts: MLX is not installed for " + *python);
    return std::nullopt;
  }
  std::vector<std::string> items;
  for (const auto& [key, value] : (*facts)->info) items.push_back(key + "=" + value);
  context.workflow.log("MLX device facts: " + join(items, ", "));
  return *facts;
}

DeviceFacts probe_device_facts(Context& context, const Config& config, bool allow_no_gpu) {
  auto inventory = context.gpus.detect(context.env);
  if (!inventory) fail_could_not_evaluate("GPU discovery failed: " + inventory.error().message);
  context.workflow.log("devices: " + inventory->describe());
  if (inventory->count == 0 && !allow_no_gpu)
    fail_could_not_evaluate("no GPU is visible (" + inventory->describe() +
                            "): a gate result must come from a GPU machine (--allow-no-gpu records one that stays local)");
  return device_facts_of(*inventory, mlx_facts_for(*inventory, config, context));
}

}  // namespace gatekit::gpu_gate
