#pragma once
// Where a change's files come from, and what the workflow event says. Every source
// returns a ChangeListing; a listing that cannot be trusted carries a fail-open cause
// instead of a partial list, so the decision runs every suite.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gatekit/git.hpp"
#include "gatekit/github.hpp"

namespace gatekit::path_classifier {

struct ChangedFile {
  std::string path;
  std::string previous_path;  // renames and copies: the other side
  std::string status;         // as the source spelled it (added, renamed, R, ...); may be empty
};

struct ChangeListing {
  std::vector<ChangedFile> files;
  std::string source;                    // "GitHub API, pull request #12", "git diff a...b", "--files list"
  std::optional<std::string> fail_open;  // why the list cannot be trusted; then every filter is relevant
  std::vector<std::string> notes;        // progress worth a log line (fetches, page counts)
};

class ChangedFilesSource {
 public:
  virtual ~ChangedFilesSource() = default;
  virtual ChangeListing list() = 0;
};

// ---- pure helpers ------------------------------------------------------------------------

// A list of paths separated by NUL (when the text has one) or newlines; blank lines and a
// trailing "\r" are dropped, paths are normalized. Newline-separated lists may also be
// `git diff --name-status` output (`M<TAB>path`, `R100<TAB>old<TAB>new`): renames then
// count on both sides. In newline-separated lists a path in git's C-style quoting
// (`"src/\303\244.cu"`) is decoded; malformed quoting is an error naming the line, since a
// guessed name could make a relevant change look irrelevant. NUL-separated names are verbatim;
// a NUL-separated text that is `git diff --name-status -z` output throughout (STATUS, then one
// path, or two for R/C) is read as such, with its statuses.
Result<std::vector<ChangedFile>> parse_path_list(std::string_view text);

// The API's answer, checked for truncation: fewer files than changed_files, 3000 or more
// (the API's cap), a missing count, more files than changed_files (an inconsistent answer),
// or none at all make the listing fail open.
ChangeListing listing_from_pull(const github::PullRequest& pull, const std::vector<github::PullFile>& files);

ChangeListing listing_from_git(const std::vector<FileChange>& changes, std::string source);

// Any listing with no files fails open: an empty list means "could not tell", not "nothing".
void fail_open_if_empty(ChangeListing& listing);

// ---- the workflow event ----------------------------------------------------------------

enum class EventKind {
  pull_request,  // pull_request, pull_request_target
  merge_group,
  push,
  other,  // schedule, workflow_dispatch, ...
  local,  // not in GitHub Actions
};

struct EventInfo {
  std::string name;  // GITHUB_EVENT_NAME, or "local"
  EventKind kind = EventKind::local;
  std::string repo;  // owner/name
  std::optional<std::int64_t> pr_number;
  std::string base_sha;  // PR base, merge_group base, push `before`
  std::string head_sha;  // PR head, merge_group head, push `after`
  std::string problem;   // the payload was missing or unreadable (then fail open)
};

EventKind event_kind(std::string_view name);
// `payload` is the text of GITHUB_EVENT_PATH (may be empty when there is none).
EventInfo parse_event(std::string_view name, std::string_view payload, std::string repo);

bool is_null_sha(std::string_view sha);

// The event's base and head are outside data on their way to git: both must be full object
// names (40 or 64 hex digits). Returns the fail-open cause naming the payload field, or "".
std::string event_revisions_problem(const EventInfo& event);

// ---- sources -------------------------------------------------------------------------

std::unique_ptr<ChangedFilesSource> make_list_source(std::string text, std::string origin);
std::unique_ptr<ChangedFilesSource> make_api_source(github::Client& client, std::string repo,
                                                    std::int64_t number);

struct GitDiffSpec {
  std::string base;
  std::string head;
  bool three_dot = true;   // from the merge base (pull requests, local use)
  bool fetch = true;       // fetch missing commits / deepen a shallow clone from `remote`
  std::string remote = "origin";
  int max_deepen_rounds = 6;  // each doubles the depth; then --unshallow
  int initial_depth = 50;     // of the first fetch and the first deepening
};
std::unique_ptr<ChangedFilesSource> make_git_source(Git& git, GitDiffSpec spec);

}  // namespace gatekit::path_classifier
