#include "gatekit/selection.hpp"

#include <algorithm>
#include <array>

#include "gatekit/config.hpp"
#include "gatekit/files.hpp"
#include "gatekit/regex.hpp"
#include "gatekit/run_info.hpp"
#include "gatekit/text.hpp"
#include "gatekit/yaml.hpp"

namespace gatekit::selection {

namespace {

constexpr std::array<std::string_view, 8> kTopKeys{"version",  "nightly-marker", "nightly-contexts", "legs",
                                                   "docs",     "device-skips",   "paths",            "growth"};
constexpr std::array<std::string_view, 3> kLegKeys{"markers", "device", "imports"};
constexpr std::array<std::string_view, 3> kDocsKeys{"leg", "variant", "markers"};
constexpr std::array<std::string_view, 2> kSkipKeys{"reason", "marker"};
constexpr std::array<std::string_view, 2> kGrowthKeys{"notice-tests", "notice-seconds"};

bool identifier(std::string_view s) {
  static const Regex re("[A-Za-z_][A-Za-z0-9_]*");
  return s.size() <= 100 && re.matches(s);
}
bool dotted_identifier(std::string_view s) {
  static const Regex re("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*");
  return s.size() <= 200 && re.matches(s);
}

// Parentheses must pair up in order: `not gpu) or (gpu` has as many of each, but wrapped as
// `(not gpu) or (gpu) and not nightly` it selects every gpu test, nightly ones included.
// Quoted strings (pytest's marker keyword arguments, `mark(name="a)")`) are skipped; one left
// open would swallow the wrapper's ')', so it is refused too.
std::string parenthesis_problem(std::string_view expression) {
  const std::string prefix = "the marker expression's parentheses do not balance: ";
  std::vector<std::size_t> open;
  char quote = 0;
  std::size_t quote_at = 0;
  for (std::size_t i = 0; i < expression.size(); ++i) {
    const char c = expression[i];
    if (quote != 0) {
      if (c == quote) quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
      quote_at = i;
    } else if (c == '(') {
      open.push_back(i);
    } else if (c == ')') {
      if (open.empty()) return prefix + "the ')' at character " + std::to_string(i + 1) + " closes no '('";
      open.pop_back();
    }
  }
  if (quote != 0)
    return "the marker expression's quote " + std::string(1, quote) + " at character " + std::to_string(quote_at + 1) +
           " is never closed";
  if (!open.empty()) return prefix + "the '(' at character " + std::to_string(open.back() + 1) + " is never closed";
  return "";
}

const YAML::Node* key_of(const YAML::Node& map, const std::string& name, YAML::Node& storage) {
  for (const auto& entry : map) {
    if (entry.first.IsScalar() && entry.first.Scalar() == name) {
      storage = entry.first;
      return &storage;
    }
  }
  return nullptr;
}

class Loader {
 public:
  Loader(std::string origin) : errors_(origin) { selection_.origin = std::move(origin); }

  Result<Selection> load(const YAML::Node& root) {
    if (!root.IsMap()) {
      errors_.add(root, "", "expected a map with `version` and `legs`, got " + describe_node(root));
      return errors_.to_error();
    }
    reject_unknown_keys(root, kTopKeys, "", errors_);
    read_version(root);
    if (auto node = root["nightly-marker"]; node.IsDefined()) read_nightly_marker(root, node);
    if (auto node = root["nightly-contexts"]; node.IsDefined()) read_nightly_contexts(root, node);
    if (auto node = root["legs"]; node.IsDefined()) read_legs(node);
    else errors_.add(root, "legs", "missing: name each CI leg and its marker expression");
    if (auto node = root["docs"]; node.IsDefined()) read_docs(node);
    if (auto node = root["device-skips"]; node.IsDefined()) read_device_skips(node);
    else selection_.device_skips = default_device_skips();
    if (auto node = root["paths"]; node.IsDefined()) read_paths(root, node);
    if (auto node = root["growth"]; node.IsDefined()) read_growth(node);
    if (!errors_.empty()) return errors_.to_error();
    return std::move(selection_);
  }

 private:
  void read_version(const YAML::Node& root) {
    auto node = root["version"];
    if (!node.IsDefined()) {
      errors_.add(root, "version", "missing: write `version: 1`");
      return;
    }
    YAML::Node key_storage;
    auto version = read_int(node, "version", errors_, key_of(root, "version", key_storage));
    if (version && *version != 1) errors_.add(node, "version", "unsupported version " + std::to_string(*version) + " (this gatekit reads version 1)");
  }

  void read_nightly_marker(const YAML::Node& root, const YAML::Node& node) {
    YAML::Node key_storage;
    auto marker = read_string(node, "nightly-marker", errors_, key_of(root, "nightly-marker", key_storage));
    if (!marker) return;
    if (!identifier(*marker)) errors_.add(node, "nightly-marker", "'" + *marker + "' is not a marker name");
    else selection_.nightly_marker = *marker;
  }

  void read_nightly_contexts(const YAML::Node& root, const YAML::Node& node) {
    YAML::Node key_storage;
    auto list = read_string_list(node, "nightly-contexts", errors_, key_of(root, "nightly-contexts", key_storage));
    if (!list) return;
    for (std::size_t i = 0; i < list->size(); ++i) {
      if (!known_context((*list)[i]))
        errors_.add(node[i], "nightly-contexts[" + std::to_string(i) + "]",
                    "unknown context '" + (*list)[i] + "' (contexts: pr, main, daily, gate, gate-full)");
    }
    selection_.nightly_contexts = *list;
  }

  void check_expression(const YAML::Node& node, const std::string& field, const std::string& expression) {
    if (auto problem = expression_problem(expression); !problem.empty()) errors_.add(node, field, problem);
  }

  void read_legs(const YAML::Node& legs) {
    if (!legs.IsMap() || legs.size() == 0) {
      errors_.add(legs, "legs", "expected a map of leg names to {markers: ...}, got " + describe_node(legs));
      return;
    }
    std::vector<std::string> seen;
    for (const auto& entry : legs) {
      const std::string name = entry.first.Scalar();
      const std::string field = "legs." + name;
      if (std::find(seen.begin(), seen.end(), name) != seen.end()) {
        errors_.add(entry.first, field, "duplicate key '" + name + "'");
        continue;
      }
      seen.push_back(name);
      if (!is_leg_name(name)) errors_.add(entry.first, field, "a leg name is letters, digits, '.', '_' and '-'");
      read_leg(name, field, entry.first, entry.second);
    }
  }

  void read_leg(const std::string& name, const std::string& field, const YAML::Node& key, const YAML::Node& node) {
    if (!node.IsMap()) {
      errors_.add(node, field, "expected a map with `markers`, got " + describe_node(node), &key);
      return;
    }
    reject_unknown_keys(node, kLegKeys, field, errors_);
    Leg leg;
    leg.name = name;
    YAML::Node key_storage;
    if (auto markers = node["markers"]; markers.IsDefined()) {
      if (auto value = read_string(markers, field + ".markers", errors_, key_of(node, "markers", key_storage))) {
        check_expression(markers, field + ".markers", *value);
        leg.markers = *value;
      }
    } else {
      errors_.add(node, field + ".markers", "missing: the leg's pytest -m expression", &key);
    }
    if (auto device = node["device"]; device.IsDefined()) {
      auto value = read_string(device, field + ".device", errors_, key_of(node, "device", key_storage));
      if (value && *value == "gpu") leg.device = Device::gpu;
      else if (value && *value != "cpu") errors_.add(device, field + ".device", "expected cpu or gpu, got '" + *value + "'");
    }
    if (auto imports = node["imports"]; imports.IsDefined()) {
      if (auto list = read_string_list(imports, field + ".imports", errors_, key_of(node, "imports", key_storage))) {
        for (std::size_t i = 0; i < list->size(); ++i)
          if (!dotted_identifier((*list)[i]))
            errors_.add(imports[i], field + ".imports[" + std::to_string(i) + "]",
                        "'" + (*list)[i] + "' is not a module name (dotted Python identifiers)");
        leg.imports = *list;
      }
    }
    selection_.legs.push_back(std::move(leg));
  }

  void read_docs(const YAML::Node& node) {
    if (!node.IsMap()) {
      errors_.add(node, "docs", "expected a map with `leg` and `markers`, got " + describe_node(node));
      return;
    }
    reject_unknown_keys(node, kDocsKeys, "docs", errors_);
    DocsTests docs;
    YAML::Node key_storage;
    if (auto leg = node["leg"]; leg.IsDefined()) {
      if (auto value = read_string(leg, "docs.leg", errors_, key_of(node, "leg", key_storage))) {
        if (selection_.find_leg(*value) == nullptr && !selection_.legs.empty())
          errors_.add(leg, "docs.leg", "no leg named '" + *value + "' under `legs`");
        docs.leg = *value;
      }
    } else {
      errors_.add(node, "docs.leg", "missing: the leg that runs the docs tests on a docs-only change");
    }
    if (auto variant = node["variant"]; variant.IsDefined()) {
      docs.variant = read_string(variant, "docs.variant", errors_, key_of(node, "variant", key_storage)).value_or("");
      if (has_control(docs.variant) || docs.variant.size() > 100)
        errors_.add(variant, "docs.variant", "must be one line of text, at most 100 characters (a matrix value)");
      const auto at = yaml::position_of(variant.Mark());
      docs.variant_line = at.line;
      docs.variant_column = at.column;
    }
    if (auto markers = node["markers"]; markers.IsDefined()) {
      if (auto value = read_string(markers, "docs.markers", errors_, key_of(node, "markers", key_storage))) {
        check_expression(markers, "docs.markers", *value);
        docs.markers = *value;
      }
    } else {
      errors_.add(node, "docs.markers", "missing: the expression that selects the docs tests");
    }
    selection_.docs = docs;
  }

  void read_device_skips(const YAML::Node& node) {
    if (!node.IsSequence()) {
      errors_.add(node, "device-skips", "expected a list of {reason, marker}, got " + describe_node(node));
      return;
    }
    for (std::size_t i = 0; i < node.size(); ++i) {
      const auto& item = node[i];
      const std::string field = "device-skips[" + std::to_string(i) + "]";
      if (!item.IsMap()) {
        errors_.add(item, field, "expected {reason: ..., marker: ...}, got " + describe_node(item));
        continue;
      }
      reject_unknown_keys(item, kSkipKeys, field, errors_);
      DeviceSkip skip;
      YAML::Node key_storage;
      auto reason = item["reason"];
      if (!reason.IsDefined()) errors_.add(item, field + ".reason", "missing: a fragment of the skip message");
      else if (auto value = read_string(reason, field + ".reason", errors_, key_of(item, "reason", key_storage))) {
        if (value->empty() || has_control(*value)) errors_.add(reason, field + ".reason", "must be one line of text");
        skip.reason = *value;
      }
      auto marker = item["marker"];
      if (!marker.IsDefined()) errors_.add(item, field + ".marker", "missing: the marker such a test should carry");
      else if (auto value = read_string(marker, field + ".marker", errors_, key_of(item, "marker", key_storage))) {
        if (!identifier(*value)) errors_.add(marker, field + ".marker", "'" + *value + "' is not a marker name");
        skip.marker = *value;
      }
      selection_.device_skips.push_back(std::move(skip));
    }
  }

  void read_paths(const YAML::Node& root, const YAML::Node& node) {
    YAML::Node key_storage;
    auto list = read_string_list(node, "paths", errors_, key_of(root, "paths", key_storage));
    if (!list) return;
    for (std::size_t i = 0; i < list->size(); ++i)
      if ((*list)[i].empty() || has_control((*list)[i]))
        errors_.add(node[i], "paths[" + std::to_string(i) + "]", "must be a non-empty path or node id on one line");
      else if ((*list)[i].front() == '-')
        errors_.add(node[i], "paths[" + std::to_string(i) + "]",
                    "'" + (*list)[i] + "' starts with '-' and pytest would read it as an option: write ./" + (*list)[i]);
    selection_.paths = *list;
  }

  void read_growth(const YAML::Node& node) {
    if (!node.IsMap()) {
      errors_.add(node, "growth", "expected a map with notice-tests / notice-seconds, got " + describe_node(node));
      return;
    }
    reject_unknown_keys(node, kGrowthKeys, "growth", errors_);
    YAML::Node key_storage;
    if (auto tests = node["notice-tests"]; tests.IsDefined()) {
      if (auto value = read_int(tests, "growth.notice-tests", errors_, key_of(node, "notice-tests", key_storage))) {
        if (*value < 1) errors_.add(tests, "growth.notice-tests", "must be at least 1");
        else selection_.notice_tests = static_cast<long>(*value);
      }
    }
    if (auto seconds = node["notice-seconds"]; seconds.IsDefined()) {
      if (auto value = read_number(seconds, "growth.notice-seconds", errors_, key_of(node, "notice-seconds", key_storage))) {
        if (!(*value > 0)) errors_.add(seconds, "growth.notice-seconds", "must be more than 0");
        else selection_.notice_seconds = *value;
      }
    }
  }

  ConfigErrors errors_;
  Selection selection_;
};

}  // namespace

const Leg* Selection::find_leg(std::string_view name) const {
  for (const auto& leg : legs)
    if (leg.name == name) return &leg;
  return nullptr;
}

bool Selection::runs_nightly(std::string_view context) const {
  return std::find(nightly_contexts.begin(), nightly_contexts.end(), context) != nightly_contexts.end();
}

std::vector<DeviceSkip> default_device_skips() {
  return {{"no GPU", "gpu"},          {"CUDA not available", "gpu"}, {"CUDA is not available", "gpu"},
          {"requires a GPU", "gpu"},  {"requires ROCm", "rocm"},     {"no ROCm", "rocm"}};
}

Result<Selection> load_selection_text(const std::string& text, const std::string& origin) {
  auto root = load_yaml_text(text, origin);
  if (!root) return root.error();
  return Loader(origin).load(*root);
}

Result<Selection> load_selection_file(const Files& files, const std::string& path) {
  auto text = files.read(path);
  if (!text) return bad_input(path + ": cannot read file");
  return load_selection_text(*text, path);
}

std::string leg_expression(const Selection& selection, const Leg& leg, std::string_view context) {
  if (selection.runs_nightly(context)) return leg.markers;
  return "(" + leg.markers + ") and not " + selection.nightly_marker;
}

std::string universe_expression(const Selection& selection, std::string_view context) {
  if (selection.runs_nightly(context)) return "";
  return "not " + selection.nightly_marker;
}

std::string docs_expression(const Selection& selection, std::string_view context) {
  if (!selection.docs) return "";
  if (selection.runs_nightly(context)) return selection.docs->markers;
  return "(" + selection.docs->markers + ") and not " + selection.nightly_marker;
}

std::string docs_variant_problem(const Selection& selection, const std::vector<std::string>& variants) {
  if (!selection.docs || selection.docs->variant.empty() || variants.empty()) return "";
  const auto& docs = *selection.docs;
  if (std::find(variants.begin(), variants.end(), docs.variant) != variants.end()) return "";
  std::string values;
  for (const auto& v : variants) values += (values.empty() ? "" : ", ") + v;
  return format_issue({selection.origin, docs.variant_line, docs.variant_column, "docs.variant",
                       "'" + docs.variant + "' is none of the matrix values (" + values +
                           "): a documentation-only change would run the docs tests on no job"});
}

bool is_leg_name(std::string_view name) {
  static const Regex re("[A-Za-z0-9][A-Za-z0-9_.-]*");
  return name.size() <= 64 && re.matches(name);
}

bool known_context(std::string_view context) {
  return std::find(kContexts.begin(), kContexts.end(), context) != kContexts.end();
}

Result<std::string> context_from_event(std::string_view event_name) {
  const RunEvent event = run_event_of(event_name);
  if (reviews_a_change(event)) return std::string("pr");
  if (event == RunEvent::push || event == RunEvent::workflow_dispatch) return std::string("main");
  if (event == RunEvent::schedule) return std::string("daily");
  if (event == RunEvent::none)
    return bad_input("no --context given and GITHUB_EVENT_NAME is not set (contexts: pr, main, daily, gate, gate-full)");
  return bad_input("no --context given and the event '" + std::string(event_name) +
                        "' has no context of its own: pass --context (pr, main, daily, gate, gate-full)");
}

std::string expression_problem(std::string_view expression) {
  if (expression.find_first_not_of(' ') == std::string_view::npos) return "the marker expression is empty";
  if (expression.size() > 2000) return "the marker expression is longer than 2000 characters";
  if (has_control(expression)) return "the marker expression must be one line without control characters";
  if (expression.front() == '-' || expression.front() == ' ')
    return "the marker expression must not start with '-' or a space (it would read as an option)";
  return parenthesis_problem(expression);
}

}  // namespace gatekit::selection
