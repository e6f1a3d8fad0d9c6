// Matrix legs and the check names they report (check_names.hpp).
#include "check_names.hpp"

#include <algorithm>

namespace gatekit::gatekit_doctor {

namespace {

constexpr std::size_t kMaxLegs = 256;

// GitHub's match of a matrix value against an exclude or include value: maps by the keys the
// pattern names, lists by their first items, scalars by value.
bool matches_value(const expr::Value& pattern, const expr::Value& value) {
  using K = expr::Value::Kind;
  if (pattern.kind != value.kind) return false;
  switch (pattern.kind) {
    case K::object:
      return std::all_of(pattern.fields.begin(), pattern.fields.end(), [&](const auto& field) {
        auto it = value.fields.find(field.first);
        return it != value.fields.end() && matches_value(field.second, it->second);
      });
    case K::array:
      if (pattern.items.size() > value.items.size()) return false;
      for (std::size_t i = 0; i < pattern.items.size(); ++i)
        if (!matches_value(pattern.items[i], value.items[i])) return false;
      return true;
    case K::string: return pattern.string == value.string;
    case K::number: return pattern.number == value.number;
    case K::boolean: return pattern.boolean == value.boolean;
    case K::null: return true;
    case K::unknown: return false;
  }
  return false;
}

// The scalars of a value, depth first, as GitHub lists them in a leg's name.
void scalars(const expr::Value& value, std::vector<std::string>& out) {
  if (value.kind == expr::Value::Kind::array) {
    for (const auto& item : value.items) scalars(item, out);
  } else if (value.kind == expr::Value::Kind::object) {
    for (const auto& [k, v] : value.fields) scalars(v, out);
  } else {
    auto text = expr::to_text(value);
    if (!text.empty()) out.push_back(std::move(text));
  }
}

struct Combination {
  Entries values;  // original values first, then those includes added
};

const expr::Value* entry_of(const Entries& entries, std::string_view key) {
  auto it = std::find_if(entries.begin(), entries.end(), [&](const auto& e) { return e.first == key; });
  return it == entries.end() ? nullptr : &it->second;
}

Leg leg_of(const Entries& values, const std::vector<std::string>& shown_keys, bool show_all) {
  Leg leg;
  for (const auto& [k, v] : values) leg.values[k] = v;
  if (show_all) {
    for (const auto& [k, v] : values) scalars(v, leg.suffix);
  } else {
    for (const auto& key : shown_keys)
      if (const auto* v = entry_of(values, key)) scalars(*v, leg.suffix);
  }
  return leg;
}

}  // namespace

Expansion expand(const std::optional<Matrix>& matrix) {
  Expansion out;
  if (!matrix) {
    out.legs.push_back({});
    return out;
  }
  if (matrix->computed) {
    out.computed = true;
    return out;
  }
  std::vector<Combination> flat{Combination{}};
  std::vector<std::string> keys;
  for (const auto& [key, values] : matrix->axes) {
    keys.push_back(key);
    std::vector<Combination> next;
    for (const auto& combination : flat)
      for (const auto& value : values) {
        auto more = combination;
        more.values.emplace_back(key, value);
        next.push_back(std::move(more));
      }
    flat = std::move(next);
    if (flat.size() > 65536) {
      out.error = "the matrix has more than " + std::to_string(kMaxLegs) + " legs";
      return out;
    }
  }
  for (const auto& exclude : matrix->exclude) {
    for (const auto& [key, value] : exclude)
      if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
        out.error = "exclude names '" + key + "', which is not a list of the matrix";
        return out;
      }
    flat.erase(std::remove_if(flat.begin(), flat.end(),
                              [&](const Combination& c) {
                                return std::all_of(exclude.begin(), exclude.end(), [&](const auto& e) {
                                  const auto* v = entry_of(c.values, e.first);
                                  return v != nullptr && matches_value(e.second, *v);
                                });
                              }),
               flat.end());
  }
  if (flat.empty()) {
    flat.push_back({});
    keys.clear();
  }
  std::vector<Entries> include_only;
  for (const auto& include : matrix->include) {
    bool matched = false;
    if (!keys.empty()) {
      for (auto& combination : flat) {
        const bool agrees = std::all_of(keys.begin(), keys.end(), [&](const std::string& key) {
          const auto* wanted = entry_of(include, key);
          return wanted == nullptr || matches_value(*wanted, *entry_of(combination.values, key));
        });
        if (!agrees) continue;
        matched = true;
        for (const auto& added : include) {
          if (std::find(keys.begin(), keys.end(), added.first) != keys.end()) continue;
          auto it = std::find_if(combination.values.begin(), combination.values.end(),
                                 [&](const auto& e) { return e.first == added.first; });
          if (it != combination.values.end()) it->second = added.second;
          else combination.values.push_back(added);
        }
      }
    }
    if (!matched) include_only.push_back(include);
  }
  if (!keys.empty() || include_only.empty())
    for (const auto& combination : flat) out.legs.push_back(leg_of(combination.values, keys, false));
  for (const auto& include : include_only) out.legs.push_back(leg_of(include, {}, true));
  if (out.legs.size() > kMaxLegs) {
    out.error = "the matrix has " + std::to_string(out.legs.size()) + " legs, over GitHub's " +
                std::to_string(kMaxLegs);
    out.legs.clear();
  }
  return out;
}

bool NamePattern::exact() const {
  return std::none_of(pieces.begin(), pieces.end(), [](const expr::TextPiece& p) { return p.unknown; });
}

std::string NamePattern::text() const {
  std::string out;
  for (const auto& p : pieces) out += p.unknown ? "*" : p.text;
  return out;
}

bool NamePattern::matches(std::string_view name) const {
  // Literal runs between the unknown parts: the first anchored at the start unless a `*` comes
  // first, the last at the end unless a `*` comes last, the others found leftmost in order
  // (for patterns of `*` alone that is exact, and linear in the name).
  std::vector<std::string> runs{""};
  bool leading_star = false;
  bool trailing_star = false;
  for (const auto& piece : pieces) {
    if (piece.unknown) {
      if (runs.size() == 1 && runs.back().empty()) leading_star = true;
      if (!runs.back().empty()) runs.emplace_back();
      trailing_star = true;
    } else if (!piece.text.empty()) {
      runs.back() += piece.text;
      trailing_star = false;
    }
  }
  if (runs.back().empty() && runs.size() > 1) runs.pop_back();
  if (!leading_star && !trailing_star && runs.size() == 1) return name == runs[0];
  std::size_t at = 0;
  std::size_t first = 0;
  std::size_t last = runs.size();
  if (!leading_star) {
    if (name.substr(0, runs[0].size()) != runs[0]) return false;
    at = runs[0].size();
    first = 1;
  }
  std::size_t end = name.size();
  if (!trailing_star && last > first) {
    const auto& tail = runs[last - 1];
    if (tail.size() > end - at || name.substr(end - tail.size()) != tail) return false;
    end -= tail.size();
    --last;
  }
  for (std::size_t i = first; i < last; ++i) {
    const auto found = name.substr(0, end).find(runs[i], at);
    if (found == std::string_view::npos) return false;
    at = found + runs[i].size();
  }
  return true;
}

namespace {

std::vector<NamePattern> job_names(const Job& job, const expr::Contexts& contexts) {
  std::vector<NamePattern> out;
  const auto expansion = expand(job.matrix);
  const bool templated = job.name_template && job.name_template->has_expression();
  if (expansion.computed) {
    auto with_matrix = contexts;
    with_matrix["matrix"] = expr::Value::unknown();
    if (templated) out.push_back({expr::render(*job.name_template, with_matrix)});
    else out.push_back({{{job.display_name() + " (", false}, {"", true}, {")", false}}});
    return out;
  }
  for (const auto& leg : expansion.legs) {
    if (templated) {
      auto with_matrix = contexts;
      with_matrix["matrix"] = leg.values.empty() ? expr::Value::null() : expr::Value::object(leg.values);
      out.push_back({expr::render(*job.name_template, with_matrix)});
      continue;
    }
    std::string name = job.display_name();
    if (!leg.suffix.empty()) {
      name += " (";
      for (std::size_t i = 0; i < leg.suffix.size(); ++i) name += (i == 0 ? "" : ", ") + leg.suffix[i];
      name += ")";
    }
    out.push_back({{{name, false}}});
  }
  return out;
}

const WorkflowFile* local_workflow(const std::string& uses, const std::vector<WorkflowFile>& workflows) {
  if (uses.rfind("./", 0) != 0) return nullptr;
  const auto path = uses.substr(2, uses.find('@') == std::string::npos ? std::string::npos : uses.find('@') - 2);
  auto it = std::find_if(workflows.begin(), workflows.end(), [&](const WorkflowFile& w) { return w.path == path; });
  return it == workflows.end() ? nullptr : &*it;
}

}  // namespace

std::vector<NamePattern> check_names(const Job& job, const expr::Contexts& contexts,
                                     const std::vector<WorkflowFile>& workflows) {
  auto names = job_names(job, contexts);
  if (job.uses.empty()) return names;
  // A reusable workflow: each of its jobs reports as `caller / callee`; one this doctor
  // cannot read (another repository's) as `caller / *`.
  std::vector<NamePattern> out;
  const auto* callee = local_workflow(job.uses, workflows);
  for (const auto& caller : names) {
    if (callee == nullptr) {
      auto pattern = caller;
      pattern.pieces.push_back({" / ", false});
      pattern.pieces.push_back({"", true});
      out.push_back(std::move(pattern));
      continue;
    }
    for (const auto& inner : callee->jobs) {
      if (!inner.uses.empty()) continue;  // nested calls: not followed
      for (const auto& name : job_names(inner, contexts)) {
        auto pattern = caller;
        pattern.pieces.push_back({" / ", false});
        pattern.pieces.insert(pattern.pieces.end(), name.pieces.begin(), name.pieces.end());
        out.push_back(std::move(pattern));
      }
    }
  }
  return out;
}

}  // namespace gatekit::gatekit_doctor
