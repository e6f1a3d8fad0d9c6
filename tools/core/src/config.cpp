#include "gatekit/config.hpp"

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "gatekit/text.hpp"

namespace gatekit {

std::string format_issue(const ConfigIssue& issue) {
  std::string out = issue.file;
  if (issue.line > 0) {
    out += ':' + std::to_string(issue.line);
    if (issue.column > 0) out += ':' + std::to_string(issue.column);
  }
  out += ": ";
  if (!issue.field.empty()) out += issue.field + ": ";
  out += issue.message;
  return out;
}

void ConfigErrors::add(const YAML::Node& at, std::string field, std::string message,
                       const YAML::Node* key) {
  const bool use_key = key != nullptr && key->IsDefined() && (!at.IsDefined() || at.IsNull());
  const YAML::Node& where = use_key ? *key : at;
  auto pos = where.IsDefined() ? compat::position_of(where.Mark()) : compat::YamlPosition{};
  add(pos.line, pos.column, std::move(field), std::move(message));
}

void ConfigErrors::add(int line, int column, std::string field, std::string message) {
  issues_.push_back({file_, line, column, std::move(field), std::move(message)});
}

std::string ConfigErrors::format() const {
  auto sorted = issues_;
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
    return std::tie(a.line, a.column) < std::tie(b.line, b.column);
  });
  std::string out;
  for (const auto& issue : sorted) {
    if (!out.empty()) out += '\n';
    out += format_issue(issue);
  }
  return out;
}

Error ConfigErrors::to_error() const {
  const auto n = issues_.size();
  std::string head = std::to_string(n) + (n == 1 ? " error" : " errors") + " in " + file_ + ":\n";
  return make_error(head + format(), ExitCode::usage_error);
}

Result<YAML::Node> load_yaml_text(const std::string& text, const std::string& name) {
  try {
    return YAML::Load(text);
  } catch (const YAML::Exception& e) {
    auto pos = compat::position_of(e.mark);
    ConfigErrors errors(name);
    errors.add(pos.line, pos.column, "", "invalid YAML: " + e.msg);
    return make_error(errors.format(), ExitCode::usage_error);
  }
}

Result<YAML::Node> load_yaml_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error(path + ": cannot read file", ExitCode::usage_error);
  std::ostringstream text;
  text << in.rdbuf();
  return load_yaml_text(text.str(), path);
}

void reject_unknown_keys(const YAML::Node& map, std::span<const std::string_view> allowed,
                         const std::string& field_prefix, ConfigErrors& errors) {
  if (!map.IsMap()) return;
  std::set<std::string> seen;
  for (const auto& entry : map) {
    const auto& key_node = entry.first;
    const std::string key = key_node.Scalar();
    const std::string field = field_prefix.empty() ? key : field_prefix + "." + key;
    if (!seen.insert(key).second) {
      errors.add(key_node, field, "duplicate key '" + key + "'");
      continue;
    }
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    std::string message = "unknown key '" + key + "'";
    if (auto hint = closest_match(key, allowed)) message += " (did you mean '" + *hint + "'?)";
    else {
      std::vector<std::string> names(allowed.begin(), allowed.end());
      message += " (allowed: " + join(names, ", ") + ")";
    }
    errors.add(key_node, field, message);
  }
}

namespace {

bool is_plain(const YAML::Node& node) { return node.Tag() == "?"; }

bool plain_bool(const std::string& s, bool& value) {
  if (s == "true" || s == "True" || s == "TRUE") { value = true; return true; }
  if (s == "false" || s == "False" || s == "FALSE") { value = false; return true; }
  return false;
}

bool plain_null(const std::string& s) { return s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL"; }

}  // namespace

std::string describe_node(const YAML::Node& node) {
  if (!node || node.IsNull()) return "nothing";
  if (node.IsSequence()) return "a list";
  if (node.IsMap()) return "a map";
  const auto& s = node.Scalar();
  if (!is_plain(node)) return "the string \"" + s + "\"";
  bool b = false;
  if (plain_bool(s, b)) return s + " (a boolean)";
  return "'" + s + "'";
}

std::optional<std::string> read_string(const YAML::Node& node, const std::string& field,
                                       ConfigErrors& errors, const YAML::Node* key) {
  if (node.IsScalar() && !(is_plain(node) && plain_null(node.Scalar()))) return node.Scalar();
  errors.add(node, field, "expected a string, got " + describe_node(node), key);
  return std::nullopt;
}

std::optional<std::int64_t> read_int(const YAML::Node& node, const std::string& field,
                                     ConfigErrors& errors, const YAML::Node* key) {
  static const std::regex integer("[-+]?[0-9]+");
  if (node.IsScalar() && std::regex_match(node.Scalar(), integer)) {
    if (!is_plain(node)) {
      errors.add(node, field, "expected an integer, got " + describe_node(node) + " (remove the quotes)", key);
      return std::nullopt;
    }
    try {
      return std::stoll(node.Scalar());
    } catch (const std::out_of_range&) {
      errors.add(node, field, "integer out of range: " + node.Scalar(), key);
      return std::nullopt;
    }
  }
  errors.add(node, field, "expected an integer, got " + describe_node(node), key);
  return std::nullopt;
}

std::optional<double> read_number(const YAML::Node& node, const std::string& field,
                                  ConfigErrors& errors, const YAML::Node* key) {
  static const std::regex number("[-+]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][-+]?[0-9]+)?");
  if (node.IsScalar() && is_plain(node) && std::regex_match(node.Scalar(), number))
    return std::stod(node.Scalar());
  errors.add(node, field, "expected a number, got " + describe_node(node), key);
  return std::nullopt;
}

std::optional<bool> read_bool(const YAML::Node& node, const std::string& field,
                              ConfigErrors& errors, const YAML::Node* key) {
  bool value = false;
  if (node.IsScalar() && plain_bool(node.Scalar(), value)) {
    if (is_plain(node)) return value;
    errors.add(node, field, "expected true or false, got " + describe_node(node) + " (remove the quotes)", key);
    return std::nullopt;
  }
  errors.add(node, field, "expected true or false, got " + describe_node(node), key);
  return std::nullopt;
}

std::optional<std::vector<std::string>> read_string_list(const YAML::Node& node,
                                                         const std::string& field,
                                                         ConfigErrors& errors,
                                                         const YAML::Node* key) {
  if (!node.IsSequence()) {
    errors.add(node, field, "expected a list, got " + describe_node(node), key);
    return std::nullopt;
  }
  std::vector<std::string> items;
  bool ok = true;
  for (std::size_t i = 0; i < node.size(); ++i) {
    const auto item = node[i];
    const std::string item_field = field + "[" + std::to_string(i) + "]";
    if (!item.IsScalar() || (is_plain(item) && plain_null(item.Scalar()))) {
      errors.add(item, item_field, "expected a string, got " + describe_node(item));
      ok = false;
      continue;
    }
    items.push_back(item.Scalar());
  }
  if (!ok) return std::nullopt;
  return items;
}

}  // namespace gatekit
