// Metal and MLX device facts (gatekit/metal.hpp): the decoders are pure; the two read_*
// functions are the only effects, each one process run through the ProcessRunner seam.
#include <algorithm>
#include <cctype>
#include <charconv>

#include "gatekit/git.hpp"  // quote_for_message
#include "gatekit/json.hpp"
#include "gatekit/metal.hpp"
#include "gatekit/text.hpp"
#include "gatekit/utf8.hpp"

namespace gatekit {

namespace {

namespace json = boost::json;

// A value that names nothing must not pass for one: printable text only (no control
// characters), valid UTF-8, at most kMaxMetalValueBytes.
Result<std::string> clean_value(std::string_view text, const std::string& field) {
  if (text.size() > kMaxMetalValueBytes)
    return could_not_evaluate(field + ": longer than " + std::to_string(kMaxMetalValueBytes) + " bytes");
  if (!is_valid_utf8(text)) return could_not_evaluate(field + ": not valid UTF-8");
  for (unsigned char c : text) {
    if (c < 0x20 || c == 0x7f) return could_not_evaluate(field + ": holds a control character");
  }
  return std::string(text);
}

// The string at `key`, if present: must be a string.
Result<std::optional<std::string>> string_field(const json::object& object, std::string_view key,
                                                const std::string& where) {
  const auto* value = json_find(object, key);
  if (value == nullptr) return std::optional<std::string>{};
  const std::string field = where + "." + std::string(key);
  if (!value->is_string()) return could_not_evaluate(field + ": expected a string, got " + json_kind_name(*value));
  auto clean = clean_value(value->get_string(), field);
  if (!clean) return clean.error();
  return std::optional<std::string>{std::move(*clean)};
}

std::string without_prefix(std::string_view text, std::string_view prefix) {
  return std::string(text.substr(text.rfind(prefix, 0) == 0 ? prefix.size() : 0));
}

bool all_digits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
}

// "sppci_vendor_Apple" -> "Apple", "sppci_vendor_amd" -> "AMD"; other spellings kept.
std::string vendor_name(std::string_view raw) {
  std::string name = without_prefix(raw, "sppci_vendor_");
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (lower == "apple") return "Apple";
  if (lower == "amd" || lower == "ati") return "AMD";
  if (lower == "intel") return "Intel";
  if (lower == "nvidia") return "NVIDIA";
  return name;
}

// A device without spdisplays_vendor (a virtual machine's display) names its vendor only by
// PCI id: "0x8086" -> "Intel"; ids of no GPU vendor gatekit knows are kept ("0x15ad", VMware).
std::string vendor_from_pci_id(std::string_view id) {
  static constexpr std::pair<std::string_view, std::string_view> kVendors[] = {
      {"0x106b", "Apple"}, {"0x8086", "Intel"}, {"0x1002", "AMD"}, {"0x10de", "NVIDIA"}};
  for (const auto& [pci_id, name] : kVendors) {
    if (id == pci_id) return std::string(name);
  }
  return std::string(id);
}

// "spdisplays_metal3" -> "Metal 3"; "spdisplays_mtlgpufamilymac2" -> "Mac 2";
// "spdisplays_mtlgpufamilyapple7" -> "Apple 7"; anything else without its prefix.
std::string family_name(std::string_view raw) {
  struct Form {
    std::string_view prefix;
    std::string_view name;
  };
  static constexpr Form kForms[] = {{"spdisplays_metal", "Metal"},
                                    {"spdisplays_mtlgpufamilymac", "Mac"},
                                    {"spdisplays_mtlgpufamilyapple", "Apple"},
                                    {"spdisplays_mtlgpufamilycommon", "Common"}};
  for (const auto& form : kForms) {
    if (raw.rfind(form.prefix, 0) == 0 && all_digits(raw.substr(form.prefix.size())))
      return std::string(form.name) + " " + std::string(raw.substr(form.prefix.size()));
  }
  return without_prefix(raw, "spdisplays_");
}

// Metal support and family from whichever key this macOS wrote.
struct MetalSupport {
  bool metal = false;
  std::string family;
};
Result<MetalSupport> metal_support(const json::object& gpu, const std::string& where) {
  for (std::string_view key : {"spdisplays_mtlgpufamilysupport", "spdisplays_metalfamily"}) {
    auto value = string_field(gpu, key, where);
    if (!value) return value.error();
    if (*value) {
      if (value->value().empty()) return could_not_evaluate(where + "." + std::string(key) + ": empty");
      return MetalSupport{true, family_name(**value)};
    }
  }
  auto old = string_field(gpu, "spdisplays_metal", where);
  if (!old) return old.error();
  if (!*old) return MetalSupport{};
  const std::string& text = **old;
  if (text == "spdisplays_supported") return MetalSupport{true, ""};
  if (text.rfind("spdisplays_metalfeaturesetfamily", 0) == 0)
    return MetalSupport{true, without_prefix(text, "spdisplays_metalfeaturesetfamily")};
  if (text.rfind("Supported", 0) == 0) {  // English text of older releases: "Supported, feature set ..."
    std::string rest = text.substr(9);
    rest.erase(0, rest.find_first_not_of(", "));
    return MetalSupport{true, rest};
  }
  return MetalSupport{};  // "spdisplays_notsupported" and the like
}

Result<std::optional<int>> cores_field(const json::object& gpu, const std::string& where) {
  const auto* value = json_find(gpu, "sppci_cores");
  if (value == nullptr) return std::optional<int>{};
  const std::string field = where + ".sppci_cores";
  std::string text;
  if (value->is_string()) {
    text = std::string(value->get_string());
  } else if (value->is_int64() || value->is_uint64()) {
    text = json::serialize(*value);
  } else {
    return could_not_evaluate(field + ": expected a string, got " + json_kind_name(*value));
  }
  int cores = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), cores);
  if (!all_digits(text) || ec != std::errc{} || end != text.data() + text.size() || cores < 1 || cores > 100000)
    return could_not_evaluate(field + ": not a count: " + quote_for_message(text));
  return std::optional<int>{cores};
}

Result<MetalDevice> decode_device(const json::value& item, const std::string& where) {
  if (!item.is_object()) return could_not_evaluate(where + ": expected an object, got " + json_kind_name(item));
  const auto& gpu = item.get_object();
  MetalDevice device;
  auto model = string_field(gpu, "sppci_model", where);
  if (!model) return model.error();
  auto name = string_field(gpu, "_name", where);
  if (!name) return name.error();
  device.name = model->value_or(name->value_or(""));
  if (device.name.empty()) return could_not_evaluate(where + ": no sppci_model and no _name");
  auto vendor = string_field(gpu, "spdisplays_vendor", where);
  if (!vendor) return vendor.error();
  auto vendor_id = string_field(gpu, "spdisplays_vendor-id", where);
  if (!vendor_id) return vendor_id.error();
  device.vendor = *vendor ? vendor_name(**vendor) : vendor_from_pci_id(vendor_id->value_or(""));
  auto support = metal_support(gpu, where);
  if (!support) return support.error();
  device.metal = support->metal;
  device.metal_family = support->family;
  auto cores = cores_field(gpu, where);
  if (!cores) return cores.error();
  device.cores = *cores;
  for (std::string_view key : {"spdisplays_vram", "spdisplays_vram_shared", "_spdisplays_vram"}) {
    auto vram = string_field(gpu, key, where);
    if (!vram) return vram.error();
    if (*vram && device.vram.empty()) device.vram = **vram;
  }
  device.unified_memory = device.vendor == "Apple";
  return device;
}

// The one object of a data type's array ("SPHardwareDataType" : [ {...} ]); nullptr when absent.
Result<const json::object*> overview(const json::object& root, std::string_view key, const std::string& source) {
  const auto* value = json_find(root, key);
  if (value == nullptr) return static_cast<const json::object*>(nullptr);
  const std::string field = source + ": " + std::string(key);
  if (!value->is_array()) return could_not_evaluate(field + ": expected an array, got " + json_kind_name(*value));
  const auto& array = value->get_array();
  if (array.empty()) return static_cast<const json::object*>(nullptr);
  if (array.size() > 1) return could_not_evaluate(field + ": expected one entry, got " + std::to_string(array.size()));
  if (!array[0].is_object())
    return could_not_evaluate(field + "[0]: expected an object, got " + json_kind_name(array[0]));
  return &array[0].get_object();
}

// "macOS 13.3.1 (a)" -> "macOS 13.3.1" and "(a)", the Rapid Security Response's letter (sw_vers'
// ProductVersionExtra); "macOS 13.3.1" is left as it is. False when the parentheses hold
// anything but one or two lower-case letters.
bool take_version_extra(std::string& head, std::string& extra) {
  if (head.empty() || head.back() != ')') return true;
  const auto open = head.rfind(" (");
  if (open == std::string::npos) return false;
  const std::string letters = head.substr(open + 2, head.size() - open - 3);
  if (letters.empty() || letters.size() > 2 ||
      !std::all_of(letters.begin(), letters.end(), [](unsigned char c) { return c >= 'a' && c <= 'z'; }))
    return false;
  extra = "(" + letters + ")";
  head.erase(open);
  return true;
}

// "macOS 11.4 (20F71)", "macOS 26.0 (25A354)", "Mac OS X 10.13.6 (17G66)" -> version, build.
// With a Rapid Security Response installed: "macOS 13.3.1 (a) (22E772610a)" -> extra "(a)".
Status decode_os_version(const std::string& text, const std::string& field, MetalFacts& facts) {
  auto bad = [&] { return could_not_evaluate(field + ": not \"macOS VERSION (BUILD)\": " + quote_for_message(text)); };
  const auto open = text.rfind(" (");
  if (open == std::string::npos || text.back() != ')') return bad();
  const std::string build = text.substr(open + 2, text.size() - open - 3);
  std::string head = text.substr(0, open);
  std::string extra;
  if (!take_version_extra(head, extra)) return bad();
  const auto space = head.rfind(' ');
  if (space == std::string::npos) return bad();
  const std::string version = head.substr(space + 1);
  const std::string name = head.substr(0, space);
  if (name != "macOS" && name != "OS X" && name != "Mac OS X") return bad();
  const bool version_ok = !version.empty() && all_digits(version.substr(0, 1)) &&
                          std::all_of(version.begin(), version.end(), [](unsigned char c) { return std::isdigit(c) || c == '.'; });
  const bool build_ok = !build.empty() && std::all_of(build.begin(), build.end(), [](unsigned char c) { return std::isalnum(c); });
  if (!version_ok || !build_ok) return bad();
  facts.macos_version = version;
  facts.macos_version_extra = extra;
  facts.macos_build = build;
  return Status{};
}

}  // namespace

int MetalFacts::metal_device_count() const {
  return static_cast<int>(std::count_if(devices.begin(), devices.end(), [](const MetalDevice& d) { return d.metal; }));
}

const MetalDevice* MetalFacts::first_metal_device() const {
  for (const auto& device : devices) {
    if (device.metal) return &device;
  }
  return nullptr;
}

Result<MetalFacts> decode_metal_facts(std::string_view text, std::string_view source_name) {
  const std::string source(source_name);
  if (text.size() > kMaxMetalReportBytes)
    return could_not_evaluate(source + ": output larger than " + std::to_string(kMaxMetalReportBytes) + " bytes");
  boost::system::error_code ec;
  json::parse_options options;
  options.max_depth = 16;
  const json::value root = json::parse(text, ec, {}, options);
  if (ec) return could_not_evaluate(source + ": not JSON: " + ec.message());
  if (!root.is_object()) return could_not_evaluate(source + ": expected a JSON object, got " + json_kind_name(root));
  const auto& object = root.get_object();

  MetalFacts facts;
  const auto* displays = json_find(object, "SPDisplaysDataType");
  if (displays == nullptr) return could_not_evaluate(source + ": SPDisplaysDataType: missing");
  if (!displays->is_array())
    return could_not_evaluate(source + ": SPDisplaysDataType: expected an array, got " + json_kind_name(*displays));
  const auto& items = displays->get_array();
  if (items.size() > kMaxMetalDevices)
    return could_not_evaluate(source + ": SPDisplaysDataType: more than " + std::to_string(kMaxMetalDevices) + " devices");
  for (std::size_t i = 0; i < items.size(); ++i) {
    auto device = decode_device(items[i], source + ": SPDisplaysDataType[" + std::to_string(i) + "]");
    if (!device) return device.error();
    facts.devices.push_back(std::move(*device));
  }

  auto hardware = overview(object, "SPHardwareDataType", source);
  if (!hardware) return hardware.error();
  if (*hardware != nullptr) {
    const std::string where = source + ": SPHardwareDataType[0]";
    for (auto [key, target] : {std::pair<std::string_view, std::string*>{"chip_type", &facts.chip},
                               {"cpu_type", &facts.chip},
                               {"machine_model", &facts.machine_model},
                               {"physical_memory", &facts.memory}}) {
      auto value = string_field(**hardware, key, where);
      if (!value) return value.error();
      if (*value && target->empty()) *target = **value;
    }
  }
  auto software = overview(object, "SPSoftwareDataType", source);
  if (!software) return software.error();
  if (*software != nullptr) {
    const std::string where = source + ": SPSoftwareDataType[0]";
    auto os = string_field(**software, "os_version", where);
    if (!os) return os.error();
    if (*os) {
      if (auto decoded = decode_os_version(**os, where + ".os_version", facts); !decoded) return decoded.error();
    }
  }
  return facts;
}

std::vector<std::string> metal_facts_command() {
  return {"/usr/sbin/system_profiler", "-json",           "-detailLevel",       "mini",
          "SPDisplaysDataType",        "SPHardwareDataType", "SPSoftwareDataType"};
}

Result<MetalFacts> read_metal_facts(ProcessRunner& processes, std::chrono::milliseconds timeout) {
  ProcessSpec spec;
  spec.argv = metal_facts_command();
  spec.timeout = timeout;
  spec.capture_limit = kMaxMetalReportBytes + 1;
  auto result = processes.run(spec);
  if (!result) return could_not_evaluate("cannot run system_profiler: " + result.error().message);
  if (!result->succeeded()) {
    std::string message = "system_profiler failed: " + result->describe(timeout);
    const auto err = visible_controls(trim(to_valid_utf8(result->err.substr(0, 300))));
    if (!err.empty()) message += ": " + err;
    return could_not_evaluate(message);
  }
  if (result->out_bytes > kMaxMetalReportBytes)
    return could_not_evaluate("system_profiler: output larger than " + std::to_string(kMaxMetalReportBytes) + " bytes");
  return decode_metal_facts(result->out, "system_profiler");
}

namespace {

// The table's backend whose devices system_profiler names.
std::string profiled_backend() {
  for (const auto& backend : gpu_backends()) {
    if (backend.discovery == GpuDiscovery::system_profiler) return std::string(backend.name);
  }
  return std::string(kGpuNone);
}

}  // namespace

GpuInventory metal_inventory(const MetalFacts& facts) {
  GpuInventory inventory;
  const MetalDevice* device = facts.first_metal_device();
  const std::string backend = profiled_backend();
  inventory.backend = device != nullptr ? backend : std::string(kGpuNone);
  if (!facts.macos_version.empty())
    inventory.driver_version = "macOS " + facts.macos_version +
                               (facts.macos_version_extra.empty() ? "" : " " + facts.macos_version_extra) +
                               (facts.macos_build.empty() ? "" : " (" + facts.macos_build + ")");
  GpuBackendProbe probe;
  probe.backend = backend;
  probe.library = "system_profiler";
  probe.loaded = true;
  if (device != nullptr) {
    inventory.count = 1;
    std::string name = device->name;
    if (device->cores) name += " (" + std::to_string(*device->cores) + "-core GPU)";
    inventory.devices.push_back({0, name});
    inventory.runtime_version = device->metal_family.empty() ? "Metal" : device->metal_family;
    probe.count = 1;
    probe.devices = inventory.devices;
  } else {
    probe.error = facts.devices.empty() ? "no display device" : "no device supports Metal";
  }
  probe.driver_version = inventory.driver_version;
  probe.runtime_version = inventory.runtime_version;
  inventory.probes.push_back(std::move(probe));
  return inventory;
}

Result<GpuInventory> detect_host_gpus(platform::Os os, const Environment& env, ProcessRunner& processes) {
  if (os != platform::Os::macos) return detect_gpus(env);
  auto facts = read_metal_facts(processes);
  if (!facts) return facts.error();
  return metal_inventory(*facts);
}

// ---- MLX ----------------------------------------------------------------------------------

std::string_view mlx_facts_script() {
  return "import json, sys\n"
         "try:\n"
         "    import mlx.core as mx\n"
         "except ModuleNotFoundError as e:\n"
         "    if e.name not in ('mlx', 'mlx.core'):\n"
         "        raise\n"
         "    print('null')\n"
         "    sys.exit(0)\n"
         "get = getattr(mx, 'device_info', None) or mx.metal.device_info\n"
         "info = {str(k): v for k, v in dict(get()).items()}\n"
         "info['mlx_version'] = str(getattr(mx, '__version__', ''))\n"
         "print(json.dumps(info, default=str))\n";
}

Result<std::optional<MlxFacts>> decode_mlx_facts(std::string_view text, std::string_view source_name) {
  const std::string source(source_name);
  if (text.size() > kMaxMlxReportBytes)
    return could_not_evaluate(source + ": output larger than " + std::to_string(kMaxMlxReportBytes) + " bytes");
  boost::system::error_code ec;
  json::parse_options options;
  options.max_depth = 4;
  const json::value root = json::parse(text, ec, {}, options);
  if (ec) return could_not_evaluate(source + ": not JSON: " + ec.message());
  if (root.is_null()) return std::optional<MlxFacts>{};
  if (!root.is_object()) return could_not_evaluate(source + ": expected a JSON object, got " + json_kind_name(root));
  const auto& object = root.get_object();
  if (object.size() > kMaxMlxKeys)
    return could_not_evaluate(source + ": more than " + std::to_string(kMaxMlxKeys) + " keys");
  MlxFacts facts;
  for (const auto& [raw_key, value] : object) {
    auto key = clean_value(raw_key, source + ": key " + quote_for_message(raw_key));
    if (!key) return key.error();
    if (key->empty()) return could_not_evaluate(source + ": an empty key");
    const std::string field = source + ": " + *key;
    std::string text_value;
    if (value.is_string()) {
      auto clean = clean_value(value.get_string(), field);
      if (!clean) return clean.error();
      text_value = std::move(*clean);
    } else if (value.is_int64() || value.is_uint64() || value.is_double() || value.is_bool()) {
      text_value = json::serialize(value);
    } else {
      return could_not_evaluate(field + ": expected a string, number or boolean, got " + json_kind_name(value));
    }
    facts.info[*key] = std::move(text_value);
  }
  return std::optional<MlxFacts>{std::move(facts)};
}

Result<std::optional<MlxFacts>> read_mlx_facts(ProcessRunner& processes, const std::string& python,
                                               std::chrono::milliseconds timeout) {
  ProcessSpec spec;
  spec.argv = {python, "-I", "-c", std::string(mlx_facts_script())};
  spec.timeout = timeout;
  spec.capture_limit = kMaxMlxReportBytes + 1;
  auto result = processes.run(spec);
  if (!result) return could_not_evaluate("cannot run " + quote_for_message(python) + ": " + result.error().message);
  if (!result->succeeded()) {
    std::string message = "MLX device facts: " + quote_for_message(python) + " failed: " + result->describe(timeout);
    const auto err = visible_controls(trim(to_valid_utf8(result->err.substr(result->err.size() > 300 ? result->err.size() - 300 : 0))));
    if (!err.empty()) message += ": " + err;
    return could_not_evaluate(message);
  }
  if (result->out_bytes > kMaxMlxReportBytes)
    return could_not_evaluate("MLX device facts: output larger than " + std::to_string(kMaxMlxReportBytes) + " bytes");
  return decode_mlx_facts(result->out, "MLX device_info");
}

}  // namespace gatekit
