// `suite-report ran`: exit 3 when a leg whose selection is not empty ran no test, or when the
// modules its optional extras provide do not import.
#include "ran.hpp"

#include <chrono>

#include "collect.hpp"
#include "common.hpp"
#include "gatekit/junit_reader.hpp"
#include "gatekit/text.hpp"

namespace gatekit::suite_report {

namespace {

constexpr std::size_t kSkipMessages = 10'000;  // skip messages kept for grouping (each already bounded)

std::vector<ImportProblem> check_imports(const RanOptions& options, const Leg& leg, Context& context) {
  std::vector<ImportProblem> problems;
  for (const auto& module : leg.imports) {
    ProcessSpec spec;
    spec.argv = {options.python, "-c", kImportCheck, module};
    spec.cwd = options.root;
    spec.timeout = std::chrono::seconds(120);
    spec.capture_limit = 64 * 1024;
    auto result = context.processes.run(spec);
    if (!result) {
      problems.push_back({module, result.error().message});
    } else if (!result->succeeded()) {
      auto lines = split_lines(result->err);
      while (!lines.empty() && trim(lines.back()).empty()) lines.pop_back();
      problems.push_back({module, lines.empty() ? result->describe(spec.timeout) : lines.back()});
    }
    context.workflow.log("import " + module + ": " + (problems.empty() || problems.back().module != module ? "ok" : problems.back().error));
  }
  return problems;
}

std::size_t collect_selected(const RanOptions& options, const Selection& selection, const Leg& leg, Context& context) {
  const std::string ctx = resolve_context(options, context.run);
  CollectSpec spec;
  spec.python = options.python;
  spec.root = options.root;
  spec.paths = selection.paths;
  spec.timeout = std::chrono::seconds(options.collect_timeout_s);
  const auto expression = leg_expression(selection, leg, ctx);
  context.workflow.log("the report has no test: collecting " + describe_expression(expression) + " ...");
  return value_or_throw(collect(context.processes, context.clock, spec, expression)).node_ids.size();
}

std::string summary(const Leg& leg, const RanVerdict& verdict, const junit::ReadStats& stats,
                    const std::vector<SkipReason>& reasons, const std::vector<ImportProblem>& imports) {
  const char* icon = verdict.code == ExitCode::pass ? "✅" : "⚠️";
  std::string md = std::string("## ") + icon + " Leg " + markdown_text(leg.name, false) + ": " +
                   markdown_text(verdict.headline, false) + "\n\n";
  md += markdown_table({"passed", "failed", "errors", "skipped"},
                       {{std::to_string(stats.passed), std::to_string(stats.failures), std::to_string(stats.errors),
                         std::to_string(stats.skipped)}}) + "\n";
  if (verdict.code != ExitCode::pass && !reasons.empty()) {
    std::vector<std::vector<std::string>> rows;
    for (const auto& r : reasons) rows.push_back({markdown_text(r.reason), std::to_string(r.count)});
    md += "### Why the tests skipped\n\n" + markdown_table({"skip reason", "tests"}, rows) + "\n";
  }
  if (!imports.empty()) {
    std::vector<std::vector<std::string>> rows;
    for (const auto& p : imports) rows.push_back({markdown_code(p.module), markdown_text(p.error)});
    md += "### Imports that fail\n\n" + markdown_table({"module", "error"}, rows) + "\n";
  }
  if (verdict.code != ExitCode::pass)
    md += "No verdict: the leg's tests did not run, so its green would mean nothing. Check the runner "
          "(GPU visible? drivers?) and the leg's install step.\n\n";
  return md;
}

}  // namespace

ExitCode run_ran(const RanOptions& options, Context& context) {
  const Selection selection = load_selection(options, context.files);
  const Leg& leg = require_leg(selection, options.leg);
  RanFacts facts;
  facts.imports = check_imports(options, leg, context);
  junit::ReadOptions read;
  read.junit_prefix = options.junit_prefix;
  std::vector<std::string> skip_messages;
  const auto stats = value_or_throw(junit::read_file(context.files, options.report, [&](const junit::TestCase& test) {
    if (test.outcome == JunitOutcome::skipped && skip_messages.size() < kSkipMessages) skip_messages.push_back(test.message);
  }, read));
  facts.cases = stats.cases;
  facts.ran = stats.passed + stats.failures + stats.errors;
  std::string ctx = options.context;
  if (facts.cases == 0 && facts.imports.empty()) {
    facts.selected = collect_selected(options, selection, leg, context);
    ctx = resolve_context(options, context.run);
  }
  const auto verdict = decide_ran(facts, ctx);
  const auto reasons = group_skip_reasons(skip_messages, 10);
  context.workflow.log("leg " + leg.name + ": " + verdict.headline);
  if (verdict.code != ExitCode::pass) {
    for (const auto& r : reasons) context.workflow.log("  skipped " + std::to_string(r.count) + "x: " + r.reason);
    Annotation annotation;
    annotation.severity = Severity::error;
    annotation.title = "leg " + leg.name + " could not be evaluated";
    annotation.message = verdict.headline;
    context.workflow.annotate(annotation);
  }
  context.workflow.append_summary(summary(leg, verdict, stats, reasons, facts.imports));
  // Could not evaluate (exit 3): the frame writes `result=error` when the run returns.
  if (verdict.code == ExitCode::pass) context.workflow.set_output("result", "pass");
  context.workflow.set_output("ran", std::to_string(facts.ran));
  return verdict.code;
}

}  // namespace gatekit::suite_report
