#pragma once
// The property both the libFuzzer target and the deterministic CTest check for the smoke
// manifest loader: any input either yields a usage error whose every line names the file
// (file:line:col: ...), or a manifest whose entries are valid (unique safe names, a program,
// 1..1024 GPUs, positive timeouts) and which survives a round trip through YAML unchanged.
#include <set>
#include <string>
#include <string_view>

#include "gatekit/yaml.hpp"
#include "manifest.hpp"

namespace gatekit::fuzzing {

inline std::string emit_manifest(const gatekit::smoke_runner::Manifest& m) {
  YAML::Emitter out;
  out << YAML::BeginMap << YAML::Key << "smokes" << YAML::Value << YAML::BeginSeq;
  for (const auto& s : m.smokes) {
    out << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << YAML::DoubleQuoted << s.name;
    out << YAML::Key << "command" << YAML::Value << YAML::BeginSeq;
    for (const auto& t : s.command) out << YAML::DoubleQuoted << t;
    out << YAML::EndSeq;
    out << YAML::Key << "min_gpus" << YAML::Value << s.min_gpus;
    out << YAML::Key << "pr" << YAML::Value << s.pr;
    out << YAML::Key << "timeout" << YAML::Value << (std::to_string(s.timeout.count()) + "ms");
    out << YAML::Key << "kill_grace" << YAML::Value << (std::to_string(s.kill_grace.count()) + "ms");
    if (!s.env.empty()) {
      out << YAML::Key << "env" << YAML::Value << YAML::BeginMap;
      for (const auto& [k, v] : s.env) out << YAML::Key << k << YAML::Value << YAML::DoubleQuoted << v;
      out << YAML::EndMap;
    }
    if (!s.cwd.empty()) out << YAML::Key << "cwd" << YAML::Value << YAML::DoubleQuoted << s.cwd;
    out << YAML::EndMap;
  }
  out << YAML::EndSeq << YAML::EndMap;
  return out.c_str();
}

// YAML::Emitter rewrites invalid UTF-8, so the round trip is only checked on valid input.
inline bool valid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (std::size_t k = 1; k < n; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    }
    i += n;
  }
  return true;
}

// "" when the property holds, else what broke.
inline std::string smoke_manifest_property_violation(std::string_view input) {
  using namespace gatekit::smoke_runner;
  auto loaded = load_manifest_text(std::string(input), "fuzz.yaml");
  if (!loaded) {
    const auto& e = loaded.error();
    if (e.kind != gatekit::ErrorKind::bad_input) return "an error that is not a usage error";
    if (e.message.empty()) return "an error without a message";
    // After the "N errors in fuzz.yaml:" header, every line is located in the file.
    std::size_t start = e.message.rfind("fuzz.yaml:", 0) == 0 ? 0 : e.message.find('\n');
    if (start == std::string::npos) return "error without a located line: " + e.message;
    if (e.message.find("fuzz.yaml:") == std::string::npos) return "error not naming the file: " + e.message;
    return "";
  }
  const auto& m = *loaded;
  if (m.smokes.empty()) return "accepted a manifest without smokes";
  std::set<std::string> names;
  for (const auto& s : m.smokes) {
    if (!valid_smoke_name(s.name)) return "accepted the name '" + s.name + "'";
    if (!names.insert(s.name).second) return "accepted the duplicate name '" + s.name + "'";
    if (s.command.empty() || s.command.front().empty()) return "accepted an empty command in " + s.name;
    if (s.min_gpus < 1 || s.min_gpus > 1024) return "accepted min_gpus " + std::to_string(s.min_gpus);
    if (s.timeout.count() <= 0 || s.kill_grace.count() <= 0) return "accepted a non-positive duration in " + s.name;
    for (const auto& [k, v] : s.env) {
      if (k == "CUDA_VISIBLE_DEVICES" || k == "HIP_VISIBLE_DEVICES" || k == "ROCR_VISIBLE_DEVICES")
        return "accepted the reserved variable " + k;
    }
  }
  if (!valid_utf8(input)) return "";
  auto again = load_manifest_text(emit_manifest(m), "round-trip.yaml");
  if (!again) return "round trip rejected: " + again.error().message;
  if (again->smokes.size() != m.smokes.size()) return "round trip changed the smoke count";
  for (std::size_t i = 0; i < m.smokes.size(); ++i) {
    const auto& a = m.smokes[i];
    const auto& b = again->smokes[i];
    if (a.name != b.name || a.command != b.command || a.min_gpus != b.min_gpus || a.pr != b.pr ||
        a.timeout != b.timeout || a.kill_grace != b.kill_grace || a.env != b.env || a.cwd != b.cwd)
      return "round trip changed smoke '" + a.name + "'";
  }
  return "";
}

}  // namespace gatekit::fuzzing
