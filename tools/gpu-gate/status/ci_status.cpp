#include "status/ci_status.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <set>

#include "status/ci_memory.hpp"
#include "status/ci_status_decide.hpp"
#include "status/ci_status_report.hpp"
#include "common.hpp"
#include "config.hpp"
#include "gatekit/clock.hpp"
#include "gatekit/environment.hpp"
#include "gatekit/github.hpp"
#include "gatekit/git.hpp"
#include "gatekit/text.hpp"
#include "gatekit/workflow.hpp"
#include "gatekit/run_info.hpp"
#include "scope/docs_rule.hpp"
#include "scope/gpu_filter.hpp"
#include "status/merge_group.hpp"
#include "status/posting_mode.hpp"
#include "status/post.hpp"
#include "record/record.hpp"
#include "record/signatures.hpp"
#include "status/status.hpp"
#include "status/trusted_base.hpp"

namespace gatekit::gpu_gate {

namespace {

constexpr const char* kHeadRef = "refs/gatekit-ci/head";  // a pull request's head, fetched by number

struct Resolved {
  std::string repository;
  std::string sha;     // the head commit
  std::string poster;  // the creator of gatekit's statuses ("" when not posting)
  TrustedBase trusted;
  std::optional<GpuFilter> gpu_filter;  // the trusted branch's (gpu_filter.hpp); none: docs rule only
};

std::string branch_name(const std::string& base) {
  return base.rfind("refs/heads/", 0) == 0 ? base.substr(11) : base;
}

void check_options(const CiStatusOptions& o) {
  if (!o.sha.empty() && !is_object_name(o.sha))
    fail_bad_input("--sha must be the full object name of the pull request's head commit, got " + quote_for_message(o.sha));
  const bool digits = !o.pr.empty() && o.pr.size() <= 10 &&
                      std::all_of(o.pr.begin(), o.pr.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (!o.pr.empty() && (!digits || o.pr.front() == '0'))
    fail_bad_input("--pr must be a pull request number, got " + quote_for_message(o.pr));
  if (o.sha.empty() && o.pr.empty()) fail_bad_input("give --sha (the pull request's head commit) or --pr");
  if (!o.base.empty()) {
    if (auto ok = check_revision(o.base); !ok) fail_bad_input("--base: " + ok.error().message);
    if (o.base.rfind("refs/", 0) == 0 && o.base.rfind("refs/heads/", 0) != 0)
      fail_bad_input("--base must be a branch or a commit, got " + quote_for_message(o.base));
  }
  if (!o.poster.empty() && !github::is_login(o.poster))
    fail_bad_input("--poster must be a GitHub login (NAME, or SLUG[bot] for an app), got " + quote_for_message(o.poster));
  check_remote(o.remote);
}

// Whose earlier statuses are gatekit's own: --poster, else github.token's account in
// pull-request mode. Posting without one would remember anyone's failures (or no one's).
std::string poster_login(const CiStatusOptions& o, PostingMode mode) {
  if (!o.poster.empty()) return o.poster;
  if (mode == PostingMode::pull_request) return github::kActionsBot;
  if (o.post)
    fail_bad_input("posting needs --poster, the login that creates gatekit's statuses (strict mode: the App's "
                   "<app-slug>[bot]): only its own earlier failures are remembered");
  return "";
}

std::string repository_of(const CiStatusOptions& o, const Context& context) {
  const std::string repository = context.run.repository_or(o.repository);
  if (repository.empty() && o.post) fail_bad_input("posting the status needs --repository or GITHUB_REPOSITORY");
  return repository;
}

// The remote's default branch and, without --sha, the pull request's head: one fetch, full
// history when the clone is shallow (inheritance walks the head's ancestors). Then the trusted
// branch (trusted_base.hpp): the default branch, or the candidate base when the default
// branch's configuration lists it (fetched, and its configuration read).
void fetch_trusted(const Git& git, const CiStatusOptions& o, Resolved& resolved) {
  TrustedBase& trusted = resolved.trusted;
  trusted.default_branch = default_branch_of(git, o.remote);
  std::vector<std::string> refspecs{"+refs/heads/" + trusted.default_branch + ":" + kDefaultRef};
  if (o.sha.empty()) refspecs.push_back("+refs/pull/" + o.pr + "/head:" + kHeadRef);
  FetchOptions fetch;
  fetch.unshallow = value_or_throw(git.is_shallow());
  throw_if_error(git.fetch(o.remote, refspecs, fetch));
  resolved.sha = o.sha.empty() ? value_or_throw(git.rev_parse(std::string(kHeadRef) + "^{commit}")) : o.sha;
  trusted.branch = trusted.default_branch;
  trusted.rev = kDefaultRef;
  trusted.config = trusted_config(git, trusted, o.config);
  const TrustChoice choice = choose_trusted(branch_name(o.base), trusted.default_branch, trusted.config.trusted_bases);
  trusted.refused = choice.refused;
  if (choice.branch == trusted.default_branch) return;
  throw_if_error(git.fetch(o.remote, {"+refs/heads/" + choice.branch + ":" + kBaseRef}));
  trusted.branch = choice.branch;
  trusted.rev = kBaseRef;
  trusted.config = trusted_config(git, trusted, o.config);
}

// The path gate's GPU filter from the trusted branch's rules file, as its configuration names it
// (gpu_filter.hpp), never the pull request's. Rules that do not load, or lack the filter, stop
// the run (exit 2): what needs a GPU result is then unknown, and nothing is let go.
std::optional<GpuFilter> trusted_gpu_filter(const Git& git, const TrustedBase& trusted) {
  const auto& setting = trusted.config.gpu_filter;
  if (!setting.enabled) return std::nullopt;
  const auto text = trusted_file(git, trusted, setting.rules);
  return value_or_throw(gpu_filter_of(trusted.config, text, trusted.branch));
}

// The commit whose status is set must be in the clone (a checkout of another ref lacks it, a
// queue's group commit above all): fetched by name, else exit 3 naming it.
void ensure_commit(const Git& git, const CiStatusOptions& o, const std::string& sha) {
  if (value_or_throw(git.has_commit(sha))) return;
  auto fetched = git.fetch(o.remote, {sha});
  if (fetched && value_or_throw(git.has_commit(sha))) return;
  const std::string what = o.merge_group.empty()
                               ? "the commit " + sha
                               : "the group commit " + sha + " of " + quote_for_message(o.merge_group);
  fail_could_not_evaluate(what + " is not in this clone, and " + o.remote + " did not send it" +
                          (fetched ? std::string() : ": " + fetched.error().message));
}

// A file of the trusted branch the configuration names: nullopt when none is named. Named but
// absent: fail closed rather than trust every result.
std::optional<std::string> named_trusted_file(const Git& git, const TrustedBase& trusted, const std::string& path,
                                              const std::string& what) {
  if (path.empty()) return std::nullopt;
  auto text = trusted_file(git, trusted, path);
  if (!text) fail_bad_input("the " + what + " file " + path + " is not on " + trusted.named());
  return text;
}

// The results, fetched with --prune: the local refs/<ns>/ mirrors the remote exactly. A result
// deleted there is gone here too (a persistent workspace keeps no stale result), and a stale ref
// cannot block a new one whose name nests under it (git prunes before it fetches).
void fetch_results(const Git& git, const CiStatusOptions& o, const Config& config, Context& context) {
  const std::string prefix = published_prefix(config.namespace_);
  context.workflow.log("fetching the gate results (" + prefix + "*) from " + o.remote);
  FetchOptions mirror;
  mirror.prune = true;
  throw_if_error(git.fetch(o.remote, {"+" + prefix + "*:" + prefix + "*"}, mirror));
}

struct Evaluated {
  CiReport report;
  StatusInput input;  // what the decision was made from (the walk, the results)
};

// The status of `sha` from the trusted results, before anything is remembered.
Evaluated evaluate(const CiStatusOptions& o, Context& context, Git& git, const Resolved& resolved,
                   const std::string& sha) {
  const TrustedBase& trusted = resolved.trusted;
  const Config& config = trusted.config;
  const std::string signers_path = o.allowed_signers.empty() ? config.allowed_signers : o.allowed_signers;
  const auto signers = named_trusted_file(git, trusted, signers_path, "allowed-signers");
  const auto revoked = signers ? named_trusted_file(git, trusted, config.revoked_keys, "revoked-keys") : std::nullopt;

  StatusQuery query;
  query.rev = sha;
  query.base = trusted.rev;
  query.now = context.clock.epoch_seconds();
  query.stop_at_exact = false;  // untrusted results are dropped below: gather every candidate
  query.config_digest = trusted_config_digest(git, trusted.rev, config);  // the scope is the base's too
  query.gpu_filter = resolved.gpu_filter ? &*resolved.gpu_filter : nullptr;
  auto gathered = value_or_throw(gather_status_input(git, config, query));

  std::optional<std::map<std::string, SignatureVerdict>> verdicts;
  if (signers) {
    std::vector<std::string> commits;
    for (const auto& record : gathered.input.records)
      if (record.published()) commits.push_back(record.record_commit);
    const std::optional<std::string_view> revoked_text = revoked ? std::optional<std::string_view>(*revoked) : std::nullopt;
    verdicts = value_or_throw(verify_signatures(git, context.files, *signers, commits, query.now,
                                                trusted.branch + ":" + signers_path, revoked_text));
  }
  Evaluated out;
  CiReport& report = out.report;
  report.context = o.context;
  report.sha = sha;
  report.pr = o.pr;
  report.base = trusted.branch;
  report.default_branch = trusted.default_branch;
  report.refused_base = trusted.refused;
  report.allowed_signers = signers ? signers_path : "";
  report.gpu_filter = resolved.gpu_filter ? quote_for_message(resolved.gpu_filter->name()) + " of " + resolved.gpu_filter->origin : "";
  report.post_asked = o.post;
  report.decision = decide_ci_status(gathered.input, verdicts);
  report.decision.left_out.insert(report.decision.left_out.begin(), gathered.rejected.begin(), gathered.rejected.end());
  out.input = std::move(gathered.input);
  return out;
}

void log_decision(const CiDecision& decision, Context& context) {
  for (const auto& line : decision.left_out) context.workflow.log("left out: " + line);
  if (decision.kept_failure)
    context.workflow.log("kept the failure posted before (result of " + format_utc(*decision.remembered_failure) +
                         "): no result newer than it counts now");
}

Poster poster_of(const CiStatusOptions& o, const Resolved& resolved) {
  return {resolved.repository, resolved.poster, o.context, o.target_url};
}

CiReport evaluate_commit(const CiStatusOptions& o, Context& context, Git& git, const Resolved& resolved) {
  Evaluated evaluated = evaluate(o, context, git, resolved, resolved.sha);
  if (o.post) {
    auto& decision = evaluated.report.decision;
    PostedStatuses posted(poster_of(o, resolved), context);
    remember(posted, decision, evaluated.input, {resolved.sha}, lending_trees(evaluated.input, decision.status));
    mark_outranked(posted.poster(), context, decision, evaluated.input);
  }
  log_decision(evaluated.report.decision, context);
  return evaluated.report;
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
  if (!o.base.empty() && branch_name(o.base) != queue.base_branch)
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
// keeps it (refs/pull/<n>/head); the docs-only rule holds the group tree's links. CI remembers
// in the queue too: a failure posted on the head, or on the group commit, or marked on the
// pass that counts, stays (ci_status_decide.hpp).
CiReport evaluate_merge_group(const CiStatusOptions& o, Context& context, Git& git, const Resolved& resolved) {
  const QueueRef queue = value_or_throw(parse_queue_ref(o.merge_group));
  throw_if_error(git.fetch(o.remote, {"+refs/pull/" + queue.pr + "/head:" + kHeadRef}));
  check_built_on(git, queue, resolved.sha, o.merge_group);
  const std::string head_sha = value_or_throw(git.rev_parse(std::string(kHeadRef) + "^{commit}"));
  Evaluated group = evaluate(o, context, git, resolved, resolved.sha);
  Evaluated head = evaluate(o, context, git, resolved, head_sha);
  std::optional<PostedStatuses> posted;
  if (o.post) {
    auto& decision = head.report.decision;
    posted.emplace(poster_of(o, resolved), context);
    remember(*posted, decision, head.input, {head_sha}, lending_trees(head.input, decision.status));
    mark_outranked(posted->poster(), context, decision, head.input);
  }
  const auto& head_status = head.report.decision.status;
  auto docs = value_or_throw(docs_rule_for(git, resolved.trusted.config.docs_patterns, resolved.sha));
  docs.set_gpu_filter(resolved.gpu_filter ? &*resolved.gpu_filter : nullptr);
  const auto added = value_or_throw(classify_change(git, docs, head_sha, resolved.sha, /*three_dot=*/false));
  const auto outside = added.outside_filter();
  context.workflow.log("merge group of pull request " + queue.pr + ": head " + head_sha + " is " +
                       std::string(to_string(head_status.state)) + ", " + head_status.description + "; the queue adds " +
                       (!added.gpu.empty()   ? std::to_string(added.gpu.size()) + " paths that need a GPU result"
                        : added.code.empty() ? std::string("docs only")
                                             : std::to_string(outside.size()) + " paths outside the GPU filter"));
  for (const auto& path : added.gpu) context.workflow.log("  added by the queue, needs a GPU result: " + path);
  for (const auto& path : outside) context.workflow.log("  added by the queue, outside the GPU filter: " + path);
  auto& decision = group.report.decision;
  const bool own = decision.status.source_kind != StatusSource::none;
  const std::string filter = resolved.gpu_filter ? resolved.gpu_filter->name() : "gpu";
  decision.status = decide_merge_group(decision.status, head_status, head_sha, added.gpu,
                                       failure_time(head.report.decision), outside, filter);
  if (o.post) {
    // The marks that apply: the group walk's, or, for a status taken from the head, the head's.
    std::set<std::string> trees = lending_trees(group.input, decision.status);
    if (!own) {
      trees = lending_trees(head.input, head_status);
      trees.insert(decision.status.tree);
    }
    remember(*posted, decision, group.input, {resolved.sha, head_sha}, trees);
    if (own) mark_outranked(posted->poster(), context, decision, group.input);
  }
  log_decision(decision, context);
  decision.results.insert(decision.results.end(), head.report.decision.results.begin(),
                          head.report.decision.results.end());
  return group.report;
}

void write_report(const CiReport& report, Context& context) {
  for (const auto& [name, value] : ci_outputs(report)) context.workflow.set_output(name, value);
  context.workflow.append_summary(ci_summary(report, context.clock.epoch_seconds()));
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
  if (given.target_url.empty()) given.target_url = context.run.url().value_or("");
  Git git(context.processes, given.repo_dir);
  Resolved resolved;  // the head is known (an error can be posted on it) once checked
  bool posting = false;
  try {
    const CiStatusOptions options = with_merge_group(given);
    check_options(options);
    const auto mode = value_or_throw(parse_posting_mode(options.mode));
    if (options.post) throw_if_error(check_posting(mode, context.run.event_name));
    resolved.poster = poster_login(options, mode);
    resolved.repository = repository_of(options, context);
    resolved.sha = options.sha;
    fetch_trusted(git, options, resolved);
    resolved.gpu_filter = trusted_gpu_filter(git, resolved.trusted);
    ensure_commit(git, options, resolved.sha);
    if (!resolved.trusted.refused.empty())
      context.workflow.log("the base " + quote_for_message(resolved.trusted.refused) +
                           " is neither the default branch nor a trusted base its configuration lists: the trusted "
                           "files come from " + resolved.trusted.named());
    fetch_results(git, options, resolved.trusted.config, context);
    CiReport report = options.merge_group.empty() ? evaluate_commit(options, context, git, resolved)
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
  // A status posted before the result could be reported (its summary could not be written)
  // stays posted: `posted` then keeps the true the run wrote.
  if (!context.workflow.has_output("posted")) context.workflow.set_output("posted", "false");
}

}  // namespace gatekit::gpu_gate
