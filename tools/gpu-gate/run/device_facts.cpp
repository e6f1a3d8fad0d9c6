#include "run/device_facts.hpp"

#include <algorithm>

#include "gatekit/text.hpp"

namespace gatekit::gpu_gate {

DeviceFacts device_facts_of(const GpuInventory& inventory) {
  DeviceFacts facts;
  facts.backend = inventory.backend == "cuda" || inventory.backend == "hip" || inventory.backend == "override"
                      ? inventory.backend : "none";
  facts.count = std::clamp(inventory.count, 0, 1024);
  for (const auto& device : inventory.devices) {
    if (facts.gpus.size() >= 64 || facts.gpus.size() >= static_cast<std::size_t>(facts.count)) break;
    auto name = clean_fact(device.name);
    facts.gpus.push_back(name.empty() ? "unnamed" : name);
  }
  facts.driver_version = clean_fact(inventory.driver_version, 64);
  facts.runtime_version = clean_fact(inventory.runtime_version, 64);
  std::vector<std::string> visible;
  for (const auto& [name, value] : inventory.visibility) visible.push_back(name + "=" + value);
  facts.visible_devices = clean_fact(join(visible, ";"));
  return facts;
}

}  // namespace gatekit::gpu_gate
