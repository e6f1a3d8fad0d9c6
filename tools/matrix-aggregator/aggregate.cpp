// The aggregate command: read `needs`, decide, report.
#include <istream>
#include <string>
#include <utility>

#include "decide.hpp"
#include "gatekit/environment.hpp"
#include "gatekit/files.hpp"
#include "gatekit/text.hpp"
#include "gatekit/workflow.hpp"
#include "legs_api.hpp"
#include "matrix-aggregator.hpp"
#include "needs.hpp"
#include "report.hpp"

namespace gatekit::matrix_aggregator {

namespace {

// The needs text from the file (or stdin) or the environment variable the options name;
// `source` names it in messages.
Result<std::string> read_needs_text(const Options& options, Context& ctx, std::string& source) {
  if (!options.needs_file.empty()) {
    source = options.needs_file == "-" ? "stdin" : options.needs_file;
    auto text = options.needs_file == "-" ? read_stream(ctx.in, "stdin", kMaxNeedsBytes)
                                          : ctx.files.read(options.needs_file, kMaxNeedsBytes);
    if (!text) return could_not_evaluate("needs: " + text.error().message);
    return text;
  }
  source = options.needs_env;
  auto text = ctx.env.get(options.needs_env);
  if (!text)
    return could_not_evaluate("needs: environment variable " + options.needs_env +
                              " is not set; pass ${{ toJSON(needs) }} through env: (or use --needs-file)");
  return *text;
}

Result<Policy> build_policy(const Options& options) {
  Policy policy;
  if (!options.gate.empty()) policy.gate = options.gate;
  for (const auto& item : options.gated) {
    auto pairs = parse_gated(item);
    if (!pairs) return pairs.error();
    policy.gated.insert(policy.gated.end(), pairs->begin(), pairs->end());
  }
  for (const auto& item : options.allowed_failures) {
    auto names = parse_name_list(item, "allowed-failures");
    if (!names) return names.error();
    policy.allowed_failures.insert(names->begin(), names->end());
  }
  for (const auto& item : options.allowed_skips) {
    auto names = parse_name_list(item, "allowed-skips");
    if (!names) return names.error();
    policy.allowed_skips.insert(names->begin(), names->end());
  }
  for (const auto& leg : options.allowed_leg_failures) {
    auto name = trim(leg);
    if (!name.empty()) policy.allowed_leg_failures.push_back(name);
  }
  if (auto st = check_policy(policy); !st) return st.error();
  return policy;
}

void log_policy(const Policy& policy, Workflow& wf) {
  wf.log("gate job: " + (policy.gate ? *policy.gate : std::string("(none)")));
  std::vector<std::string> gated;
  for (const auto& item : policy.gated) gated.push_back(item.job + "=" + item.spelled());
  if (!gated.empty()) wf.log("gated: " + join(gated, ", "));
  if (!policy.allowed_failures.empty())
    wf.log("allowed-failures: " + join({policy.allowed_failures.begin(), policy.allowed_failures.end()}, ", "));
  if (!policy.allowed_skips.empty())
    wf.log("allowed-skips: " + join({policy.allowed_skips.begin(), policy.allowed_skips.end()}, ", "));
  if (!policy.allowed_leg_failures.empty()) wf.log("allowed-leg-failures: " + join(policy.allowed_leg_failures, ", "));
}

// The run's legs, when asked for (--legs) or when an allowance needs them.
LegView legs_for(const Options& options, const Policy& policy, Context& ctx) {
  if (!options.legs && policy.allowed_leg_failures.empty()) return {};
  auto legs = list_legs(ctx);
  if (!legs.available) ctx.workflow.log("per-leg view unavailable: " + legs.unavailable_reason);
  return legs;
}

// The legs in the log, and a warning for each allowance that names no leg of this run.
void report_legs(const LegView& legs, const Policy& policy, Decision& decision, Workflow& wf) {
  if (!legs.available) return;
  wf.begin_group("legs in this run (" + std::to_string(legs.legs.size()) + ")");
  for (const auto& leg : legs.legs)
    wf.log("  " + leg.name + ": " + (leg.status == "completed" ? leg.conclusion : leg.status));
  wf.end_group();
  for (const auto& allowed : policy.allowed_leg_failures) {
    bool seen = false;
    for (const auto& leg : legs.legs) seen = seen || leg.name == allowed;
    if (!seen)
      decision.warnings.push_back("allowed-leg-failures names '" + allowed +
                                  "', which is not a job of this run (check the leg's name)");
  }
}

void report(const Options& options, const Decision& decision, const LegView& legs, Workflow& wf) {
  for (const auto& w : decision.warnings) wf.annotate({Severity::warning, w, options.title, "", 0, 0});
  for (const auto& v : decision.jobs)
    if (!v.passed)
      wf.annotate({Severity::error, v.job + ": " + v.reason + (v.detail.empty() ? "" : ": " + v.detail),
                   options.title, "", 0, 0});
  wf.log(decision.passed ? "result: success (every needed job passed or was legitimately skipped)"
                         : "result: failure (a needed job did not pass)");
  wf.set_output("result", decision.passed ? "success" : "failure");
  wf.set_output("reasons", reasons_json(decision));
  wf.append_summary(summary_markdown(options.title, decision, legs));
}

}  // namespace

void report_no_verdict(const Options& options, const Error& error, Context& ctx) {
  const bool usage_error = error.kind == ErrorKind::bad_input;
  Workflow& wf = ctx.workflow;
  wf.set_output("reasons", "{}");
  wf.set_output("error", error.message);
  wf.append_summary(error_summary_markdown(options.title, error.message, usage_error));
  // The one trace the API keeps of "could not evaluate" (check-run annotations): ci-report
  // counts required checks that could not evaluate by it.
  if (!usage_error) wf.annotate({Severity::error, "could not evaluate: " + error.message, options.title, "", 0, 0});
}

ExitCode run_aggregate(const Options& options, Context& ctx) {
  auto& wf = ctx.workflow;
  const auto policy = value_or_throw(build_policy(options));
  std::string source;
  const auto text = value_or_throw(read_needs_text(options, ctx, source));
  const auto needs = value_or_throw(parse_needs(text, source));
  log_policy(policy, wf);
  const auto legs = legs_for(options, policy, ctx);
  auto decision = value_or_throw(decide(needs, policy, legs));
  wf.begin_group("needed jobs (" + std::to_string(decision.jobs.size()) + ")");
  for (const auto& line : log_lines(decision)) wf.log(line);
  wf.end_group();
  report_legs(legs, policy, decision, wf);
  report(options, decision, legs, wf);
  return decision.passed ? ExitCode::pass : ExitCode::verdict_fail;
}

}  // namespace gatekit::matrix_aggregator
