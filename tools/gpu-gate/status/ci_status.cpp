#include "status/ci_status.hpp"

#include <algorithm>
#include <chrono>
#include <optional>

#include "status/ci_status_decide.hpp"
#include "status/ci_status_report.hpp"
#include "common.hpp"
#include "config.hpp"
#include "gatekit/clock.hpp"
#include "gatekit/environment.hpp"
#include "gatekit/git.hpp"
#include "gatekit/text.hpp"
#include "gatekit/workflow.hpp"
#include "gatekit/workflow_run.hpp"
#include "scope/docs_rule.hpp"
#include "status/merge_group.hpp"
#include "status/posting_mode.hpp"
#include "status/post.hpp"
#include "record/record.hpp"
#include "record/signatures.hpp"
#include "status/status.hpp"

namespace gatekit::gpu_gate {

namespace {

// Local names for what the CI side fetches (never a branch or a result ref of the clone).
constexpr const char* kBaseRef = "refs/gatekit-ci/base";
constexpr const char* kHeadRef = "refs/gatekit-ci/head";

struct Resolved {
  std::string repository;
  std::string base_rev;  // kBaseRef, or the base's object name
  std::string sha;       // the head commit
};

void check_options(const CiStatusOptions& o) {
  if (!o.sha.empty() && !is_object_name(o.sha))
    fail_bad_input("--sha must be the full object name of the pull request's head commit, got " + quote_for_message(o.sha));
  const bool digits = !o.pr.empty() && o.pr.size() <= 10 &&
                      std::all_of(o.pr.begin(), o.pr.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (!o.pr.empty() && (!digits || o.pr.front() == '0'))
    fail_bad_input("--pr must be a pull request number, got " + quote_for_message(o.pr));
  if (o.sha.empty() && o.pr.empty()) fail_bad_input("give --sha (the pull request's head commit) or --pr");
  if (o.base.empty()) fail_bad_input("--base is required: the branch the gate's configuration and allowed signers are read from");
  if (auto ok = check_revision(o.base); !ok) fail_bad_input("--base: " + ok.error().message);
  if (o.base.rfind("refs/", 0) == 0 && o.base.rfind("refs/heads/", 0) != 0)
    fail_bad_input("--base must be a branch or a commit, got " + quote_for_message(o.base));
  check_remote(o.remote);
}

std::string repository_of(const CiStatusOptions& o, const Context& context) {
  if (!o.repository.empty()) return o.repository;
  auto repository = context.env.get_nonempty("GITHUB_REPOSITORY").value_or("");
  if (repository.empty() && o.post) fail_bad_input("posting the status needs --repository or GITHUB_REPOSITORY");
  return repository;
}

// The base branch and, without --sha, the pull request's head: one fetch, full history when
// the clone is shallow (inheritance walks the head's ancestors).
Resolved fetch_base_and_head(const Git& git, const CiStatusOptions& o) {
  Resolved resolved;
  std::vector<std::string> refspecs;
  const std::string branch = o.base.rfind("refs/heads/", 0) == 0 ? o.base.substr(11) : o.base;
  if (is_object_name(o.base)) {
    resolved.base_rev = o.base;
    if (!value_or_throw(git.has_commit(o.base))) refspecs.push_back(o.base);
  } else {
    resolved.base_rev = kBaseRef;
    refspecs.push_back("+refs/heads/" + branch + ":" + kBaseRef);
  }
  if (o.sha.empty()) refspecs.push_back("+refs/pull/" + o.pr + "/head:" + kHeadRef);
  FetchOptions fetch;
  fetch.unshallow = value_or_throw(git.is_shallow());
  if (!refspecs.empty()) throw_if_error(git.fetch(o.remote, refspecs, fetch));
  resolved.sha = o.sha.empty() ? value_or_throw(git.rev_parse(std::string(kHeadRef) + "^{commit}")) : o.sha;
  return resolved;
}

// A file of the base branch: nullopt when the branch does not have it.
std::optional<std::string> base_file(const Git& git, const std::string& base_rev, const std::string& path) {
  if (path.empty() || path.front() == '/' || path.find('\n') != std::string::npos)
    fail_bad_input("not a path in the repository: " + quote_for_message(path));
  const std::string object = base_rev + ":" + path;
  auto exists = git.exec(GitCommand{"cat-file", "-e"}.argument("the object", object));
  if (!exists) fail(exists.error());
  if (!exists->succeeded()) return std::nullopt;
  return value_or_throw(git.run(GitCommand{"cat-file", "blob"}.argument("the object", object)));
}

Config base_config(const Git& git, const std::string& base_rev, const CiStatusOptions& o) {
  const std::string path = o.config.empty() ? default_config_path : o.config;
  auto text = base_file(git, base_rev, path);
  if (!text) {
    if (path != default_config_path)
      fail_bad_input("the configuration " + path + " is not on the base branch " + o.base);
    return default_config();
  }
  return value_or_throw(parse_config(*text, o.base + ":" + path));
}

// The allowed-signers text of the base branch; nullopt when none is configured.
std::optional<std::string> base_allowed_signers(const Git& git, const std::string& base_rev, const std::string& path,
                                                const CiStatusOptions& o) {
  if (path.empty()) return std::nullopt;
  auto text = base_file(git, base_rev, path);
  // Named but absent: fail closed rather than trust every result.
  if (!text) fail_bad_input("the allowed-signers file " + path + " is not on the base branch " + o.base);
  return text;
}

// The revoked keys of the base branch; nullopt when none are configured. Named but absent:
// fail closed, as for the allowed signers.
std::optional<std::string> base_revoked_keys(const Git& git, const std::string& base_rev, const std::string& path,
                                             const CiStatusOptions& o) {
  if (path.empty()) return std::nullopt;
  auto text = base_file(git, base_rev, path);
  if (!text) fail_bad_input("the revoked-keys file " + path + " is not on the base branch " + o.base);
  return text;
}

std::int64_t epoch_seconds(const Clock& clock) {
  return std::chrono::duration_cast<std::chrono::seconds>(clock.now().time_since_epoch()).count();
}

CiReport evaluate(const CiStatusOptions& o, Context& context, Git& git, const Resolved& resolved) {
  const Config config = base_config(git, resolved.base_rev, o);
  const std::string signers_path = o.allowed_signers.empty() ? config.allowed_signers : o.allowed_signers;
  const auto signers = base_allowed_signers(git, resolved.base_rev, signers_path, o);
  const auto revoked = signers ? base_revoked_keys(git, resolved.base_rev, config.revoked_keys, o) : std::nullopt;
  std::vector<std::string> refspecs{"+" + published_prefix(config.namespace_) + "*:" + published_prefix(config.namespace_) + "*"};
  if (!value_or_throw(git.has_commit(resolved.sha))) refspecs.push_back(resolved.sha);
  // --prune: the local refs/<ns>/ mirrors the remote exactly. A result deleted there is gone
  // here too (a persistent workspace keeps no stale result), and a stale ref cannot block a
  // new one whose name nests under it (git prunes before it fetches).
  context.workflow.log("fetching the gate results (" + published_prefix(config.namespace_) + "*) from " + o.remote);
  FetchOptions mirror;
  mirror.prune = true;
  throw_if_error(git.fetch(o.remote, refspecs, mirror));

  StatusQuery query;
  query.rev = resolved.sha;
  query.base = resolved.base_rev;
  query.now = epoch_seconds(context.clock);
  query.stop_at_exact = false;  // untrusted results are dropped below: gather every candidate
  query.config_digest = trusted_config_digest(git, resolved.base_rev, config);  // the scope is the base's too
  auto gathered = value_or_throw(gather_status_input(git, config, query));

  std::optional<std::map<std::string, SignatureVerdict>> verdicts;
  if (signers) {
    std::vector<std::string> commits;
    for (const auto& record : gathered.input.records)
      if (record.published()) commits.push_back(record.record_commit);
    const std::optional<std::string_view> revoked_text = revoked ? std::optional<std::string_view>(*revoked) : std::nullopt;
    verdicts = value_or_throw(
        verify_signatures(git, context.files, *signers, commits, query.now, o.base + ":" + signers_path, revoked_text));
  }
  CiReport report;
  report.context = o.context;
  report.sha = resolved.sha;
  report.pr = o.pr;
  report.base = o.base;
  report.allowed_signers = signers ? signers_path : "";
  report.post_asked = o.post;
  report.decision = decide_ci_status(gathered.input, verdicts);
  report.decision.left_out.insert(report.decision.left_out.begin(), gathered.rejected.begin(), gathered.rejected.end());
  if (o.post) {
    // CI remembers: an older result never undoes a failure already posted on this commit.
    const auto statuses = value_or_throw(read_commit_statuses(resolved.repository, resolved.sha, context));
    keep_newer_failure(report.decision, remembered_failure(statuses, o.context), gathered.input);
  }
  for (const auto& line : report.decision.left_out) context.workflow.log("left out: " + line);
  if (report.decision.kept_failure)
    context.workflow.log("kept the failure posted before (result of " + format_utc(*report.decision.remembered_failure) +
                         "): no result newer than it counts now");
  return report;
}

// Merge queues (merge_group.hpp): --merge-group names the queue's branch; the pull request
// and the base branch come from it, and must agree with --pr and --base when given.
CiStatusOptions with_merge_group(const CiStatusOptions& options) {
  CiStatusOptions o = options;
  if (o.merge_group.empty()) return o;
  const QueueRef queue = value_or_throw(parse_queue_ref(o.merge_group));
  if (o.sha.empty()) fail_bad_input("--merge-group needs --sha, the queue's group commit");
  if (!o.pr.empty() && o.pr != queue.pr)
    fail_bad_input("--pr " + quote_for_message(o.pr) + " is not the pull request of --merge-group " +
                   quote_for_message(o.merge_group));
  const std::string branch = o.base.rfind("refs/heads/", 0) == 0 ? o.base.substr(11) : o.base;
  if (!o.base.empty() && branch != queue.base_branch)
    fail_bad_input("--base " + quote_for_message(o.base) + " is not the branch of --merge-group " +
                   quote_for_message(o.merge_group));
  o.pr = queue.pr;
  o.base = queue.base_branch;
  return o;
}

// The queue's branch names the commit the entry was built on: a group commit that does not
// descend from it is some other commit, and the two inputs cannot both be right. (The group
// commit's whole history is in the clone: a commit the clone lacks is not in it.)
void check_built_on(const Git& git, const QueueRef& queue, const std::string& group, const std::string& branch) {
  bool descends = value_or_throw(git.has_commit(queue.base_commit));
  if (descends) {
    auto built_on = git.exec(GitCommand{"merge-base", "--is-ancestor"}.revision(queue.base_commit).revision(group));
    if (!built_on) fail(built_on.error());
    if (!built_on->succeeded() && (built_on->signal != 0 || built_on->exit_code != 1))
      fail_could_not_evaluate("git merge-base --is-ancestor " + queue.base_commit + " " + group + ": " +
                              built_on->describe() + ": " + trim(built_on->err));
    descends = built_on->succeeded();
  }
  if (!descends)
    fail_could_not_evaluate("the group commit " + group + " does not descend from " + queue.base_commit +
                            ", the commit its queue branch " + quote_for_message(branch) + " names");
}

// The group commit's status: its own results, else the pull request head's when the queue
// adds docs only on top of it (merge_group.hpp). The head is the pull request's as GitHub
// keeps it (refs/pull/<n>/head); the docs-only rule holds the group tree's links.
CiReport evaluate_merge_group(const CiStatusOptions& o, Context& context, Git& git, const Resolved& resolved) {
  const QueueRef queue = value_or_throw(parse_queue_ref(o.merge_group));
  throw_if_error(git.fetch(o.remote, {"+refs/pull/" + queue.pr + "/head:" + kHeadRef}));
  check_built_on(git, queue, resolved.sha, o.merge_group);
  Resolved at_head = resolved;
  at_head.sha = value_or_throw(git.rev_parse(std::string(kHeadRef) + "^{commit}"));
  CiReport report = evaluate(o, context, git, resolved);
  const CiReport head = evaluate(o, context, git, at_head);
  const Config config = base_config(git, resolved.base_rev, o);
  const auto docs = value_or_throw(docs_rule_for(git, config.docs_patterns, resolved.sha));
  const auto added = value_or_throw(classify_change(git, docs, at_head.sha, resolved.sha, /*three_dot=*/false));
  context.workflow.log("merge group of pull request " + queue.pr + ": head " + at_head.sha + " is " +
                       std::string(to_string(head.decision.status.state)) + ", " + head.decision.status.description +
                       "; the queue adds " +
                       (added.code.empty() ? std::string("docs only") : std::to_string(added.code.size()) + " code paths"));
  for (const auto& path : added.code) context.workflow.log("  added by the queue: " + path);
  report.decision.status = decide_merge_group(report.decision.status, head.decision.status, at_head.sha, added.code);
  report.decision.results.insert(report.decision.results.end(), head.decision.results.begin(),
                                 head.decision.results.end());
  return report;
}

void write_report(const CiReport& report, Context& context) {
  for (const auto& [name, value] : ci_outputs(report)) context.workflow.set_output(name, value);
  context.workflow.append_summary(ci_summary(report, epoch_seconds(context.clock)));
}

// A failure after the head is known still sets the status, as `error`: the check shows why
// nothing was decided instead of staying green or missing.
void post_error(const CiStatusOptions& o, Context& context, const Resolved& resolved, const Error& error) {
  if (!o.post || resolved.sha.empty() || resolved.repository.empty()) return;
  StatusPost post{resolved.repository, resolved.sha, o.context, "error", "could not evaluate: " + error.message,
                  o.target_url};
  if (auto posted = post_commit_status(post, context); !posted)
    context.workflow.log("the error status was not posted either: " + posted.error().message);
}

}  // namespace

ExitCode run_ci_status(const CiStatusOptions& asked, Context& context) {
  CiStatusOptions given = asked;
  // The status links to this workflow run unless --target-url says otherwise.
  if (given.target_url.empty()) given.target_url = workflow_run_url(context.env).value_or("");
  Git git(context.processes, given.repo_dir);
  Resolved resolved;  // the head is known (an error can be posted on it) once checked
  bool posting = false;
  try {
    const CiStatusOptions options = with_merge_group(given);
    check_options(options);
    const auto mode = value_or_throw(parse_posting_mode(options.mode));
    if (options.post) throw_if_error(check_posting(mode, context.env.get_nonempty("GITHUB_EVENT_NAME").value_or("")));
    resolved.repository = repository_of(options, context);
    resolved.sha = options.sha;
    const auto fetched = fetch_base_and_head(git, options);
    resolved.base_rev = fetched.base_rev;
    resolved.sha = fetched.sha;
    CiReport report = options.merge_group.empty() ? evaluate(options, context, git, resolved)
                                                  : evaluate_merge_group(options, context, git, resolved);
    const auto& status = report.decision.status;
    context.workflow.log(options.context + " for " + resolved.sha + ": " + std::string(to_string(status.state)) +
                         ", " + status.description);
    if (options.post) {
      StatusPost post{resolved.repository, resolved.sha, options.context, std::string(to_string(status.state)),
                      status.description, options.target_url};
      posting = true;
      throw_if_error(post_commit_status(post, context));
      report.posted = true;
      context.workflow.log("posted " + options.context + " on " + resolved.repository + "@" + resolved.sha);
    }
    write_report(report, context);
    return ExitCode::pass;
  } catch (const Failure& failure) {
    // The frame then writes `result=error` and calls ci_status_no_verdict.
    if (!posting) post_error(given, context, resolved, failure.error());
    throw;
  }
}

void ci_status_no_verdict(const CiStatusOptions&, const Error&, Context& context) {
  context.workflow.set_output("posted", "false");
}

}  // namespace gatekit::gpu_gate
