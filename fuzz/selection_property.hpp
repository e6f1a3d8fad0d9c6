#pragma once
// The property both the libFuzzer target (fuzz/selection.cpp) and the deterministic CTest
// (tests/core/test_selection_fuzz.cpp) check for the selection file (gatekit/selection.hpp): any
// YAML is either refused as a usage error naming the file, or gives legs with unique, valid
// names whose marker expressions, in every context, are ones pytest may be given as the
// value of -m (no leading '-', no control characters: expression_problem finds nothing).
#include <set>
#include <string>
#include <string_view>

#include "config_errors.hpp"
#include "gatekit/selection.hpp"

namespace gatekit::fuzzing {

inline bool valid_leg_name(std::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  const auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); };
  if (!alnum(name.front())) return false;
  for (char c : name) {
    if (!alnum(c) && c != '_' && c != '.' && c != '-') return false;
  }
  return true;
}

inline std::string expressions_violation(const selection::Selection& s) {
  using namespace gatekit::selection;
  for (const auto context : kContexts) {
    for (const auto& leg : s.legs) {
      const auto e = leg_expression(s, leg, context);
      if (auto p = expression_problem(e); !p.empty()) return "leg " + leg.name + " gives -m '" + e + "': " + p;
    }
    if (const auto e = universe_expression(s, context); !e.empty() && !expression_problem(e).empty())
      return "the universe expression '" + e + "': " + expression_problem(e);
    if (const auto e = docs_expression(s, context); !e.empty() && !expression_problem(e).empty())
      return "the docs expression '" + e + "': " + expression_problem(e);
  }
  return "";
}

inline std::string selection_property_violation(std::string_view input) {
  using namespace gatekit::selection;
  const auto selection = load_selection_text(std::string(input), "fuzz.yml");
  if (!selection) return config_error_violation(selection.error(), "fuzz.yml");
  const auto& s = *selection;
  if (s.legs.empty()) return "accepted a selection without legs";
  std::set<std::string> names;
  for (const auto& leg : s.legs) {
    if (!valid_leg_name(leg.name)) return "accepted the leg name '" + leg.name + "'";
    if (!names.insert(leg.name).second) return "accepted the leg '" + leg.name + "' twice";
  }
  for (const auto& context : s.nightly_contexts) {
    if (!known_context(context)) return "accepted the unknown context '" + context + "'";
  }
  if (s.docs && s.find_leg(s.docs->leg) == nullptr) return "docs name the unknown leg '" + s.docs->leg + "'";
  return expressions_violation(s);
}

}  // namespace gatekit::fuzzing
