#pragma once
// The path gate's rules file (docs/actions/path-gate.md, "Rules"): named filters over ordered
// glob lists, loaded from YAML with every error located (file:line:col) and hinted, and the
// one rule that says whether a changed path makes a filter relevant. Shared by the path gate
// (path-classifier, which decides per change and explains) and the GPU gate (gpu-gate, which
// asks of the path gate's `gpu` filter whether a change needs a GPU result: docs/gpu-gate.md,
// "What needs a GPU result"), so the two can never read one rules file two ways.
//
// Invalid rules are bad_input: a broken gate must fail loudly, never guess.
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gatekit/config.hpp"
#include "gatekit/glob.hpp"
#include "gatekit/result.hpp"

namespace gatekit::path_rules {

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

// The change type of one side of a change as dorny/paths-filter names it, from the GitHub API's
// `status` word or git's `--name-status`/`--raw` letter: added, modified, deleted, copied,
// changed (git's type change T), unmerged, unchanged. A rename is its old path `deleted`
// (`previous`) and its new path `added`. "" when the status is unknown (a plain list): then
// every change-type rule applies, since a gate that cannot tell must not call a relevant change
// irrelevant.
std::string_view change_type(std::string_view status, bool previous);

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
  // pattern by pattern (judge) instead of through `list`'s merged automaton.
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

  const Filter* find(std::string_view name) const;
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

// One list's verdict on one path changed as `type` (change_type's names; "" unknown), judged
// pattern by pattern: change-type rules apply only to paths of their types. some: the
// dialect's list semantics (github: the last applying match wins; picomatch: any applying
// match); every: each pattern applies and matches on its own (paths-filter).
glob::ListVerdict judge(const std::vector<PatternSource>& sources, const glob::PatternList& list, Quantifier quantifier,
                        std::string_view path, std::string_view type);

// Whether a change of `path` (of change type `type`, "" unknown) makes `filter` relevant: a
// match in its `always` list, else its `paths` (allow: the path is included; deny: it is not
// excluded). A change is relevant to the filter exactly when one of its paths (either side of
// a rename) is; self-protection (a change to the rules file itself) is the caller's, who knows
// which file that is. The path gate's decision (path-classifier) and the GPU gate's "needs a
// GPU result" (gpu-gate) both come down to this.
// The rule on one path's two verdicts, its `always` list's and its `paths` list's: relevant when
// `always` includes it, else (allow) when the list includes it, (deny) when the list does not
// exclude it. path-classifier applies it to its batched verdicts, `relevance` to one path.
bool list_relevant(Mode mode, const glob::ListVerdict& listed);
bool relevant(const Filter& filter, const glob::ListVerdict& always, const glob::ListVerdict& listed);

struct PathRelevance {
  bool relevant = false;
  bool from_always = false;  // decided by the `always` list
  int pattern = -1;          // the deciding pattern's index in `paths` or `always` (-1: none)
};
PathRelevance relevance(const Filter& filter, std::string_view path, std::string_view type);

}  // namespace gatekit::path_rules
