// flaky-tracker rerun: the failures of a run, rerun alone, merged back into its report.
#include <filesystem>
#include <unordered_map>

#include "command.hpp"
#include "flaky-tracker.hpp"
#include "gatekit/files.hpp"
#include "gatekit/junit_rewrite.hpp"
#include "gatekit/text.hpp"
#include "gatekit/workflow.hpp"
#include "report.hpp"
#include "rerun_merge.hpp"
#include "summary.hpp"
#include "test_pass.hpp"

namespace gatekit::flaky_tracker {

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxAnnotations = 50;

JunitAttempt attempt_of(const junit::TestCase& c) {
  if (c.outcome == JunitOutcome::skipped) return {false, "skipped on rerun: " + c.message};
  return {c.outcome == JunitOutcome::error, c.message, c.type, c.detail};
}

struct Rerun {
  const std::vector<std::string>& words;
  TargetForm form;
  const RerunOptions& o;
  fs::path work_dir;
};

// The pass that reruns the remaining targets, its report in the work folder.
test_run::TestPass rerun_pass(const std::vector<RerunTarget>& remaining, int attempt, const Rerun& r) {
  const auto& [words, form, o, work_dir] = r;
  std::vector<std::string> args;
  for (const auto& t : remaining) args.push_back(t.arg);
  test_run::TestPass pass;
  pass.name = "rerun " + std::to_string(attempt);
  pass.junit = (work_dir / ("rerun-" + std::to_string(attempt) + ".xml")).string();
  test_run::CommandValues values;
  if (form == TargetForm::node_ids) values.tests = std::move(args);
  else values.names = test_run::names_regex(args);
  values.junit = pass.junit;
  pass.argv = test_run::expand(words, values);
  pass.cwd = o.cwd;
  pass.timeout = std::chrono::seconds(o.timeout_s);
  pass.group = "rerun " + std::to_string(attempt) + " of " + std::to_string(o.times) + ": " +
               std::to_string(remaining.size()) + " test" + (remaining.size() == 1 ? "" : "s");
  pass.read_options.junit_prefix = o.junit_prefix;  // stripped only where present
  return pass;
}

// One rerun of the remaining targets; returns those that still did not pass.
std::vector<RerunTarget> rerun_once(const std::vector<RerunTarget>& remaining, int attempt, const Rerun& r,
                                    Context& ctx, Histories& histories) {
  const auto ran = value_or_throw(run_pass(ctx, rerun_pass(remaining, attempt, r)));
  const std::string& how = ran.how;
  const auto& rerun = ran.report;
  std::unordered_map<std::string, const junit::TestCase*> by_id;
  if (rerun)
    for (const auto& c : rerun->cases) by_id.emplace(c.id(), &c);
  else
    ctx.workflow.annotate({Severity::warning, "the rerun left no readable report (" + how + "): " + ran.report_error,
                           "Rerun without a report"});
  std::vector<RerunTarget> still;
  for (const auto& t : remaining) {
    auto found = by_id.find(t.id);
    if (found != by_id.end() && found->second->outcome == JunitOutcome::passed) {
      histories[t.id].passed_on = attempt;
      continue;
    }
    histories[t.id].failed_attempts.push_back(
        !rerun ? JunitAttempt{false, "the rerun left no readable report (" + how + ")"}
        : found == by_id.end() ? JunitAttempt{false, "not in the rerun's report (the rerun command: " + how + ")"}
                               : attempt_of(*found->second));
    still.push_back(t);
  }
  ctx.workflow.log("rerun " + std::to_string(attempt) + ": " + std::to_string(remaining.size() - still.size()) +
                   " passed, " + std::to_string(still.size()) + " did not (" + how + ")");
  return still;
}

Histories rerun_targets(const RerunPlan& plan, const std::vector<std::string>& words, TargetForm form,
                        const RerunOptions& o, Context& ctx) {
  Histories histories;
  const fs::path output = o.output.empty() ? fs::path(o.report) : fs::path(o.output);
  const fs::path work_dir = value_or_throw(
      ctx.files.absolute(!o.work_dir.empty() ? fs::path(o.work_dir) : output.has_parent_path() ? output.parent_path() : fs::path(".")));
  const Rerun r{words, form, o, work_dir};
  std::vector<RerunTarget> remaining = plan.targets;
  for (int attempt = 1; attempt <= o.times && !remaining.empty(); ++attempt)
    remaining = rerun_once(remaining, attempt, r, ctx, histories);
  return histories;
}

void report_verdict(const RerunVerdict& verdict, Context& ctx) {
  for (std::size_t i = 0; i < verdict.flaky.size() && i < kMaxAnnotations; ++i) {
    const auto& f = verdict.flaky[i];
    ctx.workflow.annotate({Severity::warning,
                           f.id + " is flaky: " + f.how + (f.message.empty() ? "" : ": " + f.message), "Flaky test",
                           f.file, f.line});
  }
  for (std::size_t i = 0; i < verdict.failed.size() && i < kMaxAnnotations; ++i) {
    const auto& f = verdict.failed[i];
    ctx.workflow.annotate({Severity::error, f.id + ": " + f.reason, "Failed test", f.file, f.line});
  }
  for (const auto& f : verdict.flaky) ctx.workflow.log("flaky: " + f.id + " (" + f.how + ")");
  for (const auto& f : verdict.failed) ctx.workflow.log("failed: " + f.id + " (" + f.reason + ")");
  std::vector<std::string> ids;
  for (const auto& f : verdict.flaky) ids.push_back(f.id);
  ctx.workflow.set_output("result", verdict.code == ExitCode::pass ? "pass" : "fail");
  ctx.workflow.set_output("flaky", std::to_string(verdict.flaky.size()));
  ctx.workflow.set_output("failed", std::to_string(verdict.failed.size()));
  ctx.workflow.set_output("flaky-tests", join(ids, "\n"));
}

// A report with nothing to rerun or merge: nothing to do but say so (and copy it to --output).
ExitCode all_passed(const RerunOptions& o, const std::string& output, const Scan& scan, Context& ctx) {
  ctx.workflow.log(o.report + ": " + std::to_string(scan.stats.cases) + " tests, no failure to rerun");
  ctx.workflow.set_output("report", output);
  report_verdict(RerunVerdict{}, ctx);
  ctx.workflow.append_summary(rerun_summary(RerunVerdict{}, RerunPlan{}, scan.stats.cases, o.times));
  return ExitCode::pass;
}

// The merged report: the run's report as it was, with `edits` made, streamed from the report
// to `output` (written beside it, then renamed over it: junit::rewrite, Files::replace_streamed).
void write_merged(const RerunOptions& o, const std::string& output, const std::vector<junit::CaseEdit>& edits,
                  Context& ctx) {
  junit::ReadOptions options;
  options.junit_prefix = o.junit_prefix;  // as the report was read: the ids depend on it
  throw_if_error(ctx.files.replace_streamed(output, [&](const Files::Sink& write) -> Status {
    auto written = junit::rewrite(ctx.files, o.report, edits, write, options);
    if (!written) return written.error();
    return {};
  }));
}

// A report that is missing or unreadable (pytest crashed before writing it) is the run's
// failure: an annotation on the run's page, not a line lost in the log.
// (The frame writes `result=error`, as for every rerun without a verdict.)
[[noreturn]] void refuse_report(const Error& error, Context& ctx) {
  ctx.workflow.annotate({Severity::error, error.message, kNoReportTitle});
  fail(error);
}

}  // namespace

ExitCode run_rerun(const RerunOptions& o, Context& ctx) {
  const auto given = value_or_throw(command_words(o.command_text, o.command));
  const auto checked = value_or_throw(check_rerun_template(given.empty() ? default_rerun_command() : given));
  test_run::warn_old_spellings(ctx.workflow, checked.command, "--command");
  const auto& words = checked.command.words;
  const TargetForm form = checked.form;
  auto scan = scan_report(ctx.files, o.report, o.junit_prefix);
  if (!scan) refuse_report(scan.error(), ctx);
  const std::string output = o.output.empty() ? o.report : o.output;
  if (!scan->needs_merge) {
    if (output != o.report) write_merged(o, output, {}, ctx);  // a copy, byte for byte
    return all_passed(o, output, *scan, ctx);
  }
  // Read once: the scan kept the cases, unless they were too many to hold.
  auto report = scan->cases ? finish_report(std::move(*scan->cases), scan->stats, o.report)
                            : load_report(ctx.files, o.report, o.junit_prefix);
  if (!report) refuse_report(report.error(), ctx);
  const auto plan = decide_rerun(report->cases, o.max_failures, form);
  ctx.workflow.log(o.report + ": " + std::to_string(report->cases.size()) + " tests, " + std::to_string(plan.failures) +
                   " failed; " + (plan.broken.empty() ? std::to_string(plan.targets.size()) + " to rerun" : plan.broken));
  const Histories histories = rerun_targets(plan, words, form, o, ctx);
  const RerunVerdict verdict = decide_verdict(report->cases, plan, histories, o.times);
  const std::vector<junit::CaseEdit> edits = merge_edits(report->cases, histories);
  const std::size_t tests = report->cases.size();
  std::vector<junit::TestCase>().swap(report->cases);  // the merge streams: it needs none of them
  // A report nothing changed stays as it was; --output gets its copy.
  if (!edits.empty() || output != o.report) write_merged(o, output, edits, ctx);
  ctx.workflow.set_output("report", output);
  report_verdict(verdict, ctx);
  ctx.workflow.append_summary(rerun_summary(verdict, plan, tests, o.times));
  return verdict.code;
}

}  // namespace gatekit::flaky_tracker
