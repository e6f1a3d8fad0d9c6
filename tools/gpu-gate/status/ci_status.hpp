#pragma once
// `gpu-gate ci-status`: the CI side. Turns the published gate results into the commit status
// of a pull request's head (docs/gpu-gate.md, "CI side"):
//   1. ask the remote for its default branch (the branch its HEAD names) and fetch it, the
//      result refs (with --prune: refs/<namespace>/ mirrors the remote exactly) and the head
//      commit from the remote;
//   2. read the gate's configuration and the allowed-signers file FROM THE TRUSTED BRANCH
//      (trusted_base.hpp): the default branch, or a base its configuration lists under
//      `trusted_bases`; never a base the event or the pull request names otherwise, never the
//      pull request's tree, which its author controls;
//   3. gather the head's history and results (status.hpp) and drop every result whose record
//      commit is not signed by a key of that allowed-signers file, when the configuration
//      names one (signatures.hpp); an unsigned or foreign result counts as absent, and the
//      description says so when it would have changed the status;
//   4. decide the status (decide_status; for a merge queue's group commit, merge_group.hpp)
//      and, with `post`, read the failures gatekit's poster posted before (on the head, on a
//      merge queue's pull request head, and the marks on the record commit of the result that
//      counts: ci_status_decide.hpp) and keep the newest unless a newer result counts
//      (keep_newer_failure); mark the passes a failure outranks; then set the status on the
//      head commit through the GitHub API (post.hpp); write the step outputs and the summary.
// Exit 0 when the status was decided (and posted when asked), whatever its state: the status
// itself is the verdict branch protection reads. Exit 2 for bad options or a bad
// configuration on the trusted branch, 3 when it could not be evaluated or posted; with `post`,
// those failures still set the status to `error` when the API can be reached, so the check
// never stays green or missing for a reason nobody sees.
#include <cstdint>
#include <string>

#include "gatekit/context.hpp"
#include "gatekit/exit_code.hpp"
#include "gatekit/result.hpp"

namespace gatekit::gpu_gate {

struct CiStatusOptions {
  std::string repo_dir = ".";
  // The gate's configuration in the repository, read from the base branch. "" = the default
  // path; a missing file there means the defaults, a missing file named here is an error.
  std::string config;
  // The commit whose status is set: the pull request's HEAD, never the merge commit a
  // pull_request checkout makes. "" = the head of `pr` (fetched as refs/pull/<pr>/head).
  std::string sha;
  std::string pr;  // the pull request number ("" = none)
  // The pull request's base branch, a candidate only: the trusted files come from it when it is
  // the default branch or one the default branch's configuration lists in `trusted_bases`,
  // else from the default branch ("" = the default branch). A commit is never trusted.
  std::string base;
  std::string context = "gate/gpu";  // the commit status context
  std::string repository;            // owner/name; "" = GITHUB_REPOSITORY
  std::string remote = "origin";
  // The allowed-signers file's path in the repository (read from the trusted branch); "" = the
  // configuration's `allowed-signers` (none there: results are not verified).
  std::string allowed_signers;
  bool post = false;        // post the status (needs a token: GITHUB_TOKEN or GH_TOKEN)
  std::string target_url;   // the status link ("" = this workflow run's, RunInfo::url; none outside one)
  // Which runs may post (posting_mode.hpp): "strict", "pull-request", "" = not checked.
  std::string mode;
  // The login that creates gatekit's statuses (their `creator`): only its earlier failures are
  // remembered. Strict mode: the App's "<app-slug>[bot]"; "" = "github-actions[bot]" in
  // pull-request mode, required with `post` otherwise.
  std::string poster;
  // A merge queue's branch, gh-readonly-queue/<base>/pr-<n>-<commit> (merge_group.hpp): `sha`
  // is then the queue's group commit, `pr` (when given) and `base` must agree with it; the
  // queue's base branch is the candidate base.
  std::string merge_group;
};

ExitCode run_ci_status(const CiStatusOptions& options, Context& context);
// No verdict (after the frame wrote `result=error`): `posted=false`, unless the run wrote
// `posted` already (a status posted, then a summary that could not be written).
void ci_status_no_verdict(const CiStatusOptions& options, const Error& error, Context& context);

}  // namespace gatekit::gpu_gate
