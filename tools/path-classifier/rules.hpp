#pragma once
// The path gate's rules: named filters over ordered glob lists, loaded from YAML with
// every error located (file:line:col) and hinted. Invalid rules are a usage error: a broken
// gate must fail loudly, never guess.
#include <optional>
#include <string>
#include <vector>

#include "gatekit/compat.hpp"
#include "gatekit/config.hpp"
#include "gatekit/glob.hpp"
#include "gatekit/result.hpp"

namespace gatekit::path_classifier {

enum class Mode {
  allow,  // relevant when some changed path is in the list (like `paths`)
  deny,   // relevant unless every changed path is in the list (like `paths-ignore`)
};
std::string_view to_string(Mode mode);

// One pattern as written, and where.
struct PatternSource {
  std::string text;
  int line = 0;
  int column = 0;
  std::optional<glob::Pattern> compiled;  // as validated (reused when the dialect matches)
};

struct Filter {
  std::string name;
  Mode mode = Mode::allow;
  std::string category;  // "docs" / "concurrency" when the filter takes a built-in category
  glob::Dialect dialect = glob::Dialect::github;  // of `paths`; categories are always github
  std::vector<PatternSource> paths;
  std::vector<PatternSource> always;  // a change to any of these makes the filter relevant
  glob::PatternList list;
  glob::PatternList always_list;
};

struct Rules {
  std::string origin;  // the rules file, or "filters input"
  glob::Dialect dialect = glob::Dialect::github;
  // Non-pull-request events (push, schedule, dispatch): every filter is relevant unless
  // `non-pr-events: evaluate` asks to diff them (push before..after).
  bool evaluate_non_pr = false;
  std::vector<Filter> filters;
  std::vector<ConfigIssue> warnings;  // valid but suspicious patterns
};

// Rules from YAML text; `origin` names it in messages. `dialect` (the action input or
// --dialect) overrides the rules' own `dialect:` key when given.
Result<Rules> load_rules_text(const std::string& text, const std::string& origin,
                              std::optional<glob::Dialect> dialect);
Result<Rules> load_rules_file(const std::string& path, std::optional<glob::Dialect> dialect);

}  // namespace gatekit::path_classifier
