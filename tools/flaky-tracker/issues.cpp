// flaky-tracker issues: one GitHub issue per flaky test, its state kept in the issue.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <optional>

#include "flaky-tracker.hpp"
#include "gatekit/clock.hpp"
#include "gatekit/files.hpp"
#include "gatekit/github.hpp"
#include "gatekit/run_info.hpp"
#include "gatekit/text.hpp"
#include "gatekit/workflow.hpp"
#include "issues_summary.hpp"
#include "summary.hpp"
#include "tracker.hpp"

namespace gatekit::flaky_tracker {

namespace {

RunStamp stamp_of(const IssuesOptions& o, Context& ctx) {
  const auto seconds = ctx.clock.epoch_seconds();
  RunStamp run;
  run.kind = o.kind ? *o.kind : run_kind_of_event(ctx.run.event_name);
  run.scope = o.scope;
  run.time = format_utc(seconds);
  const std::string& run_id = ctx.run.run_id;
  const std::string& attempt = ctx.run.run_attempt;
  run.key = !o.run_key.empty() ? o.run_key
            : !run_id.empty()  ? run_id + "." + (attempt.empty() ? "1" : attempt)
                               : "local-" + std::to_string(seconds);
  run.url = !o.run_url.empty() ? o.run_url : ctx.run.url().value_or("");
  return run;
}

Batch this_run(const IssuesOptions& o, Context& ctx) {
  Batch batch;
  batch.run = stamp_of(o, ctx);
  batch.complete = true;
  for (const auto& path : o.reports) {
    auto report = load_report(ctx.files, path, o.junit_prefix);
    if (!report) {
      ctx.workflow.annotate({Severity::error, report.error().message, kNoReportTitle});
      fail(report.error());
    }
    add_report(batch, report->cases);
    ctx.workflow.log(path + ": " + std::to_string(report->cases.size()) + " tests");
  }
  return batch;
}

using github::kActionsBot;

// What was read back from --pending: the runs and comments earlier runs journalled, and
// whether a journal that could not be read was set aside (a new one is then written, so that
// the Actions cache's next entry holds it instead of the unreadable one).
struct ReadJournal {
  Journal journal;
  bool set_aside = false;
  std::string set_aside_as;  // where it went
  std::string why;           // why it could not be read
};

// A name beside the journal that nothing holds yet: FILE.bad, else FILE.bad.2, FILE.bad.3, ...
std::optional<std::string> free_bad_name(const std::string& pending, const Files& files) {
  constexpr int kMaxSetAside = 100;
  for (int i = 1; i <= kMaxSetAside; ++i) {
    std::string name = pending + ".bad" + (i == 1 ? "" : "." + std::to_string(i));
    if (!files.exists(name)) return name;
  }
  return std::nullopt;
}

// The unreadable journal's content, in a log group of its own (the runner's temporary folder,
// where the action keeps the journal, goes with the job: the log is what stays).
// Outside text in the log, line by line (each line goes through the workflow's log).
void log_lines(std::string_view text, Context& ctx) {
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    ctx.workflow.log(text.substr(start, end - start));
    start = end + 1;
  }
}

void log_set_aside(const std::string& bad, const Result<std::string>& text, Context& ctx) {
  ctx.workflow.begin_group("flaky-tracker journal set aside: " + bad);
  if (text) {
    log_lines(*text, ctx);
  } else {
    ctx.workflow.log("(its content is not shown: " + text.error().message + ")");
  }
  ctx.workflow.end_group();
}

// An unreadable journal is set aside whole (renamed, never rewritten), its content shown in
// the log, and a warning names both; the run goes on without it. When it cannot be set aside,
// the run stops before any API call (exit 3): nothing is written over it.
ReadJournal journalled(const IssuesOptions& o, Context& ctx) {
  if (o.pending.empty() || !ctx.files.exists(o.pending)) return {};
  auto text = ctx.files.read(o.pending, kMaxJournalBytes);
  auto journal = text ? parse_journal(*text) : Result<Journal>(text.error());
  if (journal) return {*journal, false};
  const std::string why = journal.error().message;
  const auto bad = free_bad_name(o.pending, ctx.files);
  const Status moved = bad ? ctx.files.rename(o.pending, *bad)
                           : Status(could_not_evaluate(o.pending + ".bad, " + o.pending + ".bad.2 ... " + o.pending +
                                                       ".bad.100 are all taken"));
  if (!moved)
    fail(could_not_evaluate(o.pending + ": " + why + "; it could not be set aside (" + moved.error().message +
                            "), so nothing was applied or written: move it away by hand"));
  log_set_aside(*bad, text, ctx);
  ctx.workflow.annotate({Severity::warning,
                         o.pending + ": " + why + "; it is set aside as " + *bad +
                             " (its content is in the log) and this run goes on without it",
                         "flaky-tracker journal unreadable"});
  return {{}, true, *bad, why};
}

// Whose issues are adopted: --creator, else the token's own account (GET /user). An
// installation token cannot call GET /user (GitHub answers 403 "Resource not accessible by
// integration"); the one a workflow has is Actions' GITHUB_TOKEN, whose issues GitHub records
// as opened by github-actions[bot]. A GitHub App's own token needs --creator 'SLUG[bot]'.
Result<std::vector<std::string>> creators_of(const IssuesOptions& o, github::Client& client, Context& ctx) {
  if (!o.creators.empty()) return o.creators;
  auto me = client.get_authenticated_user();
  if (me) {
    ctx.workflow.log("adopting the issues opened by " + me->login + " (the token's account)");
    return std::vector<std::string>{me->login};
  }
  if (!github::is_integration_refusal(me.error())) return me.error();
  ctx.workflow.log(std::string("the token cannot call GET /user (an installation token): adopting the issues opened by ") +
                   kActionsBot + ", GITHUB_TOKEN's account; for a GitHub App's token give --creator 'SLUG[bot]'");
  return std::vector<std::string>{kActionsBot};
}

struct Applied {
  // Runs still to apply: the flakes the new-issue bound deferred (each with its run), then
  // every run from the first that failed.
  std::vector<Batch> left;
  std::optional<Error> error;
};

// Reads the issues, posts the journalled comments to the issues found for their tests, then
// applies the runs in order.
Applied apply_all(Tracker& tracker, const Journal& journal, const std::vector<Batch>& runs) {
  if (auto loaded = tracker.load(); !loaded) {
    tracker.keep_unposted(journal.comments);
    return {runs, loaded.error()};
  }
  if (auto posted = tracker.post_journalled(journal.comments); !posted) return {runs, posted.error()};
  Applied out;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    auto applied = tracker.apply(runs[i]);
    auto deferred = tracker.take_deferred();
    if (!applied) {  // this run goes back whole (its deferred flakes with it): applying it again changes nothing twice
      out.left.insert(out.left.end(), runs.begin() + static_cast<std::ptrdiff_t>(i), runs.end());
      out.error = applied.error();
      return out;
    }
    if (!deferred.empty()) {
      Batch wait;
      wait.run = runs[i].run;
      wait.flakes = std::move(deferred);
      out.left.push_back(std::move(wait));  // only its flakes: the greens and absences are counted
    }
  }
  return out;
}

// The flakes of new tests left for later runs by the bound on new issues: said in the log and
// a warning (the summary says it too).
void report_deferred(const IssuesOptions& o, const Tracker& tracker, Context& ctx) {
  if (tracker.deferred() == 0) return;
  const std::string where = o.pending.empty() ? "; without --pending they are not kept" : "; they wait in " + o.pending;
  const std::string text = "opened " + std::to_string(tracker.opened()) + " new issue(s), the most one run may (" +
                           "--max-new-issues " + std::to_string(o.max_new_issues) + "): " +
                           std::to_string(tracker.deferred()) + " flake(s) of tests without an issue are left for " +
                           "the next runs" + where;
  ctx.workflow.log("flaky-tracker: " + text);
  ctx.workflow.annotate({Severity::warning, text, "Flaky-test issues deferred"});
}

std::string listed(const std::vector<std::string>& tests) {
  constexpr std::size_t kShown = 10;
  std::string out;
  for (std::size_t i = 0; i < tests.size() && i < kShown; ++i) out += (i ? ", " : "") + shorten(tests[i], 200);
  if (tests.size() > kShown) out += " and " + std::to_string(tests.size() - kShown) + " more";
  return out;
}

// Writes what is left for the next run (also when nothing is, over a journal read back or set
// aside); returns what the journal's bound left out.
JournalDrop keep_journal(const IssuesOptions& o, Journal left, bool set_aside, Context& ctx) {
  std::erase_if(left.runs, [](const Batch& b) { return b.flakes.empty(); });
  const bool nothing = left.runs.empty() && left.comments.empty();
  if (o.pending.empty()) {
    if (!nothing)
      ctx.workflow.annotate({Severity::warning,
                             "no --pending file: the flakes and comments not recorded by this run are not kept for the next run",
                             "Flakes not recorded"});
    return {};
  }
  if (nothing && !set_aside && !ctx.files.exists(o.pending)) return {};
  JournalText text = journal_json(left);
  throw_if_error(ctx.files.replace(o.pending, text.json));
  if (!text.dropped.empty())
    ctx.workflow.annotate({Severity::warning,
                           o.pending + " is full (" + std::to_string(kJournalBudgetBytes >> 20) + " MiB): " +
                               std::to_string(text.dropped.flakes) + " flake(s) and " +
                               std::to_string(text.dropped.comments) + " comment(s) were dropped, oldest first, of " +
                               std::to_string(text.dropped.tests.size()) + " test(s): " + listed(text.dropped.tests),
                           "flaky-tracker journal full"});
  return text.dropped;
}

// The journalled comments not posted are set aside: each, with its text, in a log group of
// its own (the log is what stays), the first 10 in one warning.
void warn_refused(const Tracker& tracker, Context& ctx) {
  if (tracker.refused().empty()) return;
  std::string which;
  ctx.workflow.begin_group("flaky-tracker journalled comments set aside");
  for (std::size_t i = 0; i < tracker.refused().size(); ++i) {
    const auto& r = tracker.refused()[i];
    const std::string one = "#" + std::to_string(r.comment.issue) + " (" +
                            (r.comment.id.empty() ? std::string("no test") : shorten(r.comment.id, 200)) +
                            "): " + r.reason;
    ctx.workflow.log("flaky-tracker: a journalled comment for " + one + ": set aside, not posted; its text:");
    log_lines(r.comment.body, ctx);
    if (i < 10) which += (i ? "; " : "") + one;
  }
  ctx.workflow.end_group();
  if (tracker.refused().size() > 10) which += "; and " + std::to_string(tracker.refused().size() - 10) + " more";
  ctx.workflow.annotate({Severity::warning,
                         std::to_string(tracker.refused().size()) +
                             " comment(s) kept in the journal are set aside, not posted (their text is in the log "
                             "group 'flaky-tracker journalled comments set aside'): each names an issue that is not "
                             "the one flaky-tracker keeps for its test: " + which,
                         "Flaky-test comments set aside"});
}

void warn_changed(const Tracker& tracker, Context& ctx) {
  for (const auto& c : tracker.changed())
    ctx.workflow.annotate({Severity::warning,
                           "#" + std::to_string(c.number) + " was listed as the issue of " + shorten(c.id, 300) +
                               ", but read again its marker names " +
                               (c.marker.empty() ? std::string("no test") : shorten(c.marker, 300)) +
                               " (its body was edited meanwhile): it is left alone for " + shorten(c.id, 300),
                           "Flaky-test issue changed"});
}

void warn_about(const IssuesOptions& o, const Tracker& tracker, Context& ctx) {
  if (!tracker.unposted().empty())
    ctx.workflow.annotate({Severity::warning,
                           std::to_string(tracker.unposted().size()) + " comment(s) could not be posted: " +
                               tracker.comment_error() +
                               (o.pending.empty() ? "" : "; they are kept in " + o.pending + " for the next run"),
                           "Flaky-test comments not posted"});
  for (const auto& g : tracker.given_up())
    ctx.workflow.annotate({Severity::warning,
                           "a comment kept from an earlier run on #" + std::to_string(g.comment.issue) + " (" +
                               shorten(g.comment.id, 300) + ") is given up: " + g.reason,
                           "Flaky-test comment given up"});
  warn_refused(tracker, ctx);
  warn_changed(tracker, ctx);
  if (!tracker.not_adopted().empty()) {
    std::string which;
    for (std::size_t i = 0; i < tracker.not_adopted().size() && i < 10; ++i) {
      const auto& n = tracker.not_adopted()[i];
      which += (i ? ", #" : "#") + std::to_string(n.number) + " (" + shorten(n.id, 200) + ", opened by '" +
               (n.author.empty() ? "?" : shorten(n.author, 60)) + "')";
    }
    if (tracker.not_adopted().size() > 10) which += " and " + std::to_string(tracker.not_adopted().size() - 10) + " more";
    ctx.workflow.annotate({Severity::warning,
                           std::to_string(tracker.not_adopted().size()) +
                               " issue(s) carry a flaky-test marker but were not opened by flaky-tracker's identity; "
                               "they are left alone: " + which,
                           "Flaky-test issues not adopted"});
  }
}

github::ClientOptions client_options(const IssuesOptions& o, Context& ctx) {
  auto options = github::options_for(ctx);
  options.budget = std::chrono::seconds(o.api_budget_s);
  options.total_budget = std::chrono::seconds(o.api_budget_s);
  return options;
}

}  // namespace

RunKind run_kind_of_event(std::string_view event_name) {
  const RunEvent event = run_event_of(event_name);
  if (reviews_a_change(event)) return RunKind::pr;
  if (event == RunEvent::schedule) return RunKind::daily;
  return RunKind::main;
}

ExitCode run_issues(const IssuesOptions& o, Context& ctx) {
  const std::string repo = ctx.run.repository_or(o.repo);
  if (repo.empty()) fail_bad_input("--repo: not given, and GITHUB_REPOSITORY is not set");
  for (const auto& c : o.creators)
    if (!github::is_login(c)) fail_bad_input("--creator: '" + shorten(c, 100) + "' is not a GitHub login (NAME, or SLUG[bot] for an app)");
  const ReadJournal read = journalled(o, ctx);
  const Journal& journal = read.journal;
  std::vector<Batch> runs = journal.runs;
  runs.push_back(this_run(o, ctx));
  const Batch& current = runs.back();
  auto client = value_or_throw(github::connect(ctx, client_options(o, ctx)));
  auto store = make_github_issue_store(client, repo);
  const Rules rules{o.close_after_greens, o.close_after_absences};
  auto creators = creators_of(o, client, ctx);
  Tracker tracker(*store, o.label, rules, creators ? *creators : std::vector<std::string>{},
                  static_cast<std::size_t>(o.max_new_issues));
  const std::size_t journalled_runs = runs.size() - 1;
  Applied applied = creators ? apply_all(tracker, journal, runs) : Applied{runs, creators.error()};
  std::size_t left_runs = 0;
  for (const auto& b : applied.left) left_runs += !b.flakes.empty();
  Journal left{std::move(applied.left), creators ? tracker.unposted() : journal.comments};
  const std::size_t unposted = left.comments.size();
  const JournalDrop dropped = keep_journal(o, std::move(left), read.set_aside, ctx);
  if (applied.error && applied.error->kind == ErrorKind::bad_input) fail(*applied.error);
  const std::string error = applied.error ? applied.error->message : "";
  if (!error.empty())
    ctx.workflow.annotate({Severity::warning,
                           "the flaky-test issues were not updated: " + error +
                               (o.pending.empty() ? "" : "; the flakes are kept in " + o.pending + " for the next run"),
                           "Flaky-test issues not updated"});
  warn_about(o, tracker, ctx);
  report_deferred(o, tracker, ctx);
  ctx.workflow.set_output("updated", error.empty() && unposted == 0 && tracker.deferred() == 0 ? "true" : "false");
  ctx.workflow.set_output("flaky", std::to_string(current.flakes.size()));
  const IssuesView view{current, journalled_runs, left_runs, error, unposted, dropped, tracker.deferred(),
                        o.max_new_issues, o.pending, read.set_aside_as, read.why};
  ctx.workflow.append_summary(issues_summary(view, tracker, rules));
  for (const auto& change : tracker.changes())
    ctx.workflow.log("#" + std::to_string(change.number) + " " + change.id + ": " + change.what);
  return ExitCode::pass;
}

}  // namespace gatekit::flaky_tracker
