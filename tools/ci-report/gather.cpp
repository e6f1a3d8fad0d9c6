#include "gather.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "gatekit/flaky_issue.hpp"
#include "gatekit/text.hpp"

namespace gatekit::ci_report {
namespace {

constexpr std::int64_t kMinSplit = 3600;  // a window is split down to one hour
constexpr std::size_t kSearchCap = 1000;

struct Gatherer {
  github::Client& client;
  const GatherPlan& plan;
  Workflow& log;
  History history;

  bool stopped = false;  // an API call failed: nothing more is read
  std::size_t unreadable = 0;  // answers that could not be read: their items were skipped
  std::string first_unreadable;

  bool failed() const { return stopped; }
  void gap(std::string text) {
    history.gaps.push_back(std::move(text));
    stopped = true;
  }
  // A call that failed: an answer that could not be read (not JSON, not the shape expected)
  // skips its one item, counted and said; any other failure (the API down, the budget spent)
  // stops the reading. Either way the report is partial.
  void failed_call(const Error& error, const std::string& item) {
    if (!github::is_unreadable_answer(error)) return gap(error.message);
    if (unreadable++ == 0) first_unreadable = error.message;
    log.log("ci-report: skipped " + item + ": " + error.message);
  }
  void note_unreadable() {
    if (unreadable == 0) return;
    history.gaps.push_back(std::to_string(unreadable) + " answer(s) from GitHub could not be read; their runs, " +
                           "jobs, issues or statuses are left out (the first: " + first_unreadable + ")");
  }
  void note_gap(std::string text) { history.gaps.push_back(std::move(text)); }

  std::int64_t time_of(const std::string& text) { return parse_utc(text).value_or(0); }

  // Runs of `workflow` created in [from, to), split while GitHub caps the search.
  void list_runs(const std::string& workflow, std::int64_t from, std::int64_t to, std::vector<github::WorkflowRun>& out) {
    if (failed() || from >= to) return;
    const auto range = format_utc(from) + ".." + format_utc(to - 1);
    // One request for the count first: a window past the cap is split before its pages are read.
    auto count = client.list_workflow_runs_created(plan.repo, workflow, range, 1);
    if (!count) return failed_call(count.error(), "the runs of " + workflow + " created " + range);
    if (count->total_count > static_cast<std::int64_t>(kSearchCap) && to - from > kMinSplit) {
      const auto middle = from + (to - from) / 2;
      list_runs(workflow, from, middle, out);
      list_runs(workflow, middle, to, out);
      return;
    }
    if (count->total_count == 0) return;
    auto listing = client.list_workflow_runs_created(plan.repo, workflow, range);
    if (!listing) return failed_call(listing.error(), "the runs of " + workflow + " created " + range);
    const auto listed = static_cast<std::int64_t>(listing->runs.size());
    if (listing->total_count > static_cast<std::int64_t>(kSearchCap) && listing->total_count > listed)
      note_gap("GitHub lists at most 1000 runs of " + workflow + " per search and " +
               std::to_string(listing->total_count) + " were created from " + format_utc(from) + " to " +
               format_utc(to) + "; only " + std::to_string(listing->runs.size()) + " are counted");
    else if (listing->total_count > listed)  // its pages repeated runs (de-duplicated) in place of others
      note_gap("GitHub's listing of the runs of " + workflow + " created from " + format_utc(from) + " to " +
               format_utc(to) + " held " + std::to_string(listed) + " different runs of the " +
               std::to_string(listing->total_count) + " it counts (it changed while it was read); only " +
               std::to_string(listed) + " are counted");
    for (auto& r : listing->runs) out.push_back(std::move(r));
  }

  bool any_annotation(std::int64_t job_id, const std::string& needle, bool prefix) {
    auto notes = client.list_check_run_annotations(plan.repo, job_id);
    if (!notes) {
      failed_call(notes.error(), "the annotations of job " + std::to_string(job_id));
      return false;
    }
    return std::any_of(notes->begin(), notes->end(), [&](const github::CheckAnnotation& a) {
      return prefix ? a.message.rfind(needle, 0) == 0 : a.message.find(needle) != std::string::npos;
    });
  }

  Job job_of(const github::WorkflowJob& j) {
    return {j.id, j.name, j.conclusion, j.labels, j.runner_name, time_of(j.created_at), time_of(j.started_at),
            time_of(j.completed_at), false};
  }

  void read_jobs(const std::string& workflow, const std::vector<github::WorkflowRun>& runs) {
    const std::set<std::string> required(plan.required_jobs.begin(), plan.required_jobs.end());
    std::size_t done = 0;
    for (const auto& r : runs) {
      if (failed()) return;
      if (++done % 100 == 0 || done == runs.size())
        log.log("ci-report: " + workflow + ": jobs of " + std::to_string(done) + " of " + std::to_string(runs.size()) +
                " runs read");
      if (r.status != "completed") continue;  // still running: its cost is not known yet
      Run run{r.id, workflow, r.event, r.head_sha, r.conclusion, time_of(r.created_at), false, {},
              !r.repository.empty() && r.head_repository != r.repository};
      auto jobs = client.list_run_jobs(plan.repo, r.id);
      if (!jobs) {
        failed_call(jobs.error(), "run " + std::to_string(r.id));
        continue;  // stopped, or the run is left out
      }
      for (const auto& j : *jobs) run.jobs.push_back(job_of(j));
      if (run.created >= plan.since) annotate(run, required);
      history.runs.push_back(std::move(run));
    }
  }

  // Fail-open is looked for only where it can hide: a run whose gate succeeded and skipped
  // nothing (a fail-open gate runs every leg).
  void annotate(Run& run, const std::set<std::string>& required) {
    const Job* gate = nullptr;
    bool skipped = false;
    for (const auto& j : run.jobs) {
      if (j.name == plan.gate_job) gate = &j;
      else skipped = skipped || j.conclusion == "skipped";
    }
    if (gate != nullptr && gate->conclusion == "success" && !skipped)
      run.gate_failed_open = any_annotation(gate->id, "fail-open:", true);
    for (auto& j : run.jobs)
      if (!failed() && required.count(j.name) != 0 && j.conclusion == "failure")
        j.could_not_evaluate = any_annotation(j.id, "could not evaluate", false);
  }

  void read_flaky() {
    if (failed()) return;
    auto issues = client.list_issues(plan.repo, plan.flaky_label, "all");
    if (!issues) return failed_call(issues.error(), "the flaky-test issues");
    for (const auto& i : *issues) history.flaky.push_back(flaky_of(i));
  }

  // The issue's test and its flakes by run, from flaky-tracker's hidden state when it has one
  // and flaky-tracker's account opened it (anyone else's state could be planted).
  FlakyIssue flaky_of(const github::Issue& i) {
    FlakyIssue out{i.number, i.title, i.state, time_of(i.created_at), time_of(i.closed_at), "", 0, {}, false, 0};
    if (std::find(plan.flaky_creators.begin(), plan.flaky_creators.end(), i.author) == plan.flaky_creators.end())
      return out;
    auto test = flaky_issue::marker_id(i.body);
    auto state = flaky_issue::parse_state(i.body);
    if (!test || !state) return out;
    out.test = std::move(*test);
    out.flakes = state->flakes;
    for (const auto& entry : state->applied)
      if (const auto run = flaky_issue::applied_run(entry); run.flake && run.run_id) out.flake_runs.push_back(*run.run_id);
    out.runs_cut = state->applied.size() >= flaky_issue::kMaxApplied;
    if (out.runs_cut) out.oldest_run = flaky_issue::applied_run(state->applied.front()).run_id.value_or(0);
    return out;
  }

  void read_gpu_gate() {
    std::map<std::string, std::int64_t> pushed;  // head sha -> its first pull-request run
    for (const auto& r : history.runs) {
      if (r.event != "pull_request" || r.created < plan.since || r.head_sha.empty()) continue;
      auto& t = pushed[r.head_sha];
      if (t == 0 || r.created < t) t = r.created;
    }
    for (const auto& [sha, at] : pushed) {
      if (failed()) return;
      auto statuses = client.list_statuses(plan.repo, sha);
      if (!statuses) {
        failed_call(statuses.error(), "the statuses of " + sha);
        continue;
      }
      std::int64_t success = 0;
      for (const auto& s : *statuses)
        if (s.context == plan.gpu_context && s.state == "success") {
          const auto t = time_of(s.created_at);
          if (t != 0 && (success == 0 || t < success)) success = t;
        }
      history.gpu_gate.push_back({sha, at, success});
    }
  }
};

}  // namespace

History gather(github::Client& client, const GatherPlan& plan, Workflow& log) {
  Gatherer g{client, plan, log, {}};
  for (const auto& workflow : plan.workflows) {
    std::vector<github::WorkflowRun> runs;
    g.list_runs(workflow, plan.from, plan.until, runs);
    log.log("ci-report: " + workflow + ": " + std::to_string(runs.size()) + " runs from " + format_utc(plan.from) +
            " to " + format_utc(plan.until));
    g.read_jobs(workflow, runs);
  }
  g.read_flaky();
  g.read_gpu_gate();
  g.note_unreadable();
  g.history.requests = client.requests_sent();
  return std::move(g.history);
}

}  // namespace gatekit::ci_report
