#pragma once
// The property both the libFuzzer target (fuzz/metal_facts.cpp) and the deterministic CTest
// (tests/core/test_metal_facts_fuzz.cpp) check for the Metal and MLX device-fact decoders
// (gatekit/metal.hpp), whose input is a child process's output:
// - a refusal is could_not_evaluate and starts with the source name and ": ", so it says
//   where the bad value is;
// - an accepted report holds at most kMaxMetalDevices devices, each with a name, and every
//   kept value is at most kMaxMetalValueBytes of text without control characters;
// - the inventory counts one GPU exactly when some device supports Metal, and names it;
// - MLX facts hold at most kMaxMlxKeys non-empty keys of clean text.
// The first byte chooses the decoder: even -> system_profiler, odd -> MLX.
#include <string>
#include <string_view>

#include "entry.hpp"
#include "gatekit/metal.hpp"

namespace gatekit::fuzzing {

inline bool clean_metal_text(std::string_view text) {
  if (text.size() > kMaxMetalValueBytes) return false;
  for (unsigned char c : text) {
    if (c < 0x20 || c == 0x7f) return false;
  }
  return true;
}

inline std::string refusal_violation(const Error& error, std::string_view source) {
  if (error.kind != ErrorKind::could_not_evaluate) return "a refusal that is not could_not_evaluate: " + error.message;
  if (error.message.rfind(std::string(source) + ": ", 0) != 0)
    return "a refusal not naming its source: " + error.message;
  return "";
}

inline std::string metal_facts_violation(std::string_view text) {
  auto facts = decode_metal_facts(text, "sp");
  if (!facts) return refusal_violation(facts.error(), "sp");
  if (facts->devices.size() > kMaxMetalDevices) return "more devices than the bound";
  for (const auto& d : facts->devices) {
    if (d.name.empty()) return "a device without a name";
    for (const auto* value : {&d.name, &d.vendor, &d.metal_family, &d.vram}) {
      if (!clean_metal_text(*value)) return "an unclean device value: " + *value;
    }
    if (d.cores && *d.cores < 1) return "a core count below 1";
    if (!d.metal && !d.metal_family.empty()) return "a Metal family on a device without Metal";
  }
  for (const auto* value : {&facts->chip, &facts->machine_model, &facts->memory, &facts->macos_version,
                             &facts->macos_version_extra, &facts->macos_build}) {
    if (!clean_metal_text(*value)) return "an unclean machine value: " + *value;
  }
  const auto inventory = metal_inventory(*facts);
  const bool any_metal = facts->metal_device_count() > 0;
  if (inventory.count != (any_metal ? 1 : 0)) return "the inventory does not count one GPU exactly when Metal is present";
  if (inventory.devices.size() != static_cast<std::size_t>(inventory.count)) return "inventory devices and count differ";
  if (any_metal && inventory.devices[0].name.rfind(facts->first_metal_device()->name, 0) != 0)
    return "the inventory names another device";
  return "";
}

inline std::string mlx_facts_violation(std::string_view text) {
  auto facts = decode_mlx_facts(text, "mlx");
  if (!facts) return refusal_violation(facts.error(), "mlx");
  if (!*facts) return "";
  if ((*facts)->info.size() > kMaxMlxKeys) return "more keys than the bound";
  for (const auto& [key, value] : (*facts)->info) {
    if (key.empty()) return "an empty key";
    if (!clean_metal_text(key) || !clean_metal_text(value)) return "an unclean MLX value: " + key;
  }
  return "";
}

inline std::string metal_property_violation(std::string_view input) {
  const auto text = after_selector(input);
  return selector(input) % 2 == 0 ? metal_facts_violation(text) : mlx_facts_violation(text);
}

}  // namespace gatekit::fuzzing
