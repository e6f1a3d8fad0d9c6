// The *_VISIBLE_DEVICES rules (see gpu.hpp) as pure functions.
#include <algorithm>
#include <set>

#include "gatekit/gpu.hpp"
#include "gatekit/text.hpp"

namespace gatekit {

namespace {

bool is_uuid(std::string_view entry) {
  return entry.starts_with("GPU-") || entry.starts_with("MIG-");
}

bool is_index(std::string_view entry) {
  return !entry.empty() && entry.size() <= 6 &&
         std::all_of(entry.begin(), entry.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Entries up to the first one that is invalid whatever the device count: not an index or a
// UUID, or repeated. `limit` >= 0 also ends the list at the first index >= limit.
std::vector<std::string> parse_entries(const std::string& value, int limit) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  std::size_t start = 0;
  while (start <= value.size()) {
    auto end = value.find(',', start);
    if (end == std::string::npos) end = value.size();
    const std::string entry = trim(std::string_view(value).substr(start, end - start));
    if (is_index(entry)) {
      if (limit >= 0 && std::stoi(entry) >= limit) break;
      // "01" and "1" name the same device.
      if (!seen.insert(std::to_string(std::stoi(entry))).second) break;
    } else if (is_uuid(entry)) {
      if (!seen.insert(entry).second) break;
    } else {
      break;
    }
    out.push_back(entry);
    start = end + 1;
  }
  return out;
}

std::vector<std::string> all_indices(int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.push_back(std::to_string(i));
  return out;
}

// This process's devices as a child must name them through one variable: the entries of
// `value` (or plain indices when unset), the first `visible` of them.
std::vector<std::string> base_list(const std::optional<std::string>& value, int visible) {
  if (!value) return all_indices(visible);
  auto entries = parse_entries(*value, -1);
  if (entries.size() > static_cast<std::size_t>(std::max(visible, 0)))
    entries.resize(static_cast<std::size_t>(std::max(visible, 0)));
  return entries;
}

// The value a backend's runtime reads for its devices: its variable, else its fallback.
std::optional<std::string> visibility_value(const GpuBackend& backend, const Environment& env) {
  auto value = env.get(backend.visibility);
  if (!value && !backend.visibility_fallback.empty()) value = env.get(backend.visibility_fallback);
  return value;
}

bool set_in(std::string_view name, const Environment& env) { return !name.empty() && env.get(name); }

// Devices a process of `backend` sees among `physical`: the outer variable first, then the
// backend's own value indexing into what is left.
int visible_through(const GpuBackend& backend, int physical, const Environment& env) {
  int available = physical;
  if (!backend.visibility_outer.empty())
    available = static_cast<int>(visible_entries(env.get(backend.visibility_outer), available).size());
  return static_cast<int>(visible_entries(visibility_value(backend, env), available).size());
}

std::string compose(const std::vector<std::string>& base, const std::vector<int>& assigned) {
  std::vector<std::string> picked;
  for (int position : assigned) {
    if (position >= 0 && static_cast<std::size_t>(position) < base.size())
      picked.push_back(base[static_cast<std::size_t>(position)]);
  }
  return join(picked, ",");
}

}  // namespace

std::vector<std::string> visible_entries(const std::optional<std::string>& value, int available) {
  if (available <= 0) return {};
  if (!value) return all_indices(available);
  auto entries = parse_entries(*value, available);
  if (entries.size() > static_cast<std::size_t>(available))
    entries.resize(static_cast<std::size_t>(available));
  return entries;
}

int visible_gpu_count(int physical, const Environment& env) {
  for (const auto& backend : gpu_backends()) {
    if (set_in(backend.visibility, env) || set_in(backend.visibility_outer, env))
      return visible_through(backend, physical, env);
  }
  return static_cast<int>(visible_entries(std::nullopt, physical).size());
}

std::map<std::string, std::string> child_visibility_env(const Environment& env, int visible,
                                                        const std::vector<int>& assigned) {
  std::map<std::string, std::string> out;
  for (const auto& backend : gpu_backends()) {
    if (!backend.visibility.empty())
      out[std::string(backend.visibility)] = compose(base_list(visibility_value(backend, env), visible), assigned);
  }
  return out;
}

std::map<std::string, std::string> visibility_variables(const Environment& env) {
  std::map<std::string, std::string> out;
  for (const auto& backend : gpu_backends()) {
    for (const auto name : {backend.visibility_outer, backend.visibility, backend.reported}) {
      if (name.empty()) continue;
      if (auto v = env.get(name)) out[std::string(name)] = *v;
    }
  }
  return out;
}

GpuInventory override_inventory(int physical, const Environment& env) {
  GpuInventory inv;
  inv.backend = std::string(kGpuOverride);
  inv.count = visible_gpu_count(physical, env);
  for (int i = 0; i < inv.count; ++i) inv.devices.push_back({i, "GPU " + std::to_string(i)});
  inv.visibility = visibility_variables(env);
  return inv;
}

std::string format_cuda_version(int version) {
  if (version <= 0) return {};
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

std::string format_hip_version(int version) {
  if (version <= 0) return {};
  return std::to_string(version / 10'000'000) + "." + std::to_string((version / 100'000) % 100) +
         "." + std::to_string(version % 100'000);
}

std::string GpuInventory::describe() const {
  std::string text = std::to_string(count) + (count == 1 ? " GPU" : " GPUs");
  std::vector<std::string> details;
  if (backend == kGpuOverride) {
    details.push_back("--gpus override");
  } else if (backend != kGpuNone && !backend.empty()) {
    std::string d = backend;
    // Group identical names: "NVIDIA H100 x2".
    std::vector<std::pair<std::string, int>> names;
    for (const auto& dev : devices) {
      auto it = std::find_if(names.begin(), names.end(), [&](auto& p) { return p.first == dev.name; });
      if (it == names.end()) names.emplace_back(dev.name, 1);
      else ++it->second;
    }
    std::vector<std::string> parts;
    for (const auto& [name, n] : names) parts.push_back(n > 1 ? name + " x" + std::to_string(n) : name);
    if (!parts.empty()) d += ": " + join(parts, ", ");
    details.push_back(d);
    if (!driver_version.empty()) details.push_back("driver " + driver_version);
    if (!runtime_version.empty()) details.push_back("runtime " + runtime_version);
  }
  if (count == 0) {
    // Why nothing was found, per runtime: the first thing to read on a misconfigured runner.
    for (const auto& p : probes) {
      if (!p.loaded) details.push_back(p.backend + ": " + (p.error == "disabled" ? "disabled" : "not loaded (" + p.error + ")"));
      else if (!p.error.empty()) details.push_back(p.backend + ": " + p.error);
      else details.push_back(p.backend + ": " + p.library + " sees no device");
    }
  }
  for (const auto& [name, value] : visibility) details.push_back(name + "=" + value);
  if (!details.empty()) text += " (" + join(details, ", ") + ")";
  return text;
}

void FakeGpuProbe::set_devices(std::vector<std::string> names) {
  GpuInventory inventory;
  inventory.count = static_cast<int>(names.size());
  inventory.backend = std::string(names.empty() ? kGpuNone : kGpuFake);
  inventory.driver_version = names.empty() ? "" : "fake";
  for (std::size_t i = 0; i < names.size(); ++i) inventory.devices.push_back({static_cast<int>(i), std::move(names[i])});
  answer = std::move(inventory);
}

Result<GpuInventory> FakeGpuProbe::detect(const Environment& env) {
  ++calls;
  if (!answer) return answer.error();
  GpuInventory inventory = *answer;
  inventory.visibility = visibility_variables(env);
  return inventory;
}

}  // namespace gatekit
