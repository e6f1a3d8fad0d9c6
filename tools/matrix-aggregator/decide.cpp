#include "decide.hpp"

#include <algorithm>
#include <cctype>
#include <map>

#include "gatekit/json.hpp"
#include "gatekit/text.hpp"

namespace gatekit::matrix_aggregator {

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
  return could_not_evaluate(message);
}

// What the gate said about one gated job, once the gate succeeded.
struct GateAnswer {
  bool needed = false;  // one output 'true'; several: any (a|b) or all (a&b) of them 'true'
  std::string said;     // each output's value: "cpu=false docs=true"
  std::string why;      // the outputs that decided: "changes.outputs.docs is 'true'"
};

// GitHub's rule for a job id (the keys of `needs`): a letter or '_', then letters, digits,
// '-' and '_'. Anything else is a list written in another form, never a job.
Status check_job_id(std::string_view name, std::string_view option) {
  const auto letter = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_'; };
  const auto word = [&](char c) { return letter(c) || std::isdigit(static_cast<unsigned char>(c)) != 0 || c == '-'; };
  const bool valid = !name.empty() && letter(name.front()) && std::all_of(name.begin(), name.end(), word);
  if (valid) return {};
  const std::string head = std::string(option) + ": '" + shown_name(name) + "'";
  if (name.find_first_of("\"'") != std::string_view::npos)
    return bad_input(head + " has quotes left over: write a JSON array [\"a\", \"b\"] or a plain list a, b");
  return bad_input(head + " is not a job id (a letter or '_', then letters, digits, '-' and '_'); " +
                   "separate names with commas or newlines");
}

// `text` starts with '['.
Result<std::vector<std::string>> parse_json_names(const std::string& text, std::string_view option) {
  boost::system::error_code ec;
  const auto value = boost::json::parse(text, ec);
  if (ec)
    return bad_input(std::string(option) + ": starts with '[' but is not a JSON array (" + ec.message() +
                     "): write [\"a\", \"b\"] with double quotes, or a plain list a, b");
  std::vector<std::string> names;
  const auto& items = value.get_array();  // valid JSON that starts with '[' is an array
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (!items[i].is_string())
      return bad_input(std::string(option) + ": item " + std::to_string(i + 1) + " of the JSON array is " +
                       json_kind_name(items[i]) + ", not a job name (a string)");
    auto name = trim(std::string_view(items[i].get_string()));
    if (name.empty()) continue;
    if (auto st = check_job_id(name, option); !st) return st.error();
    names.push_back(std::move(name));
  }
  return names;
}

}  // namespace

Result<std::vector<std::string>> parse_name_list(std::string_view text, std::string_view option) {
  const std::string trimmed = trim(text);
  if (!trimmed.empty() && trimmed.front() == '[') return parse_json_names(trimmed, option);
  std::vector<std::string> names;
  std::size_t start = 0;
  while (start < trimmed.size()) {
    auto end = trimmed.find_first_of(",\n", start);
    if (end == std::string::npos) end = trimmed.size();
    auto name = trim(std::string_view(trimmed).substr(start, end - start));
    start = end + 1;
    if (name.empty()) continue;
    if (auto st = check_job_id(name, option); !st) return st.error();
    names.push_back(std::move(name));
  }
  return names;
}

std::string GatedJob::spelled() const { return join(outputs, combine == Combine::all ? "&" : "|"); }

namespace {

// One `JOB=OUTPUT` item: OUTPUT is one output name, or several joined by '|' or by '&'.
Result<GatedJob> parse_gated_item(const std::string& token) {
  const auto eq = token.find('=');
  const auto not_a_pair = [&] { return bad_input("--gated: '" + token + "' is not JOB=OUTPUT (e.g. tests=cpu)"); };
  if (eq == std::string::npos || eq == 0 || eq + 1 == token.size() || token.find('=', eq + 1) != std::string::npos)
    return not_a_pair();
  const std::string spec = token.substr(eq + 1);
  const bool any = spec.find('|') != std::string::npos;
  const bool all = spec.find('&') != std::string::npos;
  if (any && all)
    return bad_input("--gated: '" + token + "' joins outputs with both '|' and '&': the job is needed when any of "
                     "them is 'true' (a|b) or only when all are (a&b), never a mix");
  GatedJob gated{token.substr(0, eq), {}, all ? Combine::all : Combine::any};
  const char separator = all ? '&' : '|';
  std::size_t start = 0;
  while (start <= spec.size()) {
    auto end = spec.find(separator, start);
    if (end == std::string::npos) end = spec.size();
    auto output = spec.substr(start, end - start);
    if (output.empty()) return not_a_pair();
    gated.outputs.push_back(std::move(output));
    start = end + 1;
  }
  return gated;
}

}  // namespace

Result<std::vector<GatedJob>> parse_gated(std::string_view text) {
  std::vector<GatedJob> items;
  std::string token;
  auto flush = [&]() -> Status {
    if (token.empty()) return {};
    auto item = parse_gated_item(token);
    if (!item) return item.error();
    items.push_back(std::move(*item));
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
  return items;
}

Status check_policy(const Policy& policy) {
  if (!policy.gated.empty() && !policy.gate)
    return bad_input("--gated needs --gate-job: a gated job is judged by the gate's outputs");
  std::set<std::string> seen;
  for (const auto& gated : policy.gated) {
    const auto& job = gated.job;
    if (policy.gate && job == *policy.gate) return bad_input("--gated names the gate job '" + job + "' itself");
    if (!seen.insert(job).second) return bad_input("--gated names job '" + job + "' twice");
    std::set<std::string> outputs;
    for (const auto& output : gated.outputs)
      if (!outputs.insert(output).second)
        return bad_input("--gated: " + job + "=" + gated.spelled() + " names output '" + output + "' twice");
  }
  for (const auto* list : {&policy.allowed_failures, &policy.allowed_skips}) {
    const char* option = list == &policy.allowed_failures ? "allowed-failures" : "allowed-skips";
    if (policy.gate && list->count(*policy.gate) > 0)
      return bad_input(std::string(option) + " names the gate job '" + *policy.gate +
                       "': the gate must always succeed, or nothing says which suites were needed");
  }
  return {};
}

namespace {

// Phase 1: the policy is consistent (usage errors), then names only jobs of `needs` (exit 3).
Status check_names(const Needs& needs, const Policy& policy) {
  if (auto st = check_policy(policy); !st) return st;
  if (policy.gate)
    if (auto st = require_known(needs, *policy.gate, "--gate-job"); !st) return st;
  for (const auto& gated : policy.gated)
    if (auto st = require_known(needs, gated.job, "--gated"); !st) return st;
  for (const auto* list : {&policy.allowed_failures, &policy.allowed_skips}) {
    const char* option = list == &policy.allowed_failures ? "allowed-failures" : "allowed-skips";
    for (const auto& job : *list)
      if (auto st = require_known(needs, job, option); !st) return st;
  }
  return {};
}

// What the run is judged with: the gate (when it succeeded, its answer per gated job), the
// policy and the legs.
struct Judging {
  const Policy& policy;
  const LegView& legs;
  const NeededJob* gate = nullptr;
  bool gate_ok = false;
  std::string gate_name;
  std::map<std::string, const GatedJob*> gated;  // job -> how the gate's outputs gate it
  std::map<std::string, GateAnswer> answers;     // gated job -> the gate's answer (gate_ok only)
};

// "changes.outputs.cpu is", "changes.outputs.cpu and changes.outputs.docs are".
std::string outputs_phrase(const std::string& gate, const std::vector<std::string>& outputs) {
  std::vector<std::string> named;
  for (const auto& output : outputs) named.push_back(gate + ".outputs." + output);
  std::string text = named.back();
  if (named.size() > 1) {
    named.pop_back();
    text = join(named, ", ") + " and " + text;
  }
  return text + (outputs.size() == 1 ? " is" : " are");
}

// The gate's outputs, read for one gated job. A missing output or a value other than
// 'true'/'false' is exit 3: the gate's word cannot be read.
Result<GateAnswer> gate_answer(const NeededJob& gate, const GatedJob& gated) {
  std::vector<std::pair<std::string, bool>> values;
  for (const auto& output : gated.outputs) {
    auto it = gate.outputs.find(output);
    if (it == gate.outputs.end()) {
      std::vector<std::string> have;
      for (const auto& [name, value] : gate.outputs) have.push_back(name);
      return could_not_evaluate("gate job '" + gate.name + "' succeeded but has no output '" + output +
                                "' (needed for --gated " + gated.job + "=" + gated.spelled() + "; its outputs: " +
                                (have.empty() ? std::string("none") : join(have, ", ")) + ")");
    }
    if (it->second != "true" && it->second != "false")
      return could_not_evaluate("gate job '" + gate.name + "' output '" + output + "' is '" + it->second +
                                "', expected 'true' or 'false'");
    values.emplace_back(output, it->second == "true");
  }
  const auto is_true = [](const auto& value) { return value.second; };
  GateAnswer answer;
  answer.needed = gated.combine == Combine::all ? std::all_of(values.begin(), values.end(), is_true)
                                                : std::any_of(values.begin(), values.end(), is_true);
  std::vector<std::string> said;
  std::vector<std::string> deciding;  // the outputs whose value is the answer's
  for (const auto& [output, value] : values) {
    said.push_back(output + "=" + (value ? "true" : "false"));
    if (value == answer.needed) deciding.push_back(output);
  }
  answer.said = join(said, " ");
  answer.why = outputs_phrase(gate.name, deciding) + (answer.needed ? " 'true'" : " 'false'");
  return answer;
}

Result<Judging> prepare(const Needs& needs, const Policy& policy, const LegView& legs) {
  Judging j{policy, legs};
  for (const auto& gated : policy.gated) j.gated[gated.job] = &gated;
  j.gate = policy.gate ? needs.find(*policy.gate) : nullptr;
  j.gate_ok = j.gate != nullptr && j.gate->result == JobResult::success;
  j.gate_name = j.gate != nullptr ? j.gate->name : std::string();
  if (j.gate_ok) {
    for (const auto& gated : policy.gated) {
      auto answer = gate_answer(*j.gate, gated);
      if (!answer) return answer.error();
      j.answers[gated.job] = std::move(*answer);
    }
  }
  return j;
}

// ---- phase 3: one verdict per job ----

JobVerdict judge_gate(JobVerdict v, const Judging& j) {
  v.role = Role::gate;
  v.passed = j.gate_ok;
  if (j.gate_ok) {
    v.reason = "passed";
  } else {
    v.reason = "did not pass (" + std::string(to_string(v.result)) + ")";
    v.detail = "the gate job must succeed: without it nothing says which suites were needed";
  }
  return v;
}

// failure / cancelled: allowed-failures, else (failure only) allowed-leg-failures.
Result<JobVerdict> judge_not_passed(JobVerdict v, const Judging& j, bool& legs_used) {
  const std::string result(to_string(v.result));
  if (j.policy.allowed_failures.count(v.job) > 0) {
    v.passed = true;
    v.reason = std::string(v.result == JobResult::failure ? "failed" : "cancelled") + " (allowed by allowed-failures)";
    return v;
  }
  v.reason = "did not pass (" + result + ")";
  if (v.result == JobResult::failure && !j.policy.allowed_leg_failures.empty()) {
    if (!j.legs.available)
      return could_not_evaluate("job '" + v.job + "' failed and allowed-leg-failures is set, but the legs "
                                "could not be listed: " + j.legs.unavailable_reason);
    legs_used = true;
    auto excuse = excuse_by_legs(j.legs.legs, j.policy.allowed_leg_failures);
    if (excuse.excused) {
      v.passed = true;
      v.reason = "failed only in allowed legs: " + join(excuse.allowed_failed, ", ");
    } else {
      v.detail = excuse.why_not;
    }
  }
  if (v.result == JobResult::cancelled && !v.passed) v.detail = "cancelled means the job was not checked; re-run it";
  return v;
}

// skipped: the gate's 'false', else allowed-skips (with a warning against the gate's word).
JobVerdict judge_skipped(JobVerdict v, const Judging& j, std::vector<std::string>& warnings) {
  const bool gate_spoke = v.role == Role::gated && j.gate_ok;
  const std::string why = gate_spoke ? j.answers.at(v.job).why : std::string();
  if (gate_spoke && v.gate_value == "false") {
    v.passed = true;
    v.reason = "skipped (no relevant change)";
    v.detail = why;
    return v;
  }
  if (j.policy.allowed_skips.count(v.job) > 0) {
    v.passed = true;
    v.reason = "skipped (allowed by allowed-skips)";
    if (gate_spoke) {
      v.detail = "although " + why;
      warnings.push_back("job '" + v.job + "' was skipped although the gate asked for it (" + why +
                         "); allowed-skips lets it pass");
    }
    return v;
  }
  v.reason = "did not pass (skipped)";
  if (gate_spoke)
    v.detail = "matrix skipped but the gate asked for it: check the job's if: (" + why + ")";
  else if (v.role == Role::gated) v.detail = "skipped because the gate job did not succeed";
  else v.detail = "not gated (--gated) and not in allowed-skips";
  return v;
}

Result<JobVerdict> judge(const NeededJob& job, const Judging& j, Decision& decision) {
  JobVerdict v;
  v.job = job.name;
  v.result = job.result;
  if (j.gate != nullptr && job.name == j.gate_name) return judge_gate(std::move(v), j);
  if (auto it = j.gated.find(job.name); it != j.gated.end()) {
    v.role = Role::gated;
    v.gate_output = it->second->spelled();
    v.gate_outputs = it->second->outputs;
    v.gate_combine = it->second->combine;
    if (auto a = j.answers.find(job.name); a != j.answers.end()) {
      v.gate_value = a->second.needed ? "true" : "false";
      v.gate_said = a->second.said;
    }
  }
  switch (job.result) {
    case JobResult::success:
      v.passed = true;
      v.reason = "passed";
      return v;
    case JobResult::failure:
    case JobResult::cancelled: return judge_not_passed(std::move(v), j, decision.legs_used);
    case JobResult::skipped: return judge_skipped(std::move(v), j, decision.warnings);
  }
  return v;
}

}  // namespace

Result<Decision> decide(const Needs& needs, const Policy& policy, const LegView& legs) {
  if (auto st = check_names(needs, policy); !st) return st.error();
  auto judging = prepare(needs, policy, legs);
  if (!judging) return judging.error();
  Decision decision;
  for (const auto& job : needs.jobs) {
    auto verdict = judge(job, *judging, decision);
    if (!verdict) return verdict.error();
    decision.jobs.push_back(std::move(*verdict));
  }
  auto all = [&](auto predicate) { return std::all_of(decision.jobs.begin(), decision.jobs.end(), predicate); };
  decision.passed = all([](const JobVerdict& v) { return v.passed; });
  if (decision.passed && all([](const JobVerdict& v) { return v.result == JobResult::skipped; }))
    decision.warnings.push_back("every needed job was skipped: nothing was tested in this run");
  return decision;
}

}  // namespace gatekit::matrix_aggregator
