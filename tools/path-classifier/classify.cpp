#include "classify.hpp"

#include <algorithm>
#include <string_view>

namespace gatekit::path_classifier {

std::string_view to_string(Reason reason) {
  switch (reason) {
    case Reason::included: return "included";
    case Reason::not_included: return "not-included";
    case Reason::not_excluded: return "not-excluded";
    case Reason::all_excluded: return "all-excluded";
    case Reason::always: return "always";
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

std::vector<SidedPath> paths_of(const ChangeListing& listing) {
  std::vector<SidedPath> out;
  out.reserve(listing.files.size() * 2);
  for (const auto& f : listing.files) {
    out.push_back({&f.path, &f, false});
    if (!f.previous_path.empty() && f.previous_path != f.path) out.push_back({&f.previous_path, &f, true});
  }
  return out;
}

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

void set_file(FilterDecision& d, const SidedPath& p) {
  d.file = *p.path;
  if (p.previous) d.renamed_to = p.file->path;
}

// Verdicts of `list` on the paths, a chunk at a time: the caller stops at the first path
// that decides, so chunks start small (few wasted verdicts when an early path decides) and
// grow (batched matching is faster).
class Verdicts {
 public:
  Verdicts(const glob::PatternList& list, const std::vector<std::string_view>& views) : list_(list), views_(views) {}
  const glob::ListVerdict& at(std::size_t i) {
    if (i >= end_) {
      begin_ = i;
      end_ = std::min(views_.size(), i + chunk_);
      chunk_ = std::min<std::size_t>(chunk_ * 2, 64);
      buffer_.resize(end_ - begin_);
      list_.evaluate_many(views_.data() + begin_, end_ - begin_, buffer_.data());
    }
    return buffer_[i - begin_];
  }

 private:
  const glob::PatternList& list_;
  const std::vector<std::string_view>& views_;
  std::vector<glob::ListVerdict> buffer_;
  std::size_t begin_ = 0, end_ = 0, chunk_ = 4;
};

FilterDecision decide_filter(const Filter& f, const std::vector<SidedPath>& paths,
                             const std::vector<std::string_view>& views) {
  FilterDecision d;
  d.filter = f.name;
  d.mode = f.mode;
  d.paths_checked = paths.size();
  if (!f.always_list.empty()) {
    Verdicts verdicts(f.always_list, views);
    for (std::size_t i = 0; i < paths.size(); ++i) {
      const auto& p = paths[i];
      const auto& v = verdicts.at(i);
      if (!v.included) continue;
      d.relevant = true;
      d.reason = Reason::always;
      set_file(d, p);
      set_pattern(d, f.always, v.decisive, true);
      d.why = describe_path(p) + " matches the always pattern " + ticked(d.pattern);
      return d;
    }
  }
  const SidedPath* example = nullptr;
  glob::ListVerdict example_verdict;
  Verdicts verdicts(f.list, views);
  for (std::size_t i = 0; i < paths.size(); ++i) {
    const auto& p = paths[i];
    const auto v = verdicts.at(i);
    const bool decides = f.mode == Mode::allow ? v.included : !v.included;
    if (decides) {
      d.relevant = true;
      set_file(d, p);
      set_pattern(d, f.paths, v.decisive, false);
      if (f.mode == Mode::allow) {
        d.reason = Reason::included;
        d.why = describe_path(p) + " is included by " + ticked(d.pattern);
      } else {
        d.reason = Reason::not_excluded;
        d.why = v.decisive < 0 ? describe_path(p) + " matches no deny pattern"
                               : describe_path(p) + " is re-included by " + ticked(d.pattern);
      }
      return d;
    }
    if (example == nullptr) {
      example = &p;
      example_verdict = v;
    }
  }
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
  return d;
}

}  // namespace

Decision decide(const Rules& rules, const ChangeListing& listing, const std::string& event_name,
                bool evaluate_event) {
  Decision out;
  out.event = event_name;
  out.source = listing.source;
  out.files = listing.files.size();
  out.fail_open = listing.fail_open;
  if (!evaluate_event) {
    for (const auto& f : rules.filters) {
      FilterDecision d;
      d.filter = f.name;
      d.mode = f.mode;
      d.reason = Reason::non_pr_event;
      d.why = "a " + event_name + " event is not a pull request: every filter is relevant";
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
      out.filters.push_back(std::move(d));
    }
    return out;
  }
  const auto paths = paths_of(listing);
  std::vector<std::string_view> views;
  views.reserve(paths.size());
  for (const auto& p : paths) views.emplace_back(*p.path);
  for (const auto& f : rules.filters) out.filters.push_back(decide_filter(f, paths, views));
  return out;
}

}  // namespace gatekit::path_classifier
