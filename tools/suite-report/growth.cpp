// `suite-report growth`: finds the last main run's baseline (--find-baseline), compares this
// run's report with it, notices large growth, and writes this run as the next baseline.
// Growth is information, never a gate: a missing baseline, an API failure or an unreadable
// baseline is a notice and exit 0. Only this run's own report must be readable.
#include "growth.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <unordered_set>

#include "common.hpp"
#include "gatekit/clock.hpp"
#include "gatekit/files.hpp"
#include "gatekit/github.hpp"
#include "gatekit/process.hpp"
#include "gatekit/text.hpp"
#include "growth_lookup.hpp"
#include "growth_tally.hpp"

namespace gatekit::suite_report {

namespace {

using IdentitySet = std::unordered_set<TestIdentity, TestIdentityHash, TestIdentityKeyEqual>;

// The workflow's file name (what the runs API takes), from --workflow or GITHUB_WORKFLOW_REF;
// nullopt when neither says it (a local run, or a runner that does not set the ref).
std::optional<std::string> known_workflow_file(const GrowthOptions& options, const RunInfo& run) {
  if (!options.workflow.empty()) return options.workflow;
  if (const std::string& ref = run.workflow_ref; !ref.empty()) {
    std::string path = ref.substr(0, ref.find('@'));
    return path.substr(path.rfind('/') + 1);
  }
  return std::nullopt;
}

// The key's workflow: the file name, else the display name (keys stay distinct locally).
std::string workflow_file(const GrowthOptions& options, const RunInfo& run) {
  if (auto file = known_workflow_file(options, run)) return *file;
  return run.workflow.empty() ? "local" : run.workflow;
}

std::string python_version(const GrowthOptions& options, Context& context) {
  if (!options.python_version.empty()) return options.python_version;
  ProcessSpec spec;
  spec.argv = {options.python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"};
  spec.timeout = std::chrono::seconds(60);
  spec.capture_limit = 1024;
  auto result = context.processes.run(spec);
  if (result && result->succeeded()) return trim(result->out);
  context.workflow.log("could not ask " + options.python + " for its version: the key says python=unknown");
  return "unknown";
}

ConfigKey make_key(const GrowthOptions& options, Context& context, const Selection& selection, const Leg& leg,
                   const std::string& ctx) {
  ConfigKey key;
  key.workflow = workflow_file(options, context.run);
  key.job = !options.job.empty() ? options.job : context.run.job.empty() ? "local" : context.run.job;
  key.python = python_version(options, context);
  key.selection = leg_expression(selection, leg, ctx);
  return key;
}

void notice(Workflow& workflow, const std::string& message) {
  Annotation annotation;
  annotation.severity = Severity::notice;
  annotation.title = "suite growth";
  annotation.message = message;
  workflow.annotate(annotation);
}

ExitCode find_baseline(const GrowthOptions& options, Context& context, const ConfigKey& key) {
  const std::string repo = context.run.repository_or(options.repo);
  if (repo.empty()) fail_bad_input("--find-baseline needs --repo or GITHUB_REPOSITORY");
  auto client_options = github::options_for(context);
  client_options.budget = std::chrono::seconds(options.api_budget_s);
  client_options.total_budget = std::chrono::seconds(options.api_budget_s);
  auto client = value_or_throw(github::connect(context, client_options));
  const auto artifact = key.artifact_name();
  context.workflow.set_output("artifact", artifact);
  context.workflow.set_output("key", key.text());
  context.workflow.log("baseline key: " + key.text());
  if (!known_workflow_file(options, context.run)) {
    // The runs API takes a workflow file name or id; a display name would only find nothing.
    context.workflow.set_output("result", "pass");
    context.workflow.set_output("found", "false");
    context.workflow.set_output("run-id", "");
    notice(context.workflow, "no suite baseline looked up: the workflow file is not known (give --workflow; "
                             "GITHUB_WORKFLOW_REF is not set)");
    return ExitCode::pass;
  }
  const auto lookup = find_baseline_artifact(client, repo, key.workflow, options.branch, artifact);
  context.workflow.set_output("result", "pass");
  context.workflow.set_output("found", lookup.found ? "true" : "false");
  context.workflow.set_output("run-id", lookup.found ? std::to_string(lookup.run_id) : "");
  if (lookup.found) {
    context.workflow.log("baseline: artifact " + artifact + " of run " + std::to_string(lookup.run_id) + " (" + lookup.sha + ")");
    if (lookup.not_the_branch > 0)
      context.workflow.log("passed over " + std::to_string(lookup.not_the_branch) + " newer push run(s) named " +
                           options.branch + " whose commit the branch was never updated to (a tag's push runs "
                           "are reported under the tag's name)");
  } else if (lookup.api_failed) {
    notice(context.workflow, "could not look up the suite baseline (" + lookup.note + "); growth is not compared this time");
  } else {
    notice(context.workflow, "no suite baseline yet for this configuration (" + lookup.note +
                                 "); the next push to " + options.branch + " stores one");
  }
  return ExitCode::pass;
}

// How many new and removed tests a summary names (the counts are always whole).
constexpr std::size_t kListed = 200;

// The baseline to compare with, its tests read into `tally`; nullopt (and `tally` empty) with
// the reason in `note`, noticed once this run's own report has been read.
std::optional<Baseline> usable_baseline(const GrowthOptions& options, Context& context, const ConfigKey& key,
                                        GrowthTally& tally, std::string& note) {
  if (options.baseline.empty() || !context.files.exists(options.baseline)) {
    note = "no suite baseline yet for this configuration (" + key.text() + "); the next push to " + options.branch +
           " stores one";
    return std::nullopt;
  }
  auto baseline = visit_baseline(context.files, options.baseline,
                                 {[&](const TestIdentity& id, double seconds) { return tally.add_base(id, seconds); }, {}, {}});
  if (!baseline) {
    note = "the suite baseline cannot be read, growth is not compared: " + baseline.error().message;
  } else if (baseline->key && !(*baseline->key == key)) {
    note = "the suite baseline is for another configuration (" + baseline->key->text() + "; this run: " + key.text() +
           "), growth is not compared";
  } else {
    return std::move(*baseline);
  }
  tally = GrowthTally{};
  return std::nullopt;
}

// The display names of the first kListed of the tests this run no longer has, in the
// baseline's order: a second reading of the baseline that stops once it has them.
Names removed_names(const GrowthOptions& options, Context& context, const GrowthTally& tally, std::size_t removed) {
  const std::size_t wanted = std::min(removed, kListed);
  IdentitySet asked;
  BaselineVisit visit{[](const TestIdentity&, double) -> Result<bool> { return true; },
                      [&](const TestIdentity& id) { return tally.removed(id) && asked.insert(id).second; },
                      [&] { return asked.size() >= wanted; }};
  auto baseline = visit_baseline(context.files, options.baseline, visit);
  return baseline ? std::move(baseline->names) : Names{};
}

std::string signed_count(long long n) { return n == 0 ? "±0" : (n > 0 ? "+" : "") + std::to_string(n); }
std::string signed_duration(double seconds) { return (seconds < 0 ? "-" : "+") + duration(seconds < 0 ? -seconds : seconds); }

std::string name_of(const Names& names, const TestIdentity& id) {
  const auto it = names.find(id);
  return it == names.end() ? "(test " + id.hex().substr(0, 12) + ")" : it->second;
}

bool grew(const GrowthResult& g) {
  return std::any_of(g.reached.begin(), g.reached.end(), [](Reached r) { return r != Reached::removed_tests; });
}

std::string compared_summary(const GrowthResult& g, const Baseline& base, const Names& added_names,
                             const Thresholds& thresholds, const HistoryPoint& now) {
  const std::string head = grew(g) ? "## 📈 Suite growth: " : g.notice ? "## 📉 Suite shrank: " : "## Suite size: ";
  std::string md = head + signed_count(static_cast<long long>(g.tests) - static_cast<long long>(g.base_tests)) +
                   " tests, " + signed_duration(g.seconds - g.base_seconds) + "\n\n";
  const std::string base_label = !base.history.empty() && !base.history.back().sha.empty()
                                     ? "main (" + markdown_code(base.history.back().sha.substr(0, 7)) + ")"
                                     : "baseline";
  md += markdown_table(
      {"", base_label, "this run", "change"},
      {{"tests", std::to_string(g.base_tests), std::to_string(g.tests),
        signed_count(static_cast<long long>(g.tests) - static_cast<long long>(g.base_tests))},
       {"test time", duration(g.base_seconds), duration(g.seconds), signed_duration(g.seconds - g.base_seconds)},
       {"new tests", "", std::to_string(g.added.size()) + " (" + duration(g.added_seconds) + ")", ""},
       {"removed tests", "", std::to_string(g.removed.size()), ""}});
  std::vector<std::string> reached;
  for (const auto r : g.reached) reached.push_back(threshold_text(r, thresholds));
  md += "\nNotice thresholds: " + std::to_string(thresholds.tests) + " new or removed tests, or " +
        duration(thresholds.seconds) + " of new test time" +
        (g.notice ? " — **reached: " + join(reached, ", ") + "**." : ".") + "\n\n";
  if (!g.added.empty()) {
    std::vector<std::vector<std::string>> rows;
    for (std::size_t i = 0; i < g.added.size() && i < 10; ++i)
      rows.push_back({markdown_code(name_of(added_names, g.added[i].id)), duration(g.added[i].seconds)});
    md += "### Slowest new tests\n\n" + markdown_table({"test", "time"}, rows) + "\n";
    std::vector<std::string> ids;
    for (std::size_t i = 0; i < g.added.size() && i < kListed; ++i) ids.push_back(name_of(added_names, g.added[i].id));
    md += "<details><summary>All " + std::to_string(g.added.size()) + " new tests</summary>\n\n" +
          markdown_id_list(ids, kListed, g.added.size()) + "\n</details>\n\n";
  }
  if (!g.removed.empty()) {
    std::vector<std::string> ids;
    for (std::size_t i = 0; i < g.removed.size() && i < kListed; ++i) ids.push_back(name_of(base.names, g.removed[i]));
    md += "<details><summary>" + std::to_string(g.removed.size()) + (g.removed.size() == 1 ? " removed test" : " removed tests") +
          "</summary>\n\n" + markdown_id_list(ids, kListed, g.removed.size()) + "\n</details>\n\n";
  }
  if (base.key) md += history_charts(base.history, now) + "\n";
  return md;
}

void report_written(const GrowthOptions& options, Context& context, const Status& written, std::size_t tests) {
  if (written) {
    context.workflow.log("wrote the next baseline (" + std::to_string(tests) + " tests) to " + options.write_baseline);
    return;
  }
  Annotation annotation;
  annotation.severity = Severity::warning;
  annotation.title = "suite growth";
  annotation.message = "could not write the next suite baseline: " + written.error().message;
  context.workflow.annotate(annotation);
}

// The first case of this run whose id is not the one gatekit made before ids by family
// (ReportCase::legacy_differs), and how many there are: a baseline written before then
// (Baseline::legacy_ids) cannot be compared with this run.
struct ChangedIds {
  std::size_t count = 0;
  std::string first;  // its display name
};

// This run's report, read once: each case into `tally` (after the baseline's tests), the
// slowest new tests' display names kept as they come, and with `next` each test's display
// name for the next baseline, at its first case.
SlowestNew read_report(const GrowthOptions& options, const Files& files, GrowthTally& tally, bool compared,
                       BaselineWriter* next, ChangedIds& changed) {
  SlowestNew slowest(compared ? kListed : 0);
  std::string made;  // a display name that is not the id as it is
  throw_if_error(visit_report(files, options.report, options.junit_prefix, [&](const ReportCase& c) -> Status {
    if (c.legacy_differs && changed.count++ == 0) changed.first = c.display();
    auto seen = tally.add_now(c.identity, c.seconds);
    if (!seen)
      return could_not_evaluate(options.report + ":" + std::to_string(c.line) + ": test `" + c.display() + "`: " +
                                seen.error().message);
    if (seen->added && seen->first) slowest.offer(c.identity, c.seconds, c.ordinal, [&] { return c.display(); });
    if (next != nullptr && seen->first) (void)next->add(c.display(made));  // an error waits for finish()
    return {};
  }));
  return slowest;
}

// A second pass over this run's report, only when some test repeats and new tests are to be
// named: its seconds are whole only at the end, and so are the slowest new tests. The
// identities come from `tally`: no case is hashed again, and only the wanted few names are kept.
void name_slowest(const GrowthOptions& options, const Files& files, const GrowthTally& tally, const IdentitySet& wanted,
                  Names& names) {
  if (!tally.repeats() || wanted.empty()) return;
  throw_if_error(visit_report(files, options.report, options.junit_prefix, [&](const ReportCase& c) -> Status {
    const auto test = tally.case_at(c.ordinal);
    if (test.first && wanted.count(test.id) > 0) names.emplace(test.id, c.display());
    return {};
  }, false));
}

// The next baseline put together: its header (this run ends its history), then each test's
// identity and whole seconds from `tally` beside the name written as the report was read.
void finish_baseline(const GrowthOptions& options, Context& context, const ConfigKey& key,
                     const std::optional<Baseline>& base, const GrowthTally& tally, const HistoryPoint& point,
                     BaselineWriter& next) {
  std::vector<HistoryPoint> history = base && base->key ? base->history : std::vector<HistoryPoint>{};
  history.push_back(point);
  std::size_t at = 0;  // the case whose test comes next: the tests in the order of their first cases
  const auto test_at = [&](std::size_t) {
    GrowthTally::Case test;
    do test = tally.case_at(at++);
    while (!test.first);
    return TestLine{test.id, test.seconds};
  };
  report_written(options, context, next.finish(key, history, tally.tests(), test_at), tally.tests());
}

// The comparison with a usable baseline, logged; nullopt (noticed) when the two cannot be
// compared: their identities disagree, or the baseline was written before ids by family and
// this run has tests whose ids changed with them (docs/junit.md, "Test identity").
std::optional<GrowthResult> compared_growth(const std::optional<Baseline>& base, const GrowthTally& tally,
                                            const ChangedIds& changed, const Thresholds& thresholds, Context& context) {
  if (!base) return std::nullopt;
  if (base->legacy_ids && changed.count > 0) {
    notice(context.workflow,
           "growth is not compared: " + base->source + " was written by an older gatekit, whose test ids left out the "
           "suite and counted a name's cases as one test; " + std::to_string(changed.count) + " of this run's cases have "
           "other ids now (first: `" + changed.first + "`), so the two would differ where the tests did not: growth "
           "is compared again once a push to the baseline branch stores a version 3 baseline (nothing to do but "
           "wait for that run, or re-run the last one)");
    return std::nullopt;
  }
  auto compared = tally.result(thresholds);
  if (!compared) {
    notice(context.workflow, "growth is not compared: " + base->source + ": " + compared.error().message);
    return std::nullopt;
  }
  context.workflow.log("compared with " + base->source + ": this change " + describe_growth(*compared, thresholds));
  return std::move(*compared);
}

void report_compared(const GrowthResult& growth, const Baseline& base, const Names& added_names,
                     const Thresholds& thresholds, const HistoryPoint& point, const ConfigKey& key, Workflow& workflow) {
  if (growth.notice) notice(workflow, "This change " + describe_growth(growth, thresholds) + " (" + key.text() + ")");
  workflow.append_summary(compared_summary(growth, base, added_names, thresholds, point));
  workflow.set_output("baseline", "found");
  workflow.set_output("new-tests", std::to_string(growth.added.size()));
  workflow.set_output("removed-tests", std::to_string(growth.removed.size()));
  workflow.set_output("notice", growth.notice ? "true" : "false");
}

void report_uncompared(const GrowthOptions& options, const ConfigKey& key, const HistoryPoint& point, Workflow& workflow) {
  workflow.append_summary("## Suite size: " + std::to_string(point.tests) + " tests, " + duration(point.seconds) +
                          "\n\nNo baseline to compare with for " + markdown_code(key.text()) +
                          ": growth is reported once a push to " + markdown_text(options.branch, false) +
                          " has stored one.\n\n");
  workflow.set_output("baseline", "none");
  workflow.set_output("notice", "false");
}

}  // namespace

ExitCode run_growth(const GrowthOptions& options, Context& context) {
  const Selection selection = load_selection(options, context.files);
  const Leg& leg = require_leg(selection, options.leg);
  const std::string ctx = resolve_context(options, context.run);
  const ConfigKey key = make_key(options, context, selection, leg, ctx);
  if (options.find_baseline) return find_baseline(options, context, key);
  if (options.report.empty()) fail_bad_input("growth needs --report (or --find-baseline)");
  const Thresholds thresholds{options.notice_tests.value_or(selection.notice_tests),
                              options.notice_seconds.value_or(selection.notice_seconds)};

  // The baseline first, then this run's report once, each case answered as it comes: neither
  // is held, only compact identities.
  GrowthTally tally;
  std::string base_note;
  auto base = usable_baseline(options, context, key, tally, base_note);
  std::optional<BaselineWriter> next;
  if (!options.write_baseline.empty()) next.emplace(context.files, options.write_baseline);
  ChangedIds changed;
  const SlowestNew slowest =
      read_report(options, context.files, tally, base.has_value(), next ? &*next : nullptr, changed);
  if (!base) notice(context.workflow, base_note);
  const auto growth = compared_growth(base, tally, changed, thresholds, context);
  if (growth && !growth->removed.empty()) base->names = removed_names(options, context, tally, growth->removed.size());
  const HistoryPoint point{context.run.sha, context.run.run_id,
                           format_utc(context.clock.epoch_seconds()),
                           tally.tests(), tally.seconds()};
  IdentitySet wanted;
  if (growth)
    for (std::size_t i = 0; i < growth->added.size() && i < kListed; ++i) wanted.insert(growth->added[i].id);
  Names added_names = tally.repeats() ? Names{} : slowest.names();
  name_slowest(options, context.files, tally, wanted, added_names);
  // Written once every reading of the baseline is done: --write-baseline may name it.
  if (next) finish_baseline(options, context, key, base, tally, point, *next);
  context.workflow.set_output("result", "pass");
  context.workflow.set_output("tests", std::to_string(tally.tests()));
  context.workflow.set_output("artifact", key.artifact_name());
  context.workflow.set_output("key", key.text());
  if (growth)
    report_compared(*growth, *base, added_names, thresholds, point, key, context.workflow);
  else
    report_uncompared(options, key, point, context.workflow);
  return ExitCode::pass;
}

}  // namespace gatekit::suite_report
