// `suite-report shard-report`: after the shard jobs, proves that together they ran the leg's
// selection, each test in exactly one shard (their plans agree and their lists partition what
// they collected), compares each shard's predicted time with the time its tests took, shows
// the slowest shard's excess over the ideal (so a maintainer sees when to add runners), and
// merges the shards' JUnit reports into one, the leg's report for `growth` (which keeps the
// durations the next split uses). A shard without its list, plan or report (failed to start,
// cancelled, its runner never came) is named and the run could not be evaluated (exit 3);
// shards that split differently fail (exit 1). Nothing is merged then: a partial report would
// read as tests removed.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
#include <stdexcept>

#include "common.hpp"
#include "selection.hpp"
#include "gatekit/files.hpp"
#include "gatekit/junit_reader.hpp"
#include "gatekit/junit_writer.hpp"
#include "gatekit/git.hpp"
#include "gatekit/text.hpp"
#include "shard_check.hpp"
#include "shard_plan.hpp"
#include "shard_record.hpp"

namespace gatekit::suite_report {

namespace {

using std::chrono::milliseconds;

constexpr std::size_t kMaxPlanBytes = std::size_t{1} << 20;

struct ShardRun {
  int index = 0;
  std::string folder;              // where it was looked for
  bool found = false;              // the folder has a list
  std::vector<std::string> tests;  // its list
  std::optional<ShardRecord> record;
  std::string missing;             // why it cannot be counted, "" when it can
  std::vector<JunitCase> cases;
  std::int64_t predicted_ms = 0;
  std::int64_t actual_ms = 0;
};

long run_attempt(Context& context) {
  const std::string& text = context.run.run_attempt;
  if (text.empty()) return 1;
  try {
    return std::clamp(std::stol(text), 1L, 1000L);
  } catch (const std::exception&) {
    fail_bad_input("GITHUB_RUN_ATTEMPT is not a number: " + text);
  }
}

// The shard's artifact of the newest attempt: DIR/<leg>-shard-K-attemptA, for A from this
// run's attempt (GITHUB_RUN_ATTEMPT) down to 1. A rerun of failed jobs reruns only the failed
// shards; the others keep their first attempt's artifact.
std::string folder_of(const ShardReportOptions& options, Context& context, long attempt, int index) {
  const std::string base = options.reports + "/" + options.leg + "-shard-" + std::to_string(index) + "-attempt";
  for (long a = attempt; a >= 1; --a)
    if (context.files.exists(base + std::to_string(a) + "/list.txt")) return base + std::to_string(a);
  return base + std::to_string(attempt);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    if (end > start) out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

JunitCase to_case(const junit::TestCase& test) {
  JunitCase c;
  c.classname = test.classname;
  c.name = test.name;
  c.time_s = test.time_s;
  c.outcome = test.outcome;
  c.message = test.message;
  c.type = test.type;
  c.file = test.file;
  c.line = test.line;
  return c;
}

void read_report(const ShardReportOptions& options, Context& context, ShardRun& run) {
  junit::ReadOptions read_options;
  read_options.junit_prefix = options.junit_prefix;
  read_options.excerpt_bytes = 256;
  double seconds = 0;
  auto stats = junit::read_file(context.files, run.folder + "/junit.xml", [&](const junit::TestCase& test) {
    run.cases.push_back(to_case(test));
    seconds += test.time_s;
  }, read_options);
  if (!stats) {
    run.cases.clear();
    run.missing = "no readable report: " + stats.error().message;
    return;
  }
  run.actual_ms = run.record->start_ms + to_ms(seconds);
}

ShardRun read_shard(const ShardReportOptions& options, Context& context, long attempt, int index) {
  ShardRun run;
  run.index = index;
  run.folder = folder_of(options, context, attempt, index);
  auto list = context.files.read(run.folder + "/list.txt");
  if (!list) {
    run.missing = "no list (" + run.folder + "/list.txt): the shard did not start, or its runner never came";
    return run;
  }
  run.found = true;
  run.tests = lines_of(*list);
  auto plan = context.files.read(run.folder + "/plan.json", kMaxPlanBytes);
  if (!plan) {
    run.missing = "no plan (" + run.folder + "/plan.json): its upload failed, or it was split without `--plan`";
    return run;
  }
  auto record = parse_record(*plan, run.folder + "/plan.json");
  if (!record) {
    run.missing = record.error().message;
    return run;
  }
  run.record = std::move(*record);
  const auto k = static_cast<std::size_t>(index - 1);
  run.predicted_ms = run.record->start_ms + (k < run.record->lists.size() ? run.record->lists[k].tests_ms : 0);
  if (run.tests.empty()) {
    run.actual_ms = run.record->start_ms;  // an empty shard runs nothing and writes no report
    return run;
  }
  read_report(options, context, run);
  return run;
}

void annotate(Context& context, Severity severity, const std::string& message) {
  Annotation annotation;
  annotation.severity = severity;
  annotation.title = "suite-report shard-report";
  annotation.message = message;
  context.workflow.annotate(annotation);
}

std::string shard_table(const std::vector<ShardRun>& runs) {
  const auto ms = [](std::int64_t v) { return format_duration(milliseconds(v)); };
  std::vector<std::vector<std::string>> rows;
  for (const auto& r : runs) {
    const bool has = r.missing.empty();
    rows.push_back({std::to_string(r.index), std::to_string(r.tests.size()), r.record ? ms(r.record->start_ms) : "—",
                    r.record ? ms(r.predicted_ms) : "—", has ? ms(r.actual_ms) : "—",
                    has ? "ran" : markdown_text(r.missing, false)});
  }
  return markdown_table({"shard", "tests", "start", "predicted", "actual", ""}, rows) + "\n";
}

std::string excess_line(const ShardReportOptions& options, const std::vector<ShardRun>& runs) {
  const auto ms = [](std::int64_t v) { return format_duration(milliseconds(v)); };
  std::int64_t test_time = 0, start = 0, slowest = 0;
  int slowest_index = 0;
  for (const auto& r : runs) {
    start = std::max(start, r.record->start_ms);
    test_time += r.actual_ms - r.record->start_ms;
    if (r.actual_ms > slowest) {
      slowest = r.actual_ms;
      slowest_index = r.index;
    }
  }
  const std::int64_t ideal = start + (test_time + options.shards - 1) / options.shards;
  return "The slowest shard (" + std::to_string(slowest_index) + ") took " + ms(slowest) + ", " +
         percent_over(slowest, ideal) + " over the ideal " + ms(ideal) + " (start + all test time / " +
         std::to_string(options.shards) + "; each shard's time is its start, its pytest collection, plus its tests). "
         "When the slowest shard alone is longer than the job may take, add runners: raise the shard count "
         "(docs/guides/gpu-fleet.md).\n\n";
}

std::string check_text(const ShardCheck& check) {
  std::string md = "**The shards did not run the leg's selection once:**\n\n";
  for (const auto& problem : check.problems) md += "- " + markdown_text(problem, false) + "\n";
  if (!check.in_two_named.empty()) {
    md += "\nIn two shards or more:\n\n" + markdown_id_list(check.in_two_named, check.in_two_named.size(),
                                                            check.in_two_shards);
  }
  return md + "\nNo merged report is written: growth would read it as this leg's whole run.\n\n";
}

}  // namespace

ExitCode run_shard_report(const ShardReportOptions& options, Context& context) {
  if (options.reports.empty()) fail_bad_input("shard-report needs --reports DIR (the downloaded shard artifacts)");
  if (!is_leg_name(options.leg))
    fail_bad_input("--leg " + quote_for_message(options.leg) + ": a leg name is letters, digits, '.', '_' and '-'");
  const long attempt = run_attempt(context);
  std::vector<ShardRun> runs;
  for (int k = 1; k <= options.shards; ++k) runs.push_back(read_shard(options, context, attempt, k));
  if (std::none_of(runs.begin(), runs.end(), [](const ShardRun& r) { return r.found; }))
    fail_could_not_evaluate("no shard of leg " + options.leg + " in " + options.reports + " (looked for " +
                            options.reports + "/" + options.leg + "-shard-K-attemptA/list.txt, K from 1 to " +
                            std::to_string(options.shards) + "): is --leg the leg the shards ran, and were their "
                            "artifacts downloaded?");

  std::vector<ShardSeen> seen;
  bool complete = true;
  for (const auto& r : runs) {
    if (!r.missing.empty()) {
      complete = false;
      annotate(context, Severity::warning, "shard " + std::to_string(r.index) + " of " + std::to_string(options.shards) + ": " + r.missing);
    }
    if (r.record) seen.push_back({r.index, r.tests, *r.record});
    context.workflow.log("shard " + std::to_string(r.index) + ": " + std::to_string(r.tests.size()) +
                         " tests, predicted " + format_duration(milliseconds(r.predicted_ms)) + ", actual " +
                         (r.missing.empty() ? format_duration(milliseconds(r.actual_ms)) : "none"));
  }
  const ShardCheck check = check_shards(seen, options.shards, options.leg);
  for (const auto& problem : check.problems) annotate(context, Severity::error, problem);

  std::string md = "## Shards of leg " + markdown_text(options.leg, false) + ": predicted and actual time\n\n" +
                   shard_table(runs);
  if (!complete) {
    md += "Some shards have no list, plan or report: the excess over the ideal is not computed and no merged "
          "report is written (growth would read the missing tests as removed).\n\n";
  }
  if (!check.ok()) md += check_text(check);
  if (complete && check.ok()) md += excess_line(options, runs);
  context.workflow.append_summary(md);

  const bool merged = complete && check.ok();
  if (merged && !options.out.empty()) {
    JunitSuite suite;
    suite.name = "pytest";  // the readers derive pytest node ids from such a suite
    for (auto& r : runs) {
      for (auto& c : r.cases) suite.time_s += c.time_s;
      std::move(r.cases.begin(), r.cases.end(), std::back_inserter(suite.cases));
    }
    throw_if_error(context.files.replace(options.out, write_junit({suite})));
    context.workflow.log("wrote the merged report (" + std::to_string(suite.cases.size()) + " tests) to " + options.out);
  }
  context.workflow.set_output("complete", merged ? "true" : "false");
  context.workflow.set_output("in-no-shard", std::to_string(check.in_no_shard));
  context.workflow.set_output("in-two-shards", std::to_string(check.in_two_shards));
  if (!complete) return ExitCode::could_not_evaluate;
  context.workflow.set_output("result", check.ok() ? "pass" : "fail");
  return check.ok() ? ExitCode::pass : ExitCode::verdict_fail;
}

}  // namespace gatekit::suite_report
