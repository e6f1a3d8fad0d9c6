#include "decide.hpp"

#include <algorithm>
#include <map>

#include "gatekit/compat.hpp"
#include "gatekit/text.hpp"

namespace gatekit::aggregator {

namespace {

std::string job_list(const Needs& needs) {
  std::vector<std::string> names;
  for (const auto& job : needs.jobs) names.push_back(job.name);
  return join(names, ", ");
}

Status require_known(const Needs& needs, const std::string& name, std::string_view option) {
  if (needs.find(name) != nullptr) return {};
  std::vector<std::string_view> candidates;
  for (const auto& job : needs.jobs) candidates.emplace_back(job.name);
  std::string message = std::string(option) + " names job '" + name + "', which is not in needs (" +
                        job_list(needs) + ")";
  if (auto hint = closest_match(name, candidates)) message += "; did you mean '" + *hint + "'?";
  else message += "; add it to the aggregator job's needs:";
  return make_error(message);
}

// What the gate said about one gated job, once the gate succeeded.
struct GateAnswer {
  std::string output;
  std::string value;  // "true" or "false"
};

}  // namespace

Result<std::vector<std::string>> parse_name_list(std::string_view text, std::string_view option) {
  std::vector<std::string> names;
  const std::string trimmed = trim(text);
  if (trimmed.empty()) return names;
  if (trimmed.front() == '[') {
    boost::system::error_code ec;
    auto value = boost::json::parse(trimmed, ec);
    if (ec || !value.is_array())
      return make_error(std::string(option) + ": starts with '[' but is not a JSON array of job names",
                        ExitCode::usage_error);
    for (const auto& item : value.get_array()) {
      if (!item.is_string())
        return make_error(std::string(option) + ": the JSON array must hold job names (strings) only",
                          ExitCode::usage_error);
      auto name = trim(std::string_view(item.get_string()));
      if (!name.empty()) names.push_back(name);
    }
    return names;
  }
  std::size_t start = 0;
  while (start <= trimmed.size()) {
    auto end = trimmed.find_first_of(",\n", start);
    auto name = trim(std::string_view(trimmed).substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (!name.empty()) names.push_back(name);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return names;
}

Result<std::vector<std::pair<std::string, std::string>>> parse_gated(std::string_view text) {
  std::vector<std::pair<std::string, std::string>> pairs;
  std::string token;
  auto flush = [&]() -> Status {
    if (token.empty()) return {};
    auto eq = token.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == token.size() || token.find('=', eq + 1) != std::string::npos)
      return make_error("--gated: '" + token + "' is not JOB=OUTPUT (e.g. tests=cpu)", ExitCode::usage_error);
    pairs.emplace_back(token.substr(0, eq), token.substr(eq + 1));
    token.clear();
    return {};
  };
  for (char c : text) {
    if (c == ',' || c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      if (auto st = flush(); !st) return st.error();
    } else {
      token += c;
    }
  }
  if (auto st = flush(); !st) return st.error();
  return pairs;
}

Status check_policy(const Policy& policy) {
  constexpr auto usage = ExitCode::usage_error;
  if (!policy.gated.empty() && !policy.gate)
    return make_error("--gated needs --gate-job: a gated job is judged by the gate's outputs", usage);
  std::set<std::string> seen;
  for (const auto& [job, output] : policy.gated) {
    if (policy.gate && job == *policy.gate) return make_error("--gated names the gate job '" + job + "' itself", usage);
    if (!seen.insert(job).second) return make_error("--gated names job '" + job + "' twice", usage);
  }
  for (const auto* list : {&policy.allowed_failures, &policy.allowed_skips}) {
    const char* option = list == &policy.allowed_failures ? "allowed-failures" : "allowed-skips";
    if (policy.gate && list->count(*policy.gate) > 0)
      return make_error(std::string(option) + " names the gate job '" + *policy.gate +
                            "': the gate must always succeed, or nothing says which suites were needed",
                        usage);
  }
  return {};
}

Result<Decision> decide(const Needs& needs, const Policy& policy, const LegView& legs) {
  // ---- the policy must be consistent (usage errors), then name real jobs (exit 3) ----
  if (auto st = check_policy(policy); !st) return st.error();
  if (policy.gate) {
    if (auto st = require_known(needs, *policy.gate, "--gate-job"); !st) return st.error();
  }
  std::map<std::string, std::string> gated(policy.gated.begin(), policy.gated.end());  // job -> output
  for (const auto& [job, output] : policy.gated) {
    if (auto st = require_known(needs, job, "--gated"); !st) return st.error();
  }
  for (const auto* list : {&policy.allowed_failures, &policy.allowed_skips}) {
    const char* option = list == &policy.allowed_failures ? "allowed-failures" : "allowed-skips";
    for (const auto& job : *list) {
      if (auto st = require_known(needs, job, option); !st) return st.error();
    }
  }

  // ---- the gate ----
  const NeededJob* gate = policy.gate ? needs.find(*policy.gate) : nullptr;
  const bool gate_ok = gate != nullptr && gate->result == JobResult::success;
  std::map<std::string, GateAnswer> answers;
  if (gate_ok) {
    for (const auto& [job, output] : gated) {
      auto it = gate->outputs.find(output);
      if (it == gate->outputs.end()) {
        std::vector<std::string> have;
        for (const auto& [name, value] : gate->outputs) have.push_back(name);
        return make_error("gate job '" + gate->name + "' succeeded but has no output '" + output +
                          "' (needed for --gated " + job + "=" + output + "; its outputs: " +
                          (have.empty() ? std::string("none") : join(have, ", ")) + ")");
      }
      if (it->second != "true" && it->second != "false")
        return make_error("gate job '" + gate->name + "' output '" + output + "' is '" + it->second +
                          "', expected 'true' or 'false'");
      answers[job] = {output, it->second};
    }
  }

  // ---- one verdict per job ----
  Decision decision;
  const std::string gate_name = gate != nullptr ? gate->name : std::string();
  for (const auto& job : needs.jobs) {
    JobVerdict v;
    v.job = job.name;
    v.result = job.result;
    const std::string result(to_string(job.result));
    const bool allow_fail = policy.allowed_failures.count(job.name) > 0;
    const bool allow_skip = policy.allowed_skips.count(job.name) > 0;
    if (gate != nullptr && job.name == gate_name) {
      v.role = Role::gate;
      v.passed = gate_ok;
      if (gate_ok) {
        v.reason = "passed";
      } else {
        v.reason = "did not pass (" + result + ")";
        v.detail = "the gate job must succeed: without it nothing says which suites were needed";
      }
      decision.jobs.push_back(std::move(v));
      continue;
    }
    auto gated_it = gated.find(job.name);
    if (gated_it != gated.end()) {
      v.role = Role::gated;
      v.gate_output = gated_it->second;
      if (auto a = answers.find(job.name); a != answers.end()) v.gate_value = a->second.value;
    }
    switch (job.result) {
      case JobResult::success:
        v.passed = true;
        v.reason = "passed";
        break;
      case JobResult::failure:
      case JobResult::cancelled:
        if (allow_fail) {
          v.passed = true;
          v.reason = result == "failure" ? "failed (allowed by allowed-failures)"
                                         : "cancelled (allowed by allowed-failures)";
          break;
        }
        v.reason = "did not pass (" + result + ")";
        if (job.result == JobResult::failure && !policy.allowed_leg_failures.empty()) {
          if (!legs.available)
            return make_error("job '" + job.name + "' failed and allowed-leg-failures is set, but the legs "
                              "could not be listed: " + legs.unavailable_reason);
          decision.legs_used = true;
          auto excuse = excuse_by_legs(legs.legs, policy.allowed_leg_failures);
          if (excuse.excused) {
            v.passed = true;
            v.reason = "failed only in allowed legs: " + join(excuse.allowed_failed, ", ");
          } else {
            v.detail = excuse.why_not;
          }
        }
        if (job.result == JobResult::cancelled && !v.passed)
          v.detail = "cancelled means the job was not checked; re-run it";
        break;
      case JobResult::skipped:
        if (v.role == Role::gated && gate_ok && v.gate_value == "false") {
          v.passed = true;
          v.reason = "skipped (no relevant change)";
          v.detail = gate_name + ".outputs." + v.gate_output + " is 'false'";
        } else if (allow_skip) {
          v.passed = true;
          v.reason = "skipped (allowed by allowed-skips)";
          if (v.role == Role::gated && gate_ok) {
            v.detail = "although " + gate_name + ".outputs." + v.gate_output + " is 'true'";
            decision.warnings.push_back("job '" + job.name + "' was skipped although the gate asked for it (" +
                                        gate_name + ".outputs." + v.gate_output +
                                        " is 'true'); allowed-skips lets it pass");
          }
        } else if (v.role == Role::gated && gate_ok) {
          v.reason = "did not pass (skipped)";
          v.detail = "matrix skipped but the gate asked for it: check the job's if: (" + gate_name + ".outputs." +
                     v.gate_output + " is 'true')";
        } else if (v.role == Role::gated) {
          v.reason = "did not pass (skipped)";
          v.detail = "skipped because the gate job did not succeed";
        } else {
          v.reason = "did not pass (skipped)";
          v.detail = "not gated (--gated) and not in allowed-skips";
        }
        break;
    }
    decision.jobs.push_back(std::move(v));
  }
  decision.passed = std::all_of(decision.jobs.begin(), decision.jobs.end(), [](const auto& v) { return v.passed; });
  if (decision.passed &&
      std::all_of(decision.jobs.begin(), decision.jobs.end(), [](const auto& v) { return v.result == JobResult::skipped; }))
    decision.warnings.push_back("every needed job was skipped: nothing was tested in this run");
  return decision;
}

}  // namespace gatekit::aggregator
