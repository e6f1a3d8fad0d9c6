#pragma once
// The path gate's rules: named filters over ordered glob lists, loaded from YAML with
// every error located (file:line:col) and hinted. Invalid rules are a usage error: a broken
// gate must fail loudly, never guess.
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "gatekit/config.hpp"
#include "gatekit/glob.hpp"
#include "gatekit/result.hpp"

namespace gatekit::path_classifier {

enum class Mode {
  allow,  // relevant when some changed path is in the list (like `paths`)
  deny,   // relevant unless every changed path is in the list (like `paths-ignore`)
};
std::string_view to_string(Mode mode);

// How a filter's patterns combine on one path (dorny/paths-filter's `predicate-quantifier`):
// `some` is the dialect's own list semantics (github: ordered, the last matching pattern
// wins; picomatch: any pattern matches); `every`: every pattern, judged on its own, matches.
enum class Quantifier { some, every };
std::string_view to_string(Quantifier quantifier);
std::optional<Quantifier> parse_quantifier(std::string_view name);

// The change types of dorny/paths-filter's `added|modified: 'src/**'` rules, as it names them.
inline constexpr std::array<std::string_view, 7> kChangeTypes{"added",  "modified", "deleted", "renamed",
                                                              "copied", "changed",  "unmerged"};

// One pattern as written, and where.
struct PatternSource {
  std::string text;
  int line = 0;
  int column = 0;
  std::optional<glob::Pattern> compiled;  // as validated (reused when the dialect matches)
  // The change types the pattern applies to (`added|modified: pattern`), lower case; empty:
  // any change.
  std::vector<std::string> change_types;
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
  Quantifier quantifier = Quantifier::some;
  // Some pattern carries change types, or the quantifier is `every`: the decision then judges
  // pattern by pattern (classify.cpp) instead of through `list`'s merged automaton.
  bool per_pattern = false;
};

struct Rules {
  std::string origin;  // the rules file, or "filters input"
  glob::Dialect dialect = glob::Dialect::github;
  // Non-pull-request events (push, schedule, dispatch): every filter is relevant unless
  // `non-pr-events: evaluate` asks to diff them (push before..after).
  bool evaluate_non_pr = false;
  // Self-protection: a change to the rules file the gate read, or to the workflow running the
  // gate, makes every filter relevant. Off only through `self-protect: false`.
  bool self_protect = true;
  Quantifier quantifier = Quantifier::some;  // `predicate-quantifier:`
  std::vector<Filter> filters;
  std::vector<ConfigIssue> warnings;  // valid but suspicious patterns
};

// Rules from YAML text; `origin` names it in messages. `dialect` (the action input or
// --dialect) overrides the rules' own `dialect:` key when given, and `quantifier`
// (--predicate-quantifier) the rules' `predicate-quantifier:`.
//
// Two forms are read. gatekit's: a map with `filters:` and settings beside it. dorny/
// paths-filter's, accepted unchanged: a map with none of gatekit's top-level keys, every key
// a filter. In both, a filter may be a list whose items are patterns, change-type rules
// (`added|modified: pattern-or-list`) and nested lists (YAML anchors, `- *shared`),
// flattened in order.
Result<Rules> load_rules_text(const std::string& text, const std::string& origin,
                              std::optional<glob::Dialect> dialect,
                              std::optional<Quantifier> quantifier = std::nullopt);

}  // namespace gatekit::path_classifier
