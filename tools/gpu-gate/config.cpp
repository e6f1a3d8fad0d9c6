// Loads .github/gatekit/gpu-gate.yml: strict keys, every error located and reported together.
#include "config.hpp"

#include <algorithm>
#include <array>
#include <optional>

#include "gatekit/config.hpp"
#include "gatekit/git.hpp"
#include "gatekit/yaml.hpp"
#include "gatekit/glob.hpp"
#include "gatekit/path_categories.hpp"
#include "gatekit/regex.hpp"
#include "gatekit/repo_path.hpp"
#include "gatekit/sha256.hpp"
#include "gatekit/test_run.hpp"
#include "gatekit/text.hpp"
#include "run/markers.hpp"
#include "record/record.hpp"

namespace gatekit::gpu_gate {
namespace {

constexpr std::array<std::string_view, 16> kTopKeys{
    "command",  "workers", "scope",       "nightly_marker", "namespace", "expiry_days", "clock_skew_minutes",
    "cpu_gate", "docs",    "concurrency", "stress_repeats", "signing",   "test_map",    "selection",
    "trusted_bases", "gpu_filter"};
constexpr std::array<std::string_view, 3> kScopeKeys{"folders", "modules", "extras"};
constexpr std::array<std::string_view, 3> kSigningKeys{"sign", "allowed_signers", "revoked_keys"};
constexpr std::array<std::string_view, 4> kGpuFilterKeys{"rules", "filter", "dialect", "predicate-quantifier"};
const std::vector<std::string_view> kPlaceholders{test_run::kWorkers, test_run::kTests, test_run::kJunit,
                                                  test_run::kMarkers};

struct Entry {
  YAML::Node key;
  YAML::Node value;
};

std::optional<Entry> find_key(const YAML::Node& map, std::string_view name) {
  for (const auto& e : map)
    if (e.first.IsScalar() && e.first.Scalar() == name) return Entry{e.first, e.second};
  return std::nullopt;
}

std::optional<std::int64_t> read_bounded(const Entry& e, const std::string& field, std::int64_t low,
                                         std::int64_t high, ConfigErrors& errors) {
  auto n = read_int(e.value, field, errors, &e.key);
  if (!n) return std::nullopt;
  if (*n < low || *n > high) {
    errors.add(e.value, field,
               "must be from " + std::to_string(low) + " to " + std::to_string(high) + ", got " +
                   std::to_string(*n),
               &e.key);
    return std::nullopt;
  }
  return n;
}

// Every placeholder in a command argument must be one the runner expands (test_run.hpp's
// language; the old spelling {paths} is read as {tests}). Returns the command in the current
// spelling, and the old spellings it used in `old_spellings`.
std::vector<std::string> check_command(const Entry& e, const std::vector<std::string>& argv, ConfigErrors& errors,
                                       std::vector<std::string>& old_spellings) {
  if (argv.empty()) errors.add(e.value, "command", "must name a program", &e.key);
  std::vector<std::string> words;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    auto word = test_run::parse_template({argv[i]}, kPlaceholders);
    if (!word) {
      errors.add(e.value[i], "command[" + std::to_string(i) + "]", word.error().message);
      words.push_back(argv[i]);
      continue;
    }
    for (auto& old_name : word->old_spellings)
      if (std::find(old_spellings.begin(), old_spellings.end(), old_name) == old_spellings.end())
        old_spellings.push_back(std::move(old_name));
    words.push_back(std::move(word->words.front()));
  }
  const bool markers = test_run::holds(words, test_run::kMarkers);
  if (!argv.empty() && !test_run::holds(words, test_run::kTests))
    errors.add(e.value, "command", "must hold {tests} (the tests to run)", &e.key);
  if (!argv.empty() && !test_run::holds(words, test_run::kJunit))
    errors.add(e.value, "command", "must hold {junit} (the JUnit report the gate reads its counts from)", &e.key);
  // pytest reads only its last -m: the one gpu-gate appends would silently replace this one.
  if (const auto at = pytest_marker_option(words); !markers && at != std::string::npos)
    errors.add(e.value[at], "command[" + std::to_string(at) + "]",
               "pytest reads only its last -m, and gpu-gate appends one (the nightly rule): put {markers} in "
               "the expression, e.g. -m, \"({markers}) and gpu\"");
  return words;
}

void check_patterns(const Entry& e, const std::string& field, const std::vector<std::string>& patterns,
                    ConfigErrors& errors) {
  for (std::size_t i = 0; i < patterns.size(); ++i) {
    auto compiled = glob::Pattern::compile(patterns[i], glob::Dialect::github);
    if (const auto* error = std::get_if<glob::PatternError>(&compiled))
      errors.add(e.value[i], field + "[" + std::to_string(i) + "]", error->message);
  }
}

std::optional<std::vector<std::string>> read_list(const YAML::Node& map, std::string_view key,
                                                  const std::string& field, ConfigErrors& errors) {
  auto e = find_key(map, key);
  if (!e) return std::nullopt;
  return read_string_list(e->value, field, errors, &e->key);
}

// A path from the configuration names a file inside the repository (gatekit/repo_path.hpp):
// never one a write or a read could take outside it. `what` names the file.
std::optional<std::string> read_repository_path(const Entry& e, const std::string& field, const std::string& what,
                                                ConfigErrors& errors) {
  auto v = read_string(e.value, field, errors, &e.key);
  if (!v) return std::nullopt;
  if (const auto problem = repository_path_problem(*v); problem != PathProblem::none) {
    errors.add(e.value, field, "must be a path inside the repository (" + what + "): " + describe(problem), &e.key);
    return std::nullopt;
  }
  return v;
}

void read_scope(const Entry& e, Config& config, ConfigErrors& errors) {
  if (!e.value.IsMap()) {
    errors.add(e.value, "scope", "expected a map with folders, modules, extras, got " + describe_node(e.value),
               &e.key);
    return;
  }
  reject_unknown_keys(e.value, kScopeKeys, "scope", errors);
  if (auto v = read_list(e.value, "folders", "scope.folders", errors)) config.scope_folders = *v;
  if (auto v = read_list(e.value, "modules", "scope.modules", errors)) config.modules = *v;
  if (auto v = read_list(e.value, "extras", "scope.extras", errors)) config.extras = *v;
}

void read_signing(const Entry& e, Config& config, ConfigErrors& errors) {
  if (!e.value.IsMap()) {
    errors.add(e.value, "signing", "expected a map with sign, allowed_signers, revoked_keys, got " + describe_node(e.value),
               &e.key);
    return;
  }
  reject_unknown_keys(e.value, kSigningKeys, "signing", errors);
  if (auto s = find_key(e.value, "sign"))
    if (auto v = read_bool(s->value, "signing.sign", errors, &s->key)) config.sign = *v;
  if (auto s = find_key(e.value, "allowed_signers"))
    if (auto v = read_repository_path(*s, "signing.allowed_signers", "the allowed-signers file", errors)) config.allowed_signers = *v;
  if (auto s = find_key(e.value, "revoked_keys"))
    if (auto v = read_repository_path(*s, "signing.revoked_keys", "the revoked keys", errors)) config.revoked_keys = *v;
}

// gpu_filter: false, or a map naming the path gate's rules file and its GPU filter (the rules'
// dialect and quantifier as the path gate's step overrides them, if it does).
void read_gpu_filter(const Entry& e, Config& config, ConfigErrors& errors) {
  const auto at = yaml::position_of(e.key.Mark());
  GpuFilterSetting& setting = config.gpu_filter;
  setting.at = config.source.string() + ":" + std::to_string(at.line) + ":" + std::to_string(at.column);
  if (e.value.IsScalar()) {
    if (auto on = read_bool(e.value, "gpu_filter", errors, &e.key)) {
      if (*on) errors.add(e.value, "gpu_filter", "expected false or a map with rules, filter, got true", &e.key);
      setting.enabled = false;
    }
    return;
  }
  if (!e.value.IsMap()) {
    errors.add(e.value, "gpu_filter", "expected false or a map with rules, filter, got " + describe_node(e.value), &e.key);
    return;
  }
  reject_unknown_keys(e.value, kGpuFilterKeys, "gpu_filter", errors);
  if (auto r = find_key(e.value, "rules"))
    if (auto v = read_repository_path(*r, "gpu_filter.rules", "the path gate's rules file", errors)) setting.rules = *v;
  if (auto f = find_key(e.value, "filter"))
    if (auto v = read_string(f->value, "gpu_filter.filter", errors, &f->key)) {
      if (v->empty()) errors.add(f->value, "gpu_filter.filter", "must name a filter of the rules file", &f->key);
      setting.filter = *v;
    }
  if (auto d = find_key(e.value, "dialect"))
    if (auto v = read_string(d->value, "gpu_filter.dialect", errors, &d->key)) {
      if (!glob::parse_dialect(*v)) errors.add(d->value, "gpu_filter.dialect", "expected github or picomatch, got " + quote_for_message(*v), &d->key);
      setting.dialect = *v;
    }
  if (auto q = find_key(e.value, "predicate-quantifier"))
    if (auto v = read_string(q->value, "gpu_filter.predicate-quantifier", errors, &q->key)) {
      if (*v != "some" && *v != "every")
        errors.add(q->value, "gpu_filter.predicate-quantifier", "expected some or every, got " + quote_for_message(*v), &q->key);
      setting.quantifier = *v;
    }
}

// Branch names, as GitHub names them (release/1.x): no refs/ prefix, no commit, nothing git
// would read as an option or a range.
void read_trusted_bases(const Entry& e, Config& config, ConfigErrors& errors) {
  auto v = read_string_list(e.value, "trusted_bases", errors, &e.key);
  if (!v) return;
  for (std::size_t i = 0; i < v->size(); ++i) {
    const std::string& name = (*v)[i];
    const bool revision = check_revision(name).ok() && name.find("..") == std::string::npos;
    if (!revision || name.starts_with("refs/") || is_object_name(name) || visible_controls(name) != name ||
        name.find_first_of(" ~^:?*[\\") != std::string::npos || name.ends_with('/') || name.ends_with(".lock"))
      errors.add(e.value[i], "trusted_bases[" + std::to_string(i) + "]",
                 "must be a branch name such as release/1.x (no refs/heads/ prefix), got " + quote_for_message(name));
  }
  config.trusted_bases = *v;
}

void read_namespace(const Entry& e, Config& config, ConfigErrors& errors) {
  auto v = read_string(e.value, "namespace", errors, &e.key);
  if (!v) return;
  if (auto ok = valid_namespace(*v); !ok) {
    errors.add(e.value, "namespace", ok.error().message, &e.key);
    return;
  }
  config.namespace_ = *v;
}

void read_pattern_list(const YAML::Node& root, std::string_view key, std::vector<std::string>& into,
                       ConfigErrors& errors) {
  auto e = find_key(root, key);
  if (!e) return;
  auto v = read_string_list(e->value, std::string(key), errors, &e->key);
  if (!v) return;
  if (v->empty()) errors.add(e->value, std::string(key), "must hold at least one pattern", &e->key);
  check_patterns(*e, std::string(key), *v, errors);
  into = *v;
}

void read_numbers(const YAML::Node& root, Config& config, ConfigErrors& errors) {
  if (auto e = find_key(root, "workers"))
    if (auto n = read_bounded(*e, "workers", 1, 1024, errors)) config.workers = static_cast<int>(*n);
  if (auto e = find_key(root, "expiry_days"))
    if (auto n = read_bounded(*e, "expiry_days", 1, 3650, errors)) config.expiry = std::chrono::hours(24 * *n);
  if (auto e = find_key(root, "clock_skew_minutes"))
    if (auto n = read_bounded(*e, "clock_skew_minutes", 0, 60, errors)) config.clock_skew = std::chrono::minutes(*n);
  if (auto e = find_key(root, "cpu_gate"))
    if (auto v = read_bool(e->value, "cpu_gate", errors, &e->key)) config.cpu_gate = *v;
  if (auto e = find_key(root, "stress_repeats"))
    if (auto n = read_bounded(*e, "stress_repeats", 1, 100, errors)) config.stress_repeats = static_cast<int>(*n);
}

void read_strings(const YAML::Node& root, Config& config, ConfigErrors& errors) {
  if (auto e = find_key(root, "command")) {
    if (auto v = read_string_list(e->value, "command", errors, &e->key)) {
      config.command = check_command(*e, *v, errors, config.old_spellings);
    }
  }
  if (auto e = find_key(root, "nightly_marker")) {
    static const Regex identifier("[A-Za-z_][A-Za-z0-9_]*");
    if (auto v = read_string(e->value, "nightly_marker", errors, &e->key)) {
      if (identifier.matches(*v)) {
        config.nightly_marker = *v;
        const auto at = yaml::position_of(e->value.Mark());
        config.nightly_marker_at = config.source.string() + ":" + std::to_string(at.line) + ":" + std::to_string(at.column);
      } else errors.add(e->value, "nightly_marker", "must be a pytest marker name (letters, digits, _)", &e->key);
    }
  }
  if (auto e = find_key(root, "namespace")) read_namespace(*e, config, errors);
  if (auto e = find_key(root, "test_map"))
    if (auto v = read_repository_path(*e, "test_map", "the test map run --full writes", errors)) config.test_map = *v;
  if (auto e = find_key(root, "selection")) {
    if (auto v = read_repository_path(*e, "selection", "the selection file", errors)) {
      config.selection = *v;
      const auto at = yaml::position_of(e->value.Mark());
      config.selection_at = config.source.string() + ":" + std::to_string(at.line) + ":" + std::to_string(at.column);
    }
  }
}

}  // namespace

int default_workers(const Environment& env) { return std::clamp(env.cpu_count(), 1, 1024); }

std::string config_digest(const Config& config, const std::optional<std::string>& selection_text) {
  // Each value length-prefixed, each field named: no two configurations write the same text.
  std::string text = "gatekit-gpu-gate-config/1\n";
  auto value = [&text](std::string_view field, std::string_view v) {
    text += std::string(field) + " " + std::to_string(v.size()) + ":" + std::string(v) + "\n";
  };
  auto list = [&value](std::string_view field, const std::vector<std::string>& items) {
    value(field, std::to_string(items.size()));
    for (const auto& item : items) value(field, item);
  };
  list("command", config.command);
  list("scope.folders", config.scope_folders);
  list("scope.modules", config.modules);
  list("scope.extras", config.extras);
  value("nightly_marker", config.nightly_marker);
  value("selection", config.selection);
  value("selection.present", selection_text ? "yes" : "no");
  value("selection.text", selection_text.value_or(""));
  list("concurrency", config.concurrency_patterns);
  value("stress_repeats", std::to_string(config.stress_repeats));
  return "sha256:" + sha256_hex(text);
}

Config default_config() {
  Config config;
  config.command = {"python", "-m", "pytest", "-n", "{workers}", "--junitxml={junit}", "{tests}"};
  config.docs_patterns = glob::default_docs_patterns();
  config.concurrency_patterns = glob::default_concurrency_patterns();
  return config;
}

Result<Config> parse_config(std::string_view yaml_text, const std::string& file_name) {
  auto root = load_yaml_text(std::string(yaml_text), file_name);
  if (!root) return root.error();
  Config config = default_config();
  config.source = file_name;
  ConfigErrors errors(file_name);
  if (root->IsNull()) return config;
  if (!root->IsMap()) {
    errors.add(*root, "", "expected a map of settings, got " + describe_node(*root));
    return errors.to_error();
  }
  reject_unknown_keys(*root, kTopKeys, "", errors);
  read_strings(*root, config, errors);
  read_numbers(*root, config, errors);
  if (auto e = find_key(*root, "scope")) read_scope(*e, config, errors);
  if (auto e = find_key(*root, "signing")) read_signing(*e, config, errors);
  if (auto e = find_key(*root, "trusted_bases")) read_trusted_bases(*e, config, errors);
  if (auto e = find_key(*root, "gpu_filter")) read_gpu_filter(*e, config, errors);
  read_pattern_list(*root, "docs", config.docs_patterns, errors);
  read_pattern_list(*root, "concurrency", config.concurrency_patterns, errors);
  if (!errors.empty()) return errors.to_error();
  return config;
}

Result<Config> load_config(Files& files, const std::filesystem::path& path, bool explicit_path) {
  if (!explicit_path && !files.exists(path)) return default_config();
  auto text = as_bad_input(files.read(path, 1u << 20));
  if (!text) return text.error();
  return parse_config(*text, path.string());
}

}  // namespace gatekit::gpu_gate
