// `suite-report shard-report`: after the shard jobs, compares each shard's predicted time with
// the time its tests took, shows the slowest shard's excess over the ideal (so a maintainer
// sees when to add runners), and merges the shards' JUnit reports into one, the leg's report
// for `growth` (which keeps the durations the next split uses). A shard without its report
// (failed to start, cancelled, its runner never came) is named, and nothing is merged: a
// partial report would read as tests removed. The verdict is the aggregator's, not this one's.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>

#include "common.hpp"
#include "gatekit/files.hpp"
#include "gatekit/junit_reader.hpp"
#include "gatekit/junit_writer.hpp"
#include "gatekit/text.hpp"
#include "growth.hpp"
#include "shard_plan.hpp"

namespace gatekit::suite_report {

namespace {

using std::chrono::milliseconds;

struct ShardRun {
  int index = 0;
  std::vector<std::string> tests;  // its list
  std::string missing;             // why it has no report, "" when it has one
  std::vector<JunitCase> cases;
  std::int64_t predicted_ms = 0;
  std::int64_t actual_ms = 0;
};

// The shard's artifact of the newest attempt: DIR/gpu-shard-K-attemptA, for A from this
// run's attempt (GITHUB_RUN_ATTEMPT) down to 1. A rerun of failed jobs reruns only the failed
// shards; the others keep their first attempt's artifact.
std::string folder_of(const ShardReportOptions& options, Context& context, int index) {
  long attempt = 1;
  if (auto text = context.env.get_nonempty("GITHUB_RUN_ATTEMPT")) {
    try {
      attempt = std::clamp(std::stol(*text), 1L, 1000L);
    } catch (const std::exception&) {
      fail_bad_input("GITHUB_RUN_ATTEMPT is not a number: " + *text);
    }
  }
  const std::string base = options.reports + "/gpu-shard-" + std::to_string(index) + "-attempt";
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

ShardRun read_shard(const ShardReportOptions& options, Context& context, int index) {
  ShardRun run;
  run.index = index;
  const std::string folder = folder_of(options, context, index);
  auto list = context.files.read(folder + "/list.txt");
  if (!list) {
    run.missing = "no list (" + folder + "/list.txt): the shard did not start, or its runner never came";
    return run;
  }
  run.tests = lines_of(*list);
  if (run.tests.empty()) return run;  // an empty shard runs nothing and writes no report
  junit::ReadOptions read_options;
  read_options.junit_prefix = options.junit_prefix;
  read_options.excerpt_bytes = 256;
  double seconds = 0;
  auto stats = junit::read_file(context.files, folder + "/junit.xml", [&](const junit::TestCase& test) {
    run.cases.push_back(to_case(test));
    seconds += test.time_s;
  }, read_options);
  if (!stats) {
    run.cases.clear();
    run.missing = "no readable report: " + stats.error().message;
    return run;
  }
  run.actual_ms = to_ms(seconds);
  return run;
}

Snapshot baseline_durations(const ShardReportOptions& options, Context& context) {
  if (options.baseline.empty() || !context.files.exists(options.baseline)) return {};
  auto baseline = read_baseline(context.files, options.baseline);
  if (!baseline) {
    context.workflow.log("the baseline cannot be read, predictions use 1 s a test: " + baseline.error().message);
    return {};
  }
  return std::move(baseline->tests);
}

void predict(std::vector<ShardRun>& runs, const Snapshot& durations) {
  std::vector<std::string> all;
  for (const auto& r : runs) all.insert(all.end(), r.tests.begin(), r.tests.end());
  const auto estimated = estimate(all, durations.seconds_of(all));
  std::size_t i = 0;
  for (auto& r : runs)
    for (std::size_t k = 0; k < r.tests.size(); ++k) r.predicted_ms += estimated.ms[i++];
}

std::string summary(const ShardReportOptions& options, const std::vector<ShardRun>& runs) {
  const auto ms = [](std::int64_t v) { return format_duration(milliseconds(v)); };
  std::string md = "## Shards of leg " + markdown_text(options.leg, false) + ": predicted and actual time\n\n";
  std::vector<std::vector<std::string>> rows;
  std::int64_t total = 0, slowest = 0;
  int slowest_index = 0;
  bool complete = true;
  for (const auto& r : runs) {
    const bool has = r.missing.empty();
    complete = complete && has;
    rows.push_back({std::to_string(r.index), std::to_string(r.tests.size()), ms(r.predicted_ms),
                    has ? ms(r.actual_ms) : "—", has ? "ran" : markdown_text(r.missing, false)});
    total += r.actual_ms;
    if (has && r.actual_ms > slowest) {
      slowest = r.actual_ms;
      slowest_index = r.index;
    }
  }
  md += markdown_table({"shard", "tests", "predicted", "actual", ""}, rows) + "\n";
  if (!complete) return md + "Some shards have no report: the excess over the ideal is not computed and no merged "
                             "report is written (growth would read the missing tests as removed).\n\n";
  const std::int64_t ideal = (total + options.shards - 1) / options.shards;
  md += "The slowest shard (" + std::to_string(slowest_index) + ") took " + ms(slowest) + ", " +
        percent_over(slowest, ideal) + " over the ideal " + ms(ideal) + " (all test time / " +
        std::to_string(options.shards) + "). When the slowest shard alone is longer than the job may take, add "
        "runners: raise the shard count (docs/guides/gpu-fleet.md).\n\n";
  return md;
}

}  // namespace

ExitCode run_shard_report(const ShardReportOptions& options, Context& context) {
  if (options.reports.empty()) fail_bad_input("shard-report needs --reports DIR (the downloaded shard artifacts)");
  const Snapshot durations = baseline_durations(options, context);
  std::vector<ShardRun> runs;
  for (int k = 1; k <= options.shards; ++k) runs.push_back(read_shard(options, context, k));
  predict(runs, durations);

  bool complete = true;
  JunitSuite merged;
  merged.name = "pytest";  // the readers derive pytest node ids from such a suite
  for (auto& r : runs) {
    if (!r.missing.empty()) {
      complete = false;
      Annotation annotation;
      annotation.severity = Severity::warning;
      annotation.title = "suite-report shard-report";
      annotation.message = "shard " + std::to_string(r.index) + " of " + std::to_string(options.shards) + ": " + r.missing;
      context.workflow.annotate(annotation);
    }
    context.workflow.log("shard " + std::to_string(r.index) + ": " + std::to_string(r.tests.size()) +
                         " tests, predicted " + format_duration(milliseconds(r.predicted_ms)) + ", actual " +
                         (r.missing.empty() ? format_duration(milliseconds(r.actual_ms)) : "none"));
    for (auto& c : r.cases) merged.time_s += c.time_s;
    std::move(r.cases.begin(), r.cases.end(), std::back_inserter(merged.cases));
  }
  context.workflow.append_summary(summary(options, runs));
  if (complete && !options.out.empty()) {
    throw_if_error(context.files.replace(options.out, write_junit({merged})));
    context.workflow.log("wrote the merged report (" + std::to_string(merged.cases.size()) + " tests) to " + options.out);
  }
  context.workflow.set_output("result", "pass");
  context.workflow.set_output("complete", complete ? "true" : "false");
  return ExitCode::pass;
}

}  // namespace gatekit::suite_report
