#include "aggregate.hpp"

#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "gatekit/text.hpp"
#include "report.hpp"

namespace gatekit::aggregator {

Result<std::string> read_needs_text(const Options& options, const Environment& env, std::string& source) {
  if (!options.needs_file.empty()) {
    source = options.needs_file == "-" ? "stdin" : options.needs_file;
    if (options.needs_file == "-") {
      std::ostringstream s;
      s << std::cin.rdbuf();
      return s.str();
    }
    std::ifstream in(options.needs_file, std::ios::binary);
    if (!in) return make_error("needs: cannot read " + options.needs_file + ": no such file or not readable");
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
  source = options.needs_env;
  auto text = env.get(options.needs_env);
  if (!text)
    return make_error("needs: environment variable " + options.needs_env +
                      " is not set; pass ${{ toJSON(needs) }} through env: (or use --needs-file)");
  return *text;
}

namespace {

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
  for (const auto& [job, output] : policy.gated) gated.push_back(job + "=" + output);
  if (!gated.empty()) wf.log("gated: " + join(gated, ", "));
  if (!policy.allowed_failures.empty())
    wf.log("allowed-failures: " + join({policy.allowed_failures.begin(), policy.allowed_failures.end()}, ", "));
  if (!policy.allowed_skips.empty())
    wf.log("allowed-skips: " + join({policy.allowed_skips.begin(), policy.allowed_skips.end()}, ", "));
  if (!policy.allowed_leg_failures.empty()) wf.log("allowed-leg-failures: " + join(policy.allowed_leg_failures, ", "));
}

// No verdict: a usage error (exit 2) or could not evaluate (exit 3), as `error` says.
Outcome no_verdict(const Options& options, Workflow& wf, const Error& error) {
  const std::string& message = error.message;
  wf.set_output("result", "error");
  wf.set_output("reasons", "{}");
  wf.set_output("error", message);
  wf.append_summary(error_summary_markdown(options.title, message, error.code == ExitCode::usage_error));
  return {error.code, message};
}

}  // namespace

Outcome run_aggregate(const Options& options, const Environment& env, Workflow& wf, LegSource& leg_source) {
  auto policy = build_policy(options);
  if (!policy) return no_verdict(options, wf, policy.error());
  std::string source;
  auto text = read_needs_text(options, env, source);
  if (!text) return no_verdict(options, wf, text.error());
  auto needs = parse_needs(*text, source);
  if (!needs) return no_verdict(options, wf, needs.error());

  log_policy(*policy, wf);
  LegView legs;
  if (options.legs || !policy->allowed_leg_failures.empty()) {
    legs = leg_source.list(env, wf);
    if (!legs.available) wf.log("per-leg view unavailable: " + legs.unavailable_reason);
  }
  auto decision = decide(*needs, *policy, legs);
  if (!decision) return no_verdict(options, wf, decision.error());

  wf.begin_group("needed jobs (" + std::to_string(decision->jobs.size()) + ")");
  for (const auto& line : log_lines(*decision)) wf.log(line);
  wf.end_group();
  if (legs.available) {
    wf.begin_group("legs in this run (" + std::to_string(legs.legs.size()) + ")");
    for (const auto& leg : legs.legs)
      wf.log("  " + leg.name + ": " + (leg.status == "completed" ? leg.conclusion : leg.status));
    wf.end_group();
    for (const auto& allowed : policy->allowed_leg_failures) {
      bool seen = false;
      for (const auto& leg : legs.legs) seen = seen || leg.name == allowed;
      if (!seen)
        decision->warnings.push_back("allowed-leg-failures names '" + allowed +
                                     "', which is not a job of this run (check the leg's name)");
    }
  }
  for (const auto& w : decision->warnings) wf.annotate({Severity::warning, w, options.title, "", 0, 0});
  for (const auto& v : decision->jobs)
    if (!v.passed)
      wf.annotate({Severity::error, v.job + ": " + v.reason + (v.detail.empty() ? "" : ": " + v.detail),
                   options.title, "", 0, 0});
  wf.log(decision->passed ? "result: success (every needed job passed or was legitimately skipped)"
                          : "result: failure (a needed job did not pass)");
  wf.set_output("result", decision->passed ? "success" : "failure");
  wf.set_output("reasons", reasons_json(*decision));
  wf.append_summary(summary_markdown(options.title, *decision, legs));
  return {decision->passed ? ExitCode::pass : ExitCode::verdict_fail, {}};
}

}  // namespace gatekit::aggregator
