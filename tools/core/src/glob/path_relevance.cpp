// Whether a changed path makes a filter relevant: the one rule of gatekit/path_rules.hpp.
#include <algorithm>

#include "gatekit/path_rules.hpp"

namespace gatekit::path_rules {

namespace {

bool applies(const PatternSource& p, std::string_view type) {
  return p.change_types.empty() || type.empty() ||
         std::find(p.change_types.begin(), p.change_types.end(), type) != p.change_types.end();
}

// One list on one path: pattern by pattern when the filter needs it, else the list's automaton
// (the same verdict, path-classifier's tests hold the two together).
glob::ListVerdict verdict(const Filter& f, const std::vector<PatternSource>& sources, const glob::PatternList& list,
                          Quantifier q, std::string_view path, std::string_view type) {
  if (list.empty()) return {};
  if (f.per_pattern) return judge(sources, list, q, path, type);
  return list.evaluate(path);
}

}  // namespace

std::string_view change_type(std::string_view s, bool previous) {
  if (s == "R" || s == "renamed") return previous ? "deleted" : "added";
  if (s == "A" || s == "added") return "added";
  if (s == "M" || s == "modified") return "modified";
  if (s == "D" || s == "removed" || s == "deleted") return "deleted";
  if (s == "C" || s == "copied") return "copied";
  if (s == "T" || s == "changed") return "changed";
  if (s == "U" || s == "unmerged") return "unmerged";
  if (s == "unchanged") return "unchanged";
  return "";
}

const Filter* Rules::find(std::string_view name) const {
  for (const auto& f : filters)
    if (f.name == name) return &f;
  return nullptr;
}

glob::ListVerdict judge(const std::vector<PatternSource>& sources, const glob::PatternList& list, Quantifier q,
                        std::string_view path, std::string_view type) {
  const auto& patterns = list.patterns();
  glob::ListVerdict v;
  for (std::size_t i = 0; i < patterns.size(); ++i) {
    const int index = static_cast<int>(i);
    const bool ok = applies(sources[i], type);
    if (q == Quantifier::every) {
      if (!ok || !patterns[i].matches(path)) return {false, index};
      v = {true, index};
    } else if (list.dialect() == glob::Dialect::github) {
      if (ok && patterns[i].body_matches(path)) v = {!patterns[i].negated(), index};
    } else if (ok && patterns[i].matches(path)) {
      return {true, index};
    }
  }
  return v;
}

bool list_relevant(Mode mode, const glob::ListVerdict& listed) { return (mode == Mode::allow) == listed.included; }

bool relevant(const Filter& f, const glob::ListVerdict& always, const glob::ListVerdict& listed) {
  return always.included || list_relevant(f.mode, listed);
}

PathRelevance relevance(const Filter& f, std::string_view path, std::string_view type) {
  const auto always = verdict(f, f.always, f.always_list, Quantifier::some, path, type);
  if (always.included) return {true, true, always.decisive};
  const auto listed = verdict(f, f.paths, f.list, f.quantifier, path, type);
  return {relevant(f, always, listed), false, listed.decisive};
}

}  // namespace gatekit::path_rules
