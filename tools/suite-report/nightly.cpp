// `suite-report nightly`: prints (and sets as step outputs) the marker expression a leg runs
// in the current context, so workflows and gpu-gate never write an expression themselves.
#include "nightly.hpp"

#include <algorithm>

#include "common.hpp"
#include "gatekit/text.hpp"

namespace gatekit::suite_report {

std::string_view to_string(RunKind kind) {
  switch (kind) {
    case RunKind::tests: return "tests";
    case RunKind::docs: return "docs";
    case RunKind::none: return "none";
  }
  return "tests";
}

LegPlan plan_leg(const Selection& selection, const Leg& leg, const std::string& context, bool docs_only,
                 const std::string& variant) {
  if (!docs_only) {
    const bool nightly = selection.runs_nightly(context);
    return {RunKind::tests, leg_expression(selection, leg, context),
            std::string("context ") + context + (nightly ? " runs the nightly tests too" : " leaves the nightly tests out")};
  }
  if (!selection.docs)
    return {RunKind::none, "", "the change touches documentation only and the selection file names no docs tests"};
  if (selection.docs->leg != leg.name)
    return {RunKind::none, "", "the change touches documentation only; leg " + selection.docs->leg + " runs the docs tests"};
  if (!selection.docs->variant.empty() && selection.docs->variant != variant)
    return {RunKind::none, "",
            "the change touches documentation only; the " + selection.docs->variant + " job of this leg runs the docs tests"};
  return {RunKind::docs, docs_expression(selection, context), "the change touches documentation only: the docs tests run"};
}

namespace {

// The docs leg's jobs are given every value of their matrix (--variants): a docs variant that
// is none of them would leave a documentation-only change untested while every job passes.
void check_docs_variant(const NightlyOptions& options, const Selection& selection, const Leg& leg, Workflow& workflow) {
  const auto values = matrix_values(options);
  if (values.empty() || !selection.docs || selection.docs->leg != leg.name) return;
  if (!options.variant.empty() && std::find(values.begin(), values.end(), options.variant) == values.end())
    fail_bad_input("--variant '" + visible_controls(options.variant) + "' is none of --variants (" + join(values, ", ") + ")");
  // A value dropped from the matrix but still listed would pass the check below unseen.
  if (options.matrix_jobs > 0 && static_cast<std::size_t>(options.matrix_jobs) != values.size())
    fail_bad_input("--variants lists " + std::to_string(values.size()) + " values (" + join(values, ", ") +
                   ") but the matrix has " + std::to_string(options.matrix_jobs) +
                   " jobs (--matrix-jobs): list every value of the matrix, once");
  const auto problem = docs_variant_problem(selection, values);
  if (problem.empty()) return;
  if (options.docs_only) fail_could_not_evaluate(problem);
  workflow.annotate({Severity::warning, problem, "suite-report nightly: docs variant"});
}

}  // namespace

ExitCode run_nightly(const NightlyOptions& options, Context& context) {
  const Selection selection = load_selection(options, context.files);
  const Leg& leg = require_leg(selection, options.leg);
  const std::string ctx = resolve_context(options, context.run);
  check_docs_variant(options, selection, leg, context.workflow);
  const auto plan = plan_leg(selection, leg, ctx, options.docs_only, options.variant);
  context.workflow.set_output("markers", plan.markers);
  context.workflow.set_output("run", std::string(to_string(plan.run)));
  context.workflow.set_output("context", ctx);
  std::string line = "Leg " + markdown_text(leg.name, false) + (options.variant.empty() ? "" : " (" + markdown_text(options.variant, false) + ")");
  if (plan.run == RunKind::none) line += " runs no test: " + markdown_text(plan.why, false);
  else line += " runs " + markdown_code("-m " + plan.markers) + ": " + markdown_text(plan.why, false);
  context.workflow.append_summary(line + ".\n\n");
  if (!plan.markers.empty()) context.workflow.log(plan.markers);
  return ExitCode::pass;
}

}  // namespace gatekit::suite_report
