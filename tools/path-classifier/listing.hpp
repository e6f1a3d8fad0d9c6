#pragma once
// Which source lists this run's changed files (--files, --base/--head, or the workflow
// event: the GitHub API for pull requests, git for merge groups and pushes), and the
// listing it returned. A listing problem is a fail-open cause, never an error; only a call
// that names nothing to compare (outside GitHub Actions) or an unreadable --files list is a
// usage error.
#include "changes.hpp"
#include "gatekit/context.hpp"
#include "path-classifier.hpp"

namespace gatekit::path_classifier {

struct Plan {
  bool evaluate = true;  // false: a non-PR event, every filter relevant
  ChangeListing listing;
};

// `evaluate_non_pr`: the rules' `non-pr-events: evaluate` (push events are diffed).
Plan gather(const Options& options, bool evaluate_non_pr, const EventInfo& event, Context& context);

}  // namespace gatekit::path_classifier
