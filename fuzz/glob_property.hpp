#pragma once
// The property the glob fuzz target (fuzz/glob.cpp) checks, shared with the deterministic
// CTest (tests/core/test_glob_fuzz_property.cpp) so g++ builds exercise it too.
//
// Input: "<pattern>\n<path>" (no newline: the whole input is the pattern, matched against
// a few fixed paths). For both dialects: compiling never crashes; a compiled pattern matches
// without super-linear work (counted steps <= 2 * size * (len(path) + 1), and in the github
// dialect size <= 3 * len(pattern) + 2, so steps <= C * len(pattern) * len(path)); the
// list DFA agrees with pattern-by-pattern evaluation.
#include <string>
#include <string_view>
#include <vector>

#include "gatekit/glob.hpp"

namespace gatekit::fuzzing {

inline std::string glob_property_violation(std::string_view input) {
  using namespace gatekit::glob;
  std::string_view pattern = input;
  std::vector<std::string> paths{"a", "src/a/b.js", "docs/README.md", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaab"};
  if (auto nl = input.find('\n'); nl != std::string_view::npos) {
    pattern = input.substr(0, nl);
    paths = {std::string(input.substr(nl + 1))};
  }
  for (auto dialect : {Dialect::github, Dialect::picomatch}) {
    auto compiled = Pattern::compile(pattern, dialect);
    if (std::holds_alternative<PatternError>(compiled)) continue;
    const auto& p = std::get<Pattern>(compiled);
    if (dialect == Dialect::github && p.size() > 3 * pattern.size() + 2)
      return "github automaton of size " + std::to_string(p.size()) + " for a pattern of length " +
             std::to_string(pattern.size());
    std::vector<Pattern> ps{p};
    PatternList list(std::move(ps), dialect);
    for (const auto& path : paths) {
      MatchStats stats;
      const bool body = p.body_matches(path, &stats);
      const auto bound = 2 * p.size() * (path.size() + 1);
      if (stats.steps > bound)
        return "super-linear: " + std::to_string(stats.steps) + " steps > " + std::to_string(bound) + " for '" +
               std::string(pattern) + "' (" + std::string(to_string(dialect)) + ")";
      const auto fast = list.evaluate(path);
      const auto slow = list.evaluate_slow(path);
      if (fast.included != slow.included || fast.decisive != slow.decisive)
        return "list DFA disagrees with the reference for '" + std::string(pattern) + "' on '" + path + "'";
      if (dialect == Dialect::github && fast.included != (body && !p.negated()))
        return "list verdict disagrees with the pattern for '" + std::string(pattern) + "'";
    }
  }
  return "";
}

}  // namespace gatekit::fuzzing
