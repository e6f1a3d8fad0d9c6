#pragma once
// YAML configuration loading. Errors name file, line, column and the field's path
// (`smokes[1].min_gpus`); validation collects every error and reports them together.
//
// yaml-cpp is only declared here, not included: a header that needs ConfigIssue (a tool's
// rules.hpp) stays light. The .cpp files that read YAML trees include gatekit/yaml.hpp.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gatekit/result.hpp"

namespace YAML {
class Node;
}

namespace gatekit {

class Files;

struct ConfigIssue {
  std::string file;
  int line = 0;    // 1-based, 0 unknown
  int column = 0;  // 1-based, 0 unknown
  std::string field;  // path of the field, e.g. smokes[1].min_gpus; empty for the document
  std::string message;
};

// "file:line:col: field: message"
std::string format_issue(const ConfigIssue& issue);

class ConfigErrors {
 public:
  explicit ConfigErrors(std::string file) : file_(std::move(file)) {}
  // Locates the error at `at`; a null value has no position of its own in yaml-cpp, so the
  // error is placed at `key` (the value's key) when given.
  void add(const YAML::Node& at, std::string field, std::string message,
           const YAML::Node* key = nullptr);
  void add(int line, int column, std::string field, std::string message);
  bool empty() const { return issues_.empty(); }
  const std::vector<ConfigIssue>& issues() const { return issues_; }
  const std::string& file() const { return file_; }
  // Every issue on its own line, in document order.
  std::string format() const;
  // An Error (bad_input) carrying format(), for Result-returning loaders.
  Error to_error() const;

 private:
  std::string file_;
  std::vector<ConfigIssue> issues_;
};

// The most nodes a config document may expand to, aliases expanded (each `*alias` counts
// every node of its anchor again). Generous for any real rules file or manifest; it stops a
// small file of nested aliases ("billion laughs") from expanding to gigabytes.
inline constexpr std::uint64_t kMaxConfigNodes = 1'000'000;

// Parses the first YAML document. Errors are usage errors naming file, line and column: a
// syntax error; every duplicate key of any map (yaml-cpp would keep both, and readers take
// one or the other); an alias inside the node it names; a document that expands to more
// than kMaxConfigNodes nodes (a text with anchors, or a long one, is checked in an event
// pass before any tree is built; a short one without anchors, which cannot reach the limit,
// is parsed once and checked on its tree, with the event pass only to word an error).
// load_yaml_file reads through the files seam; an unreadable file is a bad_input error in its
// wording ("cannot read rules.yml: No such file or directory").
Result<YAML::Node> load_yaml_file(const Files& files, const std::string& path);
Result<YAML::Node> load_yaml_text(const std::string& text, const std::string& name);

// Adds an error for every key of `map` not in `allowed`, with a "did you mean" hint.
void reject_unknown_keys(const YAML::Node& map, std::span<const std::string_view> allowed,
                         const std::string& field_prefix, ConfigErrors& errors);

// Strict scalar readers. Each returns nullopt and records an error when the node has the
// wrong type; quoted scalars are strings, never numbers or booleans. `key` (optional) is the
// value's key node, used to place errors about empty values.
std::optional<std::string> read_string(const YAML::Node& node, const std::string& field,
                                       ConfigErrors& errors, const YAML::Node* key = nullptr);
std::optional<std::int64_t> read_int(const YAML::Node& node, const std::string& field,
                                     ConfigErrors& errors, const YAML::Node* key = nullptr);
std::optional<bool> read_bool(const YAML::Node& node, const std::string& field,
                              ConfigErrors& errors, const YAML::Node* key = nullptr);
std::optional<double> read_number(const YAML::Node& node, const std::string& field,
                                  ConfigErrors& errors, const YAML::Node* key = nullptr);
// A sequence of scalars; each is taken as text (numbers and booleans too).
std::optional<std::vector<std::string>> read_string_list(const YAML::Node& node,
                                                         const std::string& field,
                                                         ConfigErrors& errors,
                                                         const YAML::Node* key = nullptr);

// How YAML spelled a node, for messages: "'two' (a string)", "a list", "a map".
std::string describe_node(const YAML::Node& node);

}  // namespace gatekit
