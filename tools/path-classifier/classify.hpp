#pragma once
// The decision: for each filter, relevant or not, with the file and pattern that decided it
// and one sentence saying why. Pure: rules + listing + event in, Decision out.
#include <optional>
#include <string>
#include <vector>

#include "changes.hpp"
#include "rules.hpp"

namespace gatekit::path_classifier {

enum class Reason {
  included,      // allow: a path is in the list
  not_included,  // allow: no path is
  not_excluded,  // deny: a path is not in the list
  all_excluded,  // deny: every path is
  always,        // a path matches an `always` pattern
  fail_open,     // the listing cannot be trusted
  non_pr_event,  // push/schedule/dispatch: everything runs
};
std::string_view to_string(Reason reason);

struct FilterDecision {
  std::string filter;
  Mode mode = Mode::allow;
  bool relevant = true;
  Reason reason = Reason::fail_open;
  std::string file;           // the decisive changed path; empty when none
  std::string renamed_to;     // when `file` is the old name of a rename: the new name
  std::string pattern;        // the deciding pattern as written; empty when none
  int pattern_index = -1;     // 0-based in its list
  bool from_always = false;   // the pattern is in `always`
  int pattern_line = 0;       // in the rules, when known
  std::size_t paths_checked = 0;
  std::string why;
};

struct Decision {
  std::string event;
  std::string source;
  std::size_t files = 0;
  std::optional<std::string> fail_open;
  std::vector<FilterDecision> filters;

  std::vector<std::string> relevant() const;
};

// `evaluate_event`: false for non-PR events under `non-pr-events: relevant`.
Decision decide(const Rules& rules, const ChangeListing& listing, const std::string& event_name,
                bool evaluate_event);

// The paths a listing contributes, in order: each file, then its previous name (renames
// count on both sides).
struct SidedPath {
  const std::string* path;
  const ChangedFile* file;
  bool previous;
};
std::vector<SidedPath> paths_of(const ChangeListing& listing);

}  // namespace gatekit::path_classifier
