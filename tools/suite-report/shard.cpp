// `suite-report shard`: splits a leg's tests into N shards of about equal time, by the
// durations of the last main run's baseline, and writes each shard's node ids as a file of
// pytest arguments (`pytest @FILE`, pytest 8.2+). Every shard job collects on its own runner
// and splits the same way (the split depends on the set of tests and the durations, never on
// the collection's order); the split is checked to be a partition (each test in exactly one
// shard) before anything is written, and `--plan` records what it was made from, for
// `shard-report` to prove that every shard job made the same one.
#include <chrono>
#include <cstdio>
#include <optional>

#include "collect.hpp"
#include "common.hpp"
#include "gatekit/files.hpp"
#include "gatekit/pytest_ids.hpp"
#include "gatekit/text.hpp"
#include "growth.hpp"
#include "partition.hpp"
#include "shard_plan.hpp"
#include "shard_record.hpp"

namespace gatekit::suite_report {

namespace {

using std::chrono::milliseconds;

std::string seconds_text(std::int64_t ms) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3f", static_cast<double>(ms) / 1000.0);
  return buffer;
}

std::string shard_file_name(int index) { return "shard-" + std::to_string(index) + ".txt"; }

void check_options(const ShardOptions& options) {
  if (options.index > options.shards)
    fail_bad_input("--index " + std::to_string(options.index) + " is more than --shards " + std::to_string(options.shards));
  if (options.out.empty())
    fail_bad_input(options.index > 0 ? "shard needs --out FILE (the shard's list of node ids)"
                                     : "shard needs --out DIR (an existing folder for shard-1.txt ... shard-N.txt)");
}

struct Durations {
  Snapshot tests;
  std::string from;  // where they came from, for the plan
};

// The recorded durations, or none with a notice saying why (the split is then by count). A
// baseline that is named but missing stops the job: the other shard jobs may have it (the
// download failed here), and a shard that split by count while they split by the baseline
// would run tests they do not, and leave out others.
Durations recorded_durations(const ShardOptions& options, Context& context, const std::string& expression) {
  auto say = [&](const std::string& message) {
    Annotation annotation;
    annotation.severity = Severity::notice;
    annotation.title = "suite-report shard";
    annotation.message = message;
    context.workflow.annotate(annotation);
  };
  if (options.baseline.empty()) {
    say("no baseline with recorded durations: the shards are balanced by test count");
    return {{}, "no baseline (by count)"};
  }
  if (!context.files.exists(options.baseline))
    fail_could_not_evaluate("the baseline " + options.baseline +
                            " is missing: the shards of a leg must all split by the same durations, and the other "
                            "shard jobs may have it (give --baseline only when the file is there; without it every "
                            "shard splits by count)");
  const std::string from = "the baseline " + options.baseline;
  auto baseline = read_baseline(context.files, options.baseline);
  if (!baseline) {
    say("the baseline cannot be read, the shards are balanced by test count: " + baseline.error().message);
    return {{}, from + ", unreadable (by count)"};
  }
  if (baseline->key && baseline->key->selection != expression) {
    say("the baseline is for another selection (" + baseline->key->selection + "; this leg: " + expression +
        "): the shards are balanced by test count");
    return {{}, from + ", of another selection (by count)"};
  }
  return {std::move(baseline->tests), from};
}

void refuse_unsafe(const std::vector<std::string>& tests) {
  std::vector<std::string> problems;
  for (const auto& id : tests)
    if (auto why = pytest::unsafe_node_id(id)) problems.push_back("  " + id + ": " + *why);
  if (problems.empty()) return;
  const std::size_t total = problems.size();
  if (problems.size() > 10) problems.resize(10);
  fail_bad_input("cannot write " + std::to_string(total) + (total == 1 ? " node id" : " node ids") +
                 " to a pytest argument file safely (rename the tests):\n" + join(problems, "\n") +
                 (total > 10 ? "\n  ... and " + std::to_string(total - 10) + " more" : ""));
}

void prove_partition(const std::vector<std::string>& collection, const ShardPlan& plan) {
  std::vector<std::string> names;
  std::vector<const std::vector<std::string>*> lists;
  for (std::size_t k = 0; k < plan.shards.size(); ++k) {
    names.push_back("shard " + std::to_string(k + 1));
    lists.push_back(&plan.shards[k].tests);
  }
  const auto proof = decide_partition("shards", collection, names, lists);
  if (!proof.ok())
    fail_could_not_evaluate("the shards are not a partition of the leg (" + std::to_string(proof.in_no_leg.size()) +
                            " tests in no shard, " + std::to_string(proof.in_two_legs.size()) + " in two)");
}

std::string file_text(const std::vector<std::string>& tests) {
  std::string text;
  for (const auto& id : tests) text += id + "\n";
  return text;
}

std::string summary(const ShardOptions& options, const Leg& leg, const ShardPlan& plan) {
  const auto ms = [](std::int64_t v) { return format_duration(milliseconds(v)); };
  std::string md = "## Shards of leg " + markdown_text(leg.name, false) + ": " + std::to_string(plan.tests) +
                   " tests over " + std::to_string(options.shards) + " shards\n\n";
  std::vector<std::vector<std::string>> rows;
  for (std::size_t k = 0; k < plan.shards.size(); ++k) {
    const bool mine = options.index == static_cast<int>(k + 1);
    rows.push_back({std::to_string(k + 1) + (mine ? " (this job)" : ""), std::to_string(plan.shards[k].tests.size()),
                    ms(plan.shards[k].predicted_ms)});
  }
  md += markdown_table({"shard", "tests", "predicted"}, rows) + "\n";
  md += "The slowest shard is predicted at " + ms(plan.makespan_ms) + ", " + percent_over(plan.makespan_ms, plan.ideal_ms) +
        " over the ideal " + ms(plan.ideal_ms) + " (start + all test time / " + std::to_string(options.shards) +
        "); no split is faster than " + ms(plan.lower_bound_ms) + " (start + the longest test, or the ideal). " +
        "Each prediction includes a shard's start, " + ms(plan.start_ms) +
        " (this job's pytest collection: interpreter, plugins, imports). " + std::to_string(plan.with_history) + " of " +
        std::to_string(plan.tests) + " tests had a recorded duration; the others count as the mean, " +
        ms(plan.mean_ms) + ".\n\n";
  return md;
}

ShardRecord plan_record(const ShardOptions& options, const ShardInput& input, const ShardPlan& plan,
                        const std::string& from) {
  ShardRecord record;
  record.leg = options.leg;
  record.shards = options.shards;
  record.index = options.index;
  record.tests = plan.tests;
  record.tests_sha256 = tests_digest(input.tests);
  record.split_sha256 = split_digest(input);
  record.durations = from + ", " + std::to_string(plan.with_history) + " of " + std::to_string(plan.tests) +
                     " tests recorded";
  record.recorded = plan.with_history;
  record.start_ms = plan.start_ms;
  for (const auto& shard : plan.shards) record.lists.push_back({shard.tests.size(), tests_digest(shard.tests), shard.tests_ms});
  return record;
}

}  // namespace

ExitCode run_shard(const ShardOptions& options, Context& context) {
  const auto started = context.clock.monotonic();
  check_options(options);
  const Selection selection = load_selection(options, context.files);
  const Leg& leg = require_leg(selection, options.leg);
  const std::string ctx = resolve_context(options, context.run);
  const std::string expression = leg_expression(selection, leg, ctx);

  CollectSpec spec;
  spec.python = options.python;
  spec.root = options.root;
  spec.paths = selection.paths;
  spec.timeout = std::chrono::seconds(options.collect_timeout_s);
  context.workflow.log("collecting " + describe_expression(expression) + " ...");
  const auto collection = value_or_throw(collect(context.processes, context.clock, spec, expression));
  refuse_unsafe(collection.node_ids);

  const Durations durations = recorded_durations(options, context, expression);
  ShardInput input;
  input.tests = collection.node_ids;
  input.seconds = durations.tests.seconds_of(collection.node_ids);
  input.shards = options.shards;
  input.start_ms = collection.pytest_time.count();
  const auto plan_started = context.clock.monotonic();
  const ShardPlan plan = plan_shards(input);
  prove_partition(collection.node_ids, plan);
  const auto plan_time = std::chrono::duration_cast<milliseconds>(context.clock.monotonic() - plan_started);

  for (std::size_t k = 0; k < plan.shards.size(); ++k) {
    const int index = static_cast<int>(k + 1);
    const auto& shard = plan.shards[k];
    context.workflow.log("shard " + std::to_string(index) + " of " + std::to_string(options.shards) + ": " +
                         std::to_string(shard.tests.size()) + " tests, predicted " +
                         format_duration(milliseconds(shard.predicted_ms)));
    if (options.index != 0 && options.index != index) continue;
    const std::string path = options.index != 0 ? options.out : options.out + "/" + shard_file_name(index);
    throw_if_error(context.files.replace(path, file_text(shard.tests)));
  }
  if (!options.plan.empty())
    throw_if_error(context.files.replace(options.plan, record_json(plan_record(options, input, plan, durations.from))));
  context.workflow.append_summary(summary(options, leg, plan));
  context.workflow.set_output("result", "pass");
  context.workflow.set_output("shards", std::to_string(options.shards));
  context.workflow.set_output("makespan-seconds", seconds_text(plan.makespan_ms));
  context.workflow.set_output("ideal-seconds", seconds_text(plan.ideal_ms));
  if (options.index != 0) {
    const auto& mine = plan.shards[static_cast<std::size_t>(options.index - 1)];
    context.workflow.set_output("file", options.out);
    context.workflow.set_output("tests", std::to_string(mine.tests.size()));
    context.workflow.set_output("predicted-seconds", seconds_text(mine.predicted_ms));
  } else {
    context.workflow.set_output("tests", std::to_string(plan.tests));
  }
  const auto own = std::chrono::duration_cast<milliseconds>(context.clock.monotonic() - started) - collection.pytest_time;
  context.workflow.log("timing: the split took " + std::to_string(plan_time.count()) +
                       " ms; suite-report's own work took " + std::to_string(own.count()) + " ms");
  return ExitCode::pass;
}

}  // namespace gatekit::suite_report
