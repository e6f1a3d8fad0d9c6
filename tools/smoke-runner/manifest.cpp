#include "manifest.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "gatekit/config.hpp"
#include "gatekit/yaml.hpp"
#include "gatekit/files.hpp"
#include "gatekit/gpu_backends.hpp"
#include "gatekit/regex.hpp"
#include "gatekit/text.hpp"
#include "gatekit/workflow.hpp"

namespace gatekit::smoke_runner {

using gatekit::ConfigErrors;

namespace {

constexpr std::array<std::string_view, 2> kTopKeys{"smokes", "defaults"};
constexpr std::array<std::string_view, 3> kDefaultKeys{"timeout", "kill_grace", "env"};
constexpr std::array<std::string_view, 8> kSmokeKeys{"name", "command", "min_gpus", "pr",
                                                     "timeout", "kill_grace", "env", "cwd"};
constexpr milliseconds kMaxDuration{24LL * 3600 * 1000};
constexpr std::int64_t kMaxGpus = 1024;

// A map value and its key node, looked up by name.
struct Entry {
  YAML::Node key;
  YAML::Node value;
  bool found = false;
  explicit operator bool() const { return found; }
};

Entry find_key(const YAML::Node& map, std::string_view name) {
  for (const auto& e : map) {
    if (e.first.IsScalar() && e.first.Scalar() == name) return {e.first, e.second, true};
  }
  return {};
}

std::optional<milliseconds> read_duration(const Entry& e, const std::string& field, ConfigErrors& errors) {
  const auto& node = e.value;
  if (node.IsScalar() && node.Tag() == "?") {
    static const gatekit::Regex number("[-+]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)");
    if (number.matches(node.Scalar())) {
      const double seconds = std::stod(node.Scalar());
      if (!(seconds > 0) || seconds * 1000 > static_cast<double>(kMaxDuration.count())) {
        errors.add(node, field, "must be more than 0 and at most 24h, got " + node.Scalar(), &e.key);
        return std::nullopt;
      }
      return milliseconds(static_cast<long long>(std::llround(seconds * 1000)));
    }
  }
  if (node.IsScalar() && !node.Scalar().empty()) {
    if (auto d = parse_duration_text(node.Scalar()); d && *d <= kMaxDuration) return d;
  }
  errors.add(node, field,
             "expected a duration in seconds (90) or with a unit (90s, 5m, 1h30m), got " +
                 gatekit::describe_node(node),
             &e.key);
  return std::nullopt;
}

std::optional<std::map<std::string, std::string>> read_env(const Entry& e, const std::string& field,
                                                           ConfigErrors& errors) {
  if (!e.value.IsMap()) {
    errors.add(e.value, field, "expected a map of NAME: value, got " + gatekit::describe_node(e.value), &e.key);
    return std::nullopt;
  }
  static const gatekit::Regex env_name("[A-Za-z_][A-Za-z0-9_]*");
  std::map<std::string, std::string> out;
  bool ok = true;
  for (const auto& item : e.value) {
    const std::string name = item.first.IsScalar() ? item.first.Scalar() : "";
    const std::string item_field = field + "." + name;
    if (!env_name.matches(name)) {
      errors.add(item.first, field, "'" + gatekit::visible_controls(name) + "' is not a valid environment variable name");
      ok = false;
      continue;
    }
    // The runner sets these per smoke from the GPUs it assigns (gatekit/gpu_backends.hpp).
    static const std::vector<std::string> reserved = gatekit::gpu_visibility_variables();
    if (std::find(reserved.begin(), reserved.end(), name) != reserved.end()) {
      errors.add(item.first, item_field,
                 "is set by smoke-runner from the GPUs it assigns to the smoke; remove it (ask for GPUs with min_gpus)");
      ok = false;
      continue;
    }
    // The files through which a step talks to the runner (step_file_variables, the Workflow
    // seam's list): smokes never get them, so a manifest may not set them.
    if (const auto& step = step_file_variables(); std::find(step.begin(), step.end(), name) != step.end()) {
      errors.add(item.first, item_field,
                 "is a workflow file of the step; smokes never get it, so they cannot change the step's outputs, "
                 "environment, PATH or summary; remove it");
      ok = false;
      continue;
    }
    if (out.count(name) != 0) {
      errors.add(item.first, item_field, "duplicate key '" + name + "'");
      ok = false;
      continue;
    }
    // Values are text: numbers and booleans are taken as written.
    if (!item.second.IsScalar()) {
      errors.add(item.second, item_field, "expected a string, got " + gatekit::describe_node(item.second), &item.first);
      ok = false;
      continue;
    }
    out[name] = item.second.Scalar();
  }
  if (!ok) return std::nullopt;
  return out;
}

struct Defaults {
  milliseconds timeout = kDefaultTimeout;
  milliseconds kill_grace = kDefaultKillGrace;
  std::map<std::string, std::string> env;
};

Defaults read_defaults(const Entry& e, ConfigErrors& errors) {
  Defaults d;
  if (!e) return d;
  if (!e.value.IsMap()) {
    errors.add(e.value, "defaults", "expected a map (timeout, kill_grace, env), got " + gatekit::describe_node(e.value), &e.key);
    return d;
  }
  gatekit::reject_unknown_keys(e.value, kDefaultKeys, "defaults", errors);
  if (auto t = find_key(e.value, "timeout")) {
    if (auto v = read_duration(t, "defaults.timeout", errors)) d.timeout = *v;
  }
  if (auto g = find_key(e.value, "kill_grace")) {
    if (auto v = read_duration(g, "defaults.kill_grace", errors)) d.kill_grace = *v;
  }
  if (auto env = find_key(e.value, "env")) {
    if (auto v = read_env(env, "defaults.env", errors)) d.env = *v;
  }
  return d;
}

std::optional<Smoke> read_smoke(const YAML::Node& node, std::size_t index, const Defaults& defaults,
                                ConfigErrors& errors) {
  const std::string prefix = "smokes[" + std::to_string(index) + "]";
  if (!node.IsMap()) {
    errors.add(node, prefix, "expected a map with name and command, got " + gatekit::describe_node(node));
    return std::nullopt;
  }
  const std::size_t before = errors.issues().size();
  gatekit::reject_unknown_keys(node, kSmokeKeys, prefix, errors);
  Smoke smoke;
  smoke.line = gatekit::yaml::position_of(node.Mark()).line;
  smoke.timeout = defaults.timeout;
  smoke.kill_grace = defaults.kill_grace;
  smoke.env = defaults.env;

  if (auto e = find_key(node, "name")) {
    if (auto v = gatekit::read_string(e.value, prefix + ".name", errors, &e.key)) {
      if (valid_smoke_name(*v)) smoke.name = *v;
      else
        errors.add(e.value, prefix + ".name",
                   "'" + gatekit::visible_controls(*v) +
                       "' is not a valid name: use letters, digits, '.', '_' and '-', starting with a letter or digit (at most 100)");
    }
  } else {
    errors.add(node, prefix, "missing required key 'name'");
  }
  if (auto e = find_key(node, "command")) {
    if (e.value.IsScalar() && !e.value.IsNull() && !(e.value.Tag() == "?" && e.value.Scalar().empty())) {
      errors.add(e.value, prefix + ".command",
                 "expected a list (argv, run without a shell), got " + gatekit::describe_node(e.value) +
                     "; write it as [program, arg, ...]");
    } else if (auto v = gatekit::read_string_list(e.value, prefix + ".command", errors, &e.key)) {
      if (v->empty()) errors.add(e.value, prefix + ".command", "must name a program: the list is empty");
      else if (v->front().empty()) errors.add(e.value[0], prefix + ".command[0]", "the program name is empty");
      else smoke.command = *v;
    }
  } else {
    errors.add(node, prefix, "missing required key 'command'");
  }
  if (auto e = find_key(node, "min_gpus")) {
    if (auto v = gatekit::read_int(e.value, prefix + ".min_gpus", errors, &e.key)) {
      if (*v < 1 || *v > kMaxGpus)
        errors.add(e.value, prefix + ".min_gpus", "must be between 1 and 1024, got " + std::to_string(*v));
      else smoke.min_gpus = static_cast<int>(*v);
    }
  }
  if (auto e = find_key(node, "pr")) {
    if (auto v = gatekit::read_bool(e.value, prefix + ".pr", errors, &e.key)) smoke.pr = *v;
  }
  if (auto e = find_key(node, "timeout")) {
    if (auto v = read_duration(e, prefix + ".timeout", errors)) smoke.timeout = *v;
  }
  if (auto e = find_key(node, "kill_grace")) {
    if (auto v = read_duration(e, prefix + ".kill_grace", errors)) smoke.kill_grace = *v;
  }
  if (auto e = find_key(node, "env")) {
    if (auto v = read_env(e, prefix + ".env", errors)) {
      for (auto& [k, val] : *v) smoke.env[k] = val;
    }
  }
  if (auto e = find_key(node, "cwd")) {
    if (auto v = gatekit::read_string(e.value, prefix + ".cwd", errors, &e.key)) smoke.cwd = *v;
  }
  if (errors.issues().size() != before) return std::nullopt;
  return smoke;
}

}  // namespace

bool valid_smoke_name(std::string_view name) {
  static const gatekit::Regex pattern("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");
  return pattern.matches(name);
}

std::optional<milliseconds> parse_duration_text(std::string_view text) {
  static const gatekit::Regex whole("(([0-9]+(\\.[0-9]+)?)(ms|s|m|h))+");
  static const gatekit::Regex part("([0-9]+(\\.[0-9]+)?)(ms|s|m|h)");
  const std::string s(text);
  if (s.size() > 40 || !whole.matches(s)) return std::nullopt;
  double total = 0;
  for (const auto& groups : part.all_matches(s)) {
    const double value = std::stod(groups[1]);
    const std::string& unit = groups[3];
    total += value * (unit == "ms" ? 1 : unit == "s" ? 1000 : unit == "m" ? 60'000 : 3'600'000);
  }
  if (!(total >= 1)) return std::nullopt;
  if (total > 1e12) return std::nullopt;
  return milliseconds(static_cast<long long>(std::llround(total)));
}

gatekit::Result<Manifest> load_manifest_text(const std::string& text, const std::string& path) {
  auto doc = gatekit::load_yaml_text(text, path);
  if (!doc) return doc.error();
  ConfigErrors errors(path);
  Manifest manifest;
  manifest.path = path;
  const YAML::Node& root = *doc;
  if (!root.IsMap()) {
    // An empty document has no position of its own: the top of the file is where it belongs.
    auto pos = root.IsDefined() && !root.IsNull() ? gatekit::yaml::position_of(root.Mark())
                                                  : gatekit::yaml::Position{};
    errors.add(pos.line > 0 ? pos.line : 1, pos.line > 0 ? pos.column : 1, "",
               "expected a map with a 'smokes:' list, got " + gatekit::describe_node(root));
    return errors.to_error();
  }
  gatekit::reject_unknown_keys(root, kTopKeys, "", errors);
  const Defaults defaults = read_defaults(find_key(root, "defaults"), errors);
  const Entry smokes = find_key(root, "smokes");
  if (!smokes) {
    errors.add(1, 1, "", "missing required key 'smokes' (a list of smoke entries)");
  } else if (!smokes.value.IsSequence()) {
    errors.add(smokes.value, "smokes", "expected a list of smoke entries, got " + gatekit::describe_node(smokes.value),
               &smokes.key);
  } else if (smokes.value.size() == 0) {
    errors.add(smokes.value, "smokes", "the list is empty: add at least one smoke", &smokes.key);
  } else {
    std::map<std::string, std::pair<std::size_t, int>> seen;  // name -> index, line
    for (std::size_t i = 0; i < smokes.value.size(); ++i) {
      const YAML::Node node = smokes.value[i];
      auto smoke = read_smoke(node, i, defaults, errors);
      // Duplicates are found even when another key of the entry is wrong.
      if (node.IsMap()) {
        if (auto name = find_key(node, "name"); name && name.value.IsScalar()) {
          const std::string n = name.value.Scalar();
          const int line = gatekit::yaml::position_of(name.value.Mark()).line;
          if (auto it = seen.find(n); it != seen.end()) {
            errors.add(name.value, "smokes[" + std::to_string(i) + "].name",
                       "duplicate name '" + gatekit::visible_controls(n) + "' (first used by smokes[" + std::to_string(it->second.first) +
                           "] on line " + std::to_string(it->second.second) + ")");
          } else {
            seen[n] = {i, line};
          }
        }
      }
      if (smoke) manifest.smokes.push_back(std::move(*smoke));
    }
  }
  if (!errors.empty()) return errors.to_error();
  return manifest;
}

gatekit::Result<Manifest> load_manifest_file(const Files& files, const std::string& path) {
  auto text = files.read(path);
  if (!text) return gatekit::bad_input(path + ": cannot read the smoke manifest (pass --manifest PATH)");
  return load_manifest_text(*text, path);
}

}  // namespace gatekit::smoke_runner
