#pragma once
// The decision: for each filter, relevant or not, with the file and pattern that decided it
// and one sentence saying why. Pure: rules + listing + event in, Decision out.
#include <optional>
#include <string>
#include <string_view>
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
  self_protect,  // a path is the gate's own rules file or the workflow running the gate
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
  // The changed paths the filter matches (dorny/paths-filter's `<filter>_files`), in listing
  // order: those in an `always` list or decided by the patterns (allow: included; deny: not
  // excluded). Computed from whatever the listing holds, also when the decision fails open.
  // Indices into Decision::paths, which holds each path once however many filters match it.
  std::vector<std::size_t> files;
};

struct Decision {
  std::string event;
  std::string source;
  std::size_t files = 0;
  std::optional<std::string> fail_open;
  std::vector<FilterDecision> filters;
  // The paths the listing contributes (paths_of), in order: what FilterDecision::files index.
  std::vector<std::string> paths;

  std::vector<std::string> relevant() const;
  // The names of the paths `filter` matches, in order (its `files` looked up in `paths`).
  std::vector<std::string_view> files_of(const FilterDecision& filter) const;
};

// A file whose change makes every filter relevant, unless the rules say `self-protect:
// false`: the gate's own configuration, so that a pull request cannot switch the gate off
// (or narrow it) without the suites it guards running on that very change.
struct GuardedFile {
  std::string path;  // repo-relative, as changed paths are listed
  std::string what;  // "the gate's rules file", "the workflow running the gate"
};

// `evaluate_event`: false for non-PR events under `non-pr-events: relevant`. `guarded`
// files decide before `always` and the lists, in either mode.
Decision decide(const Rules& rules, const ChangeListing& listing, const std::string& event_name,
                bool evaluate_event, const std::vector<GuardedFile>& guarded = {});

// The workflow file named by GITHUB_WORKFLOW_REF (`owner/repo/.github/workflows/ci.yml@ref`):
// `.github/workflows/ci.yml`; nullopt when the text has another shape.
std::optional<std::string> workflow_path_from_ref(std::string_view workflow_ref);

// `file` relative to `root` when it lies inside it (both absolute, normalized lexically);
// nullopt when it lies outside (a rules file elsewhere cannot be a changed path).
std::optional<std::string> path_inside(const std::string& file, const std::string& root);

// The paths a listing contributes, in order: each file, then its previous name (renames
// count on both sides; the source of a copy is unchanged and does not count).
struct SidedPath {
  const std::string* path;
  const ChangedFile* file;
  bool previous;
};
std::vector<SidedPath> paths_of(const ChangeListing& listing);

// The change type of one side as dorny/paths-filter names it (path_rules::change_type of its
// status): a rename is its old path `deleted` and its new path `added`; "" when the source gave
// no status (a plain list), and then every change-type rule applies.
std::string_view change_type(const SidedPath& path);

}  // namespace gatekit::path_classifier
