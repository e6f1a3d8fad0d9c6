// flaky-tracker issues: one GitHub issue per flaky test, its state kept in the issue.
#include <chrono>

#include "flaky-tracker.hpp"
#include "gatekit/clock.hpp"
#include "gatekit/environment.hpp"
#include "gatekit/files.hpp"
#include "gatekit/github.hpp"
#include "gatekit/text.hpp"
#include "gatekit/workflow.hpp"
#include "issues_summary.hpp"
#include "tracker.hpp"

namespace gatekit::flaky_tracker {

namespace {

std::string env_or(const Environment& env, const std::string& name, const std::string& fallback) {
  auto value = env.get(name);
  return value && !value->empty() ? *value : fallback;
}

RunStamp stamp_of(const IssuesOptions& o, Context& ctx) {
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(ctx.clock.now().time_since_epoch()).count();
  RunStamp run;
  run.kind = o.kind;
  run.scope = o.scope;
  run.time = format_utc(seconds);
  const std::string run_id = env_or(ctx.env, "GITHUB_RUN_ID", "");
  run.key = !o.run_key.empty() ? o.run_key
            : !run_id.empty()  ? run_id + "." + env_or(ctx.env, "GITHUB_RUN_ATTEMPT", "1")
                               : "local-" + std::to_string(seconds);
  run.url = !o.run_url.empty() ? o.run_url
            : !run_id.empty()  ? env_or(ctx.env, "GITHUB_SERVER_URL", "https://github.com") + "/" +
                                    env_or(ctx.env, "GITHUB_REPOSITORY", "") + "/actions/runs/" + run_id
                               : "";
  return run;
}

Batch this_run(const IssuesOptions& o, Context& ctx) {
  Batch batch;
  batch.run = stamp_of(o, ctx);
  batch.complete = true;
  for (const auto& path : o.reports) {
    auto report = value_or_throw(load_report(ctx.files, path, o.junit_prefix));
    add_report(batch, report.cases);
    ctx.workflow.log(path + ": " + std::to_string(report.cases.size()) + " tests");
  }
  return batch;
}

// Runs journalled by earlier runs whose API calls failed; a damaged journal is reported and
// replaced (its flakes cannot be read back).
std::vector<Batch> journalled(const IssuesOptions& o, Context& ctx) {
  if (o.pending.empty() || !ctx.files.exists(o.pending)) return {};
  auto text = ctx.files.read(o.pending, kMaxJournalBytes);
  auto batches = text ? parse_journal(*text) : Result<std::vector<Batch>>(text.error());
  if (batches) return *batches;
  ctx.workflow.annotate({Severity::warning, o.pending + ": " + batches.error().message + "; it is replaced",
                         "flaky-tracker journal unreadable"});
  return {};
}

// Applies the runs in order; returns the runs still to apply (from the first that failed).
std::vector<Batch> apply_all(Tracker& tracker, const std::vector<Batch>& runs, std::string& error) {
  if (auto loaded = tracker.load(); !loaded) {
    error = loaded.error().message;
    return runs;
  }
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (auto applied = tracker.apply(runs[i]); !applied) {
      error = applied.error().message;
      return {runs.begin() + static_cast<std::ptrdiff_t>(i), runs.end()};
    }
  }
  return {};
}

void keep_journal(const IssuesOptions& o, std::vector<Batch> left, Context& ctx) {
  std::vector<Batch> keep;
  for (auto& b : left)
    if (!b.flakes.empty()) keep.push_back(std::move(b));
  if (o.pending.empty()) {
    if (!keep.empty())
      ctx.workflow.annotate({Severity::warning, "no --pending file: the flakes of this run are not kept for the next run",
                             "Flakes not recorded"});
    return;
  }
  if (keep.empty() && !ctx.files.exists(o.pending)) return;
  throw_if_error(ctx.files.write(o.pending, journal_json(keep)));
}

github::ClientOptions client_options(const IssuesOptions& o, Context& ctx) {
  auto options = github::options_from_environment(ctx.env);
  options.budget = std::chrono::seconds(o.api_budget_s);
  options.total_budget = std::chrono::seconds(o.api_budget_s);
  return options;
}

}  // namespace

ExitCode run_issues(const IssuesOptions& o, Context& ctx) {
  const std::string repo = !o.repo.empty() ? o.repo : env_or(ctx.env, "GITHUB_REPOSITORY", "");
  if (repo.empty()) fail_bad_input("--repo: not given, and GITHUB_REPOSITORY is not set");
  std::vector<Batch> runs = journalled(o, ctx);
  runs.push_back(this_run(o, ctx));
  const Batch& current = runs.back();
  if (!ctx.make_transport) fail_could_not_evaluate("no HTTP transport");
  auto transport = ctx.make_transport();
  github::Client client(client_options(o, ctx), *transport, ctx.clock, &ctx.workflow);
  auto store = make_github_issue_store(client, repo);
  const Rules rules{o.close_after_greens, o.close_after_absences};
  Tracker tracker(*store, o.label, rules);
  const std::size_t journalled_runs = runs.size() - 1;
  std::string error;
  std::vector<Batch> left = apply_all(tracker, runs, error);
  keep_journal(o, left, ctx);
  if (!error.empty())
    ctx.workflow.annotate({Severity::warning,
                           "the flaky-test issues were not updated: " + error +
                               (o.pending.empty() ? "" : "; the flakes are kept in " + o.pending + " for the next run"),
                           "Flaky-test issues not updated"});
  ctx.workflow.set_output("updated", error.empty() ? "true" : "false");
  ctx.workflow.set_output("flaky", std::to_string(current.flakes.size()));
  ctx.workflow.append_summary(issues_summary(IssuesView{current, journalled_runs, left.size(), error}, tracker, rules));
  for (const auto& change : tracker.changes())
    ctx.workflow.log("#" + std::to_string(change.number) + " " + change.id + ": " + change.what);
  return ExitCode::pass;
}

}  // namespace gatekit::flaky_tracker
