#pragma once
// The property both the libFuzzer target (fuzz/rules.cpp) and the deterministic CTest
// (tests/path-classifier/test_rules_fuzz.cpp) check for the path gate's rules loader: any
// YAML either is refused as a usage error naming the file, or loads into filters whose
// merged automaton (the DFA every changed path runs through) decides exactly like the
// pattern-by-pattern reference, on paths made from the rules' own patterns.
// The first byte chooses the dialect override (none, github, picomatch); the rest is YAML.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config_errors.hpp"
#include "entry.hpp"
#include "rules.hpp"

namespace gatekit::fuzzing {

// Paths a filter's patterns are likely to decide on: each pattern's text with its glob
// syntax spelled literally, with wildcards filled in, and with a folder put in front.
inline std::vector<std::string> paths_near(const path_classifier::Filter& filter) {
  std::vector<std::string> out{"a", "docs/x.md", "src/main.cpp", ".github/workflows/ci.yml"};
  for (const auto* list : {&filter.paths, &filter.always}) {
    for (const auto& p : *list) {
      std::string literal, filled;
      for (char c : std::string_view(p.text).substr(!p.text.empty() && p.text[0] == '!' ? 1 : 0)) {
        literal += c;
        if (c == '*' || c == '?') filled += 'x';
        else if (c != '[' && c != ']' && c != '{' && c != '}' && c != '(' && c != ')' && c != '!') filled += c;
      }
      for (const auto& s : {literal, filled, "deep/" + filled}) out.push_back(glob::normalize_path(s));
    }
  }
  return out;
}

inline std::string list_violation(const glob::PatternList& list, const std::vector<std::string>& paths) {
  std::vector<std::string_view> views(paths.begin(), paths.end());
  std::vector<glob::ListVerdict> many(views.size());
  list.evaluate_many(views.data(), views.size(), many.data());
  for (std::size_t i = 0; i < paths.size(); ++i) {
    const auto fast = list.evaluate(paths[i]);
    const auto slow = list.evaluate_slow(paths[i]);
    if (fast.included != slow.included || fast.decisive != slow.decisive)
      return "the DFA and the reference disagree on '" + paths[i] + "'";
    if (many[i].included != fast.included || many[i].decisive != fast.decisive)
      return "evaluate_many and evaluate disagree on '" + paths[i] + "'";
  }
  return "";
}

inline std::string rules_property_violation(std::string_view input) {
  using namespace gatekit::path_classifier;
  const unsigned char pick = selector(input) % 3;
  const std::optional<glob::Dialect> dialect =
      pick == 0 ? std::nullopt : std::optional(pick == 1 ? glob::Dialect::github : glob::Dialect::picomatch);
  const auto rules = load_rules_text(std::string(after_selector(input)), "fuzz.yml", dialect);
  if (!rules) return config_error_violation(rules.error(), "fuzz.yml");
  for (const auto& filter : rules->filters) {
    if (filter.name.empty()) return "accepted a filter without a name";
    const auto paths = paths_near(filter);
    if (auto v = list_violation(filter.list, paths); !v.empty()) return "filter " + filter.name + ": " + v;
    if (auto v = list_violation(filter.always_list, paths); !v.empty()) return "filter " + filter.name + " always: " + v;
  }
  return "";
}

}  // namespace gatekit::fuzzing
