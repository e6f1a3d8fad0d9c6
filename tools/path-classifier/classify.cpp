#include "classify.hpp"

#include <algorithm>
#include <filesystem>
#include <utility>
#include <string_view>

namespace gatekit::path_classifier {

std::string_view to_string(Reason reason) {
  switch (reason) {
    case Reason::included: return "included";
    case Reason::not_included: return "not-included";
    case Reason::not_excluded: return "not-excluded";
    case Reason::all_excluded: return "all-excluded";
    case Reason::always: return "always";
    case Reason::self_protect: return "self-protect";
    case Reason::fail_open: return "fail-open";
    case Reason::non_pr_event: return "non-pr-event";
  }
  return "fail-open";
}

std::vector<std::string> Decision::relevant() const {
  std::vector<std::string> out;
  for (const auto& f : filters)
    if (f.relevant) out.push_back(f.filter);
  return out;
}

std::vector<std::string_view> Decision::files_of(const FilterDecision& filter) const {
  std::vector<std::string_view> out;
  out.reserve(filter.files.size());
  for (const auto i : filter.files) out.emplace_back(paths[i]);
  return out;
}

std::vector<SidedPath> paths_of(const ChangeListing& listing) {
  std::vector<SidedPath> out;
  out.reserve(listing.files.size() * 2);
  for (const auto& f : listing.files) {
    out.push_back({&f.path, &f, false});
    const bool copy = f.status == "C" || f.status == "copied";
    if (!copy && !f.previous_path.empty() && f.previous_path != f.path)
      out.push_back({&f.previous_path, &f, true});
  }
  return out;
}

std::string_view change_type(const SidedPath& p) { return path_rules::change_type(p.file->status, p.previous); }

namespace {

std::string ticked(const std::string& s) { return "`" + s + "`"; }

std::string describe_path(const SidedPath& p) {
  std::string s = ticked(*p.path);
  if (p.previous) s += " (renamed to " + ticked(p.file->path) + ")";
  return s;
}

std::string plural(std::size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

void set_pattern(FilterDecision& d, const std::vector<PatternSource>& list, int index, bool always) {
  if (index < 0) return;
  const auto& p = list[static_cast<std::size_t>(index)];
  d.pattern = p.text;
  d.pattern_index = index;
  d.pattern_line = p.line;
  d.from_always = always;
}

// " (added|modified: the path is added)" when the deciding pattern is a change-type rule.
std::string typed(const std::vector<PatternSource>& list, int index, const SidedPath& p) {
  if (index < 0) return "";
  const auto& types = list[static_cast<std::size_t>(index)].change_types;
  if (types.empty()) return "";
  std::string joined;
  for (const auto& t : types) joined += (joined.empty() ? "" : "|") + t;
  const auto type = change_type(p);
  return " (" + joined + ": " + (type.empty() ? std::string("the listing gives no change type") :
                                                "the path is " + std::string(type)) + ")";
}

void set_file(FilterDecision& d, const SidedPath& p) {
  d.file = *p.path;
  if (p.previous) d.renamed_to = p.file->path;
}

// The verdicts of one list on every path, in order.
std::vector<glob::ListVerdict> verdicts(const Filter& f, const std::vector<PatternSource>& sources,
                                        const glob::PatternList& list, Quantifier q,
                                        const std::vector<SidedPath>& paths,
                                        const glob::PathBatch& batch) {
  std::vector<glob::ListVerdict> out(paths.size());
  if (list.empty() || paths.empty()) return out;
  if (!f.per_pattern) {
    list.evaluate_many(batch, out.data());
    return out;
  }
  const auto& views = batch.paths();
  for (std::size_t i = 0; i < paths.size(); ++i)
    out[i] = path_rules::judge(sources, list, q, views[i], change_type(paths[i]));
  return out;
}

struct Matches {
  std::vector<glob::ListVerdict> always;
  std::vector<glob::ListVerdict> list;
};

Matches match(const Filter& f, const std::vector<SidedPath>& paths, const glob::PathBatch& batch) {
  return {verdicts(f, f.always, f.always_list, Quantifier::some, paths, batch),
          verdicts(f, f.paths, f.list, f.quantifier, paths, batch)};
}

// Indices into `paths` (and Decision::paths, which holds the same paths in the same order).
std::vector<std::size_t> matched_files(const Filter& f, const Matches& m, const std::vector<SidedPath>& paths) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < paths.size(); ++i)
    if (path_rules::relevant(f, m.always[i], m.list[i])) out.push_back(i);
  return out;
}

// The first changed path (either side of a rename) that is a guarded file.
std::optional<std::pair<const SidedPath*, const GuardedFile*>> first_guarded(const std::vector<SidedPath>& paths,
                                                                            const std::vector<GuardedFile>& guarded) {
  for (const auto& p : paths)
    for (const auto& g : guarded)
      if (*p.path == g.path) return std::make_pair(&p, &g);
  return std::nullopt;
}

using Guarded = std::optional<std::pair<const SidedPath*, const GuardedFile*>>;

// Self-protect: a guarded file changed, so the filter is relevant whatever its patterns say.
void decide_by_guard(FilterDecision& d, const SidedPath& p, const GuardedFile& g) {
  d.relevant = true;
  d.reason = Reason::self_protect;
  set_file(d, p);
  d.why = describe_path(p) + " is " + g.what + ": a change to it makes every filter relevant (self-protect)";
}

// The first path in the `always` list makes the filter relevant; false when there is none.
bool decide_by_always(FilterDecision& d, const Filter& f, const std::vector<SidedPath>& paths, const Matches& m) {
  for (std::size_t i = 0; i < paths.size(); ++i) {
    const auto& p = paths[i];
    const auto& v = m.always[i];
    if (!v.included) continue;
    d.relevant = true;
    d.reason = Reason::always;
    set_file(d, p);
    set_pattern(d, f.always, v.decisive, true);
    d.why = describe_path(p) + " matches the always pattern " + ticked(d.pattern) + typed(f.always, v.decisive, p);
    return true;
  }
  return false;
}

// The first path that decides (allow: included; deny: not excluded) makes the filter
// relevant; false when no path decides.
bool decide_by_list(FilterDecision& d, const Filter& f, const std::vector<SidedPath>& paths,
                    const Matches& m) {
  for (std::size_t i = 0; i < paths.size(); ++i) {
    const auto& p = paths[i];
    const auto& v = m.list[i];
    if (!path_rules::list_relevant(f.mode, v)) continue;
    d.relevant = true;
    set_file(d, p);
    set_pattern(d, f.paths, v.decisive, false);
    if (f.mode == Mode::allow) {
      d.reason = Reason::included;
      d.why = f.quantifier == Quantifier::every
                  ? describe_path(p) + " matches every pattern (predicate-quantifier: every)"
                  : describe_path(p) + " is included by " + ticked(d.pattern) + typed(f.paths, v.decisive, p);
    } else {
      d.reason = Reason::not_excluded;
      d.why = v.decisive < 0 ? describe_path(p) + " matches no deny pattern"
                             : describe_path(p) + " is re-included by " + ticked(d.pattern) +
                                   typed(f.paths, v.decisive, p);
    }
    return true;
  }
  return false;
}

// No path decided: the filter is not relevant; the first path is the example of why.
void decide_not_relevant(FilterDecision& d, const Filter& f, const std::vector<SidedPath>& paths, const Matches& m) {
  const SidedPath* example = paths.empty() ? nullptr : &paths.front();
  const glob::ListVerdict example_verdict = paths.empty() ? glob::ListVerdict{} : m.list.front();
  d.relevant = false;
  if (f.mode == Mode::allow) {
    d.reason = Reason::not_included;
    d.why = paths.size() == 1 ? std::string("the only changed path is not included")
                              : "none of the " + plural(paths.size(), "changed path", "changed paths") + " is included";
    if (example != nullptr && example_verdict.decisive >= 0) {
      set_file(d, *example);
      set_pattern(d, f.paths, example_verdict.decisive, false);
      d.why += " (e.g. " + describe_path(*example) + " is excluded by " + ticked(d.pattern) + ")";
    }
  } else {
    d.reason = Reason::all_excluded;
    d.why = (paths.size() == 1 ? std::string("the only changed path is")
                               : "all " + plural(paths.size(), "changed path", "changed paths") + " are") +
            " excluded by the deny list";
    if (example != nullptr) {
      set_file(d, *example);
      set_pattern(d, f.paths, example_verdict.decisive, false);
      d.why += " (e.g. " + describe_path(*example) + " by " + ticked(d.pattern) + ")";
    }
  }
}

FilterDecision decide_filter(const Filter& f, const std::vector<SidedPath>& paths,
                             const glob::PathBatch& batch, const Guarded& guarded) {
  FilterDecision d;
  d.filter = f.name;
  d.mode = f.mode;
  d.paths_checked = paths.size();
  const auto m = match(f, paths, batch);
  d.files = matched_files(f, m, paths);
  if (guarded) decide_by_guard(d, *guarded->first, *guarded->second);
  else if (f.always_list.empty() || !decide_by_always(d, f, paths, m))
    if (!decide_by_list(d, f, paths, m)) decide_not_relevant(d, f, paths, m);
  return d;
}

}  // namespace

Decision decide(const Rules& rules, const ChangeListing& listing, const std::string& event_name,
                bool evaluate_event, const std::vector<GuardedFile>& guarded) {
  Decision out;
  out.event = event_name;
  out.source = listing.source;
  out.files = listing.files.size();
  out.fail_open = listing.fail_open;
  const auto paths = paths_of(listing);
  std::vector<std::string_view> views;
  views.reserve(paths.size());
  out.paths.reserve(paths.size());
  for (const auto& p : paths) {
    views.emplace_back(*p.path);
    out.paths.push_back(*p.path);
  }
  // Every filter's lists judge the same paths: their facts and folders are worked out once.
  const glob::PathBatch batch(std::move(views));
  auto files_of = [&](const Filter& f) { return matched_files(f, match(f, paths, batch), paths); };
  if (!evaluate_event) {
    for (const auto& f : rules.filters) {
      FilterDecision d;
      d.filter = f.name;
      d.mode = f.mode;
      d.reason = Reason::non_pr_event;
      d.why = "a " + event_name + " event is not a pull request: every filter is relevant";
      d.files = files_of(f);
      out.filters.push_back(std::move(d));
    }
    return out;
  }
  if (listing.fail_open) {
    for (const auto& f : rules.filters) {
      FilterDecision d;
      d.filter = f.name;
      d.mode = f.mode;
      d.reason = Reason::fail_open;
      d.why = "fail-open: " + *listing.fail_open;
      d.files = files_of(f);
      out.filters.push_back(std::move(d));
    }
    return out;
  }
  const auto hit = rules.self_protect ? first_guarded(paths, guarded) : std::nullopt;
  for (const auto& f : rules.filters) out.filters.push_back(decide_filter(f, paths, batch, hit));
  return out;
}

std::optional<std::string> workflow_path_from_ref(std::string_view ref) {
  // owner and repository names hold no '/', so the path starts after the second one; it
  // ends at the '@' that follows the workflow file's extension (a ref may hold '@' too).
  const auto owner_end = ref.find('/');
  if (owner_end == std::string_view::npos) return std::nullopt;
  const auto repo_end = ref.find('/', owner_end + 1);
  if (repo_end == std::string_view::npos || repo_end == owner_end + 1) return std::nullopt;
  const auto rest = ref.substr(repo_end + 1);
  for (std::string_view ext : {".yml@", ".yaml@"}) {
    const auto at = rest.find(ext);
    if (at == std::string_view::npos) continue;
    const auto path = rest.substr(0, at + ext.size() - 1);
    if (path.rfind(".github/workflows/", 0) != 0) return std::nullopt;
    return std::string(path);
  }
  return std::nullopt;
}

std::optional<std::string> path_inside(const std::string& file, const std::string& root) {
  const auto relative = std::filesystem::path(file).lexically_normal().lexically_relative(
      std::filesystem::path(root).lexically_normal());
  const auto text = relative.generic_string();
  if (text.empty() || text == "." || text == ".." || text.rfind("../", 0) == 0) return std::nullopt;
  return text;
}

}  // namespace gatekit::path_classifier
