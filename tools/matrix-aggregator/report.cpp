#include "report.hpp"

#include <algorithm>

#include "gatekit/json.hpp"
#include "gatekit/text.hpp"

namespace gatekit::matrix_aggregator {

namespace {

std::string gate_name_of(const Decision& d) {
  for (const auto& v : d.jobs)
    if (v.role == Role::gate) return v.job;
  return {};
}

std::string reason_with_detail(const JobVerdict& v) {
  return v.detail.empty() ? v.reason : v.reason + ": " + v.detail;
}

std::string pad(std::string s, std::size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

}  // namespace

std::string role_text(const JobVerdict& v, const std::string& gate_name) {
  switch (v.role) {
    case Role::gate: return "gate";
    case Role::gated: {
      // "cpu|docs" reads "changes.outputs.cpu or changes.outputs.docs"; "cpu&gpu" with "and".
      std::vector<std::string> outputs;
      for (const auto& output : v.gate_outputs) outputs.push_back(gate_name + ".outputs." + output);
      return "gated by " + join(outputs, v.gate_combine == Combine::all ? " and " : " or ");
    }
    case Role::other: return "job";
  }
  return "job";
}

std::vector<std::string> log_lines(const Decision& decision) {
  // Job names come from `needs`: padded as they will show (controls as escapes), and made
  // inert by Workflow::log.
  std::size_t width = 0;
  for (const auto& v : decision.jobs) width = std::max(width, visible_controls(v.job).size());
  std::vector<std::string> lines;
  for (const auto& v : decision.jobs)
    lines.push_back((v.passed ? "  ok    " : "  FAIL  ") + pad(visible_controls(v.job), width) + "  " +
                    pad(std::string(to_string(v.result)), 9) + "  -> " + reason_with_detail(v));
  return lines;
}

// Job names, results, outputs and API text are outside data: they reach the summary only
// through markdown_code / markdown_text / markdown_link, so they cannot break a table or
// start markup.
std::string summary_markdown(const std::string& title, const Decision& decision, const LegView& legs) {
  const auto gate = gate_name_of(decision);
  const auto failed = std::count_if(decision.jobs.begin(), decision.jobs.end(), [](const auto& v) { return !v.passed; });
  std::string md = "## " + std::string(decision.passed ? "✅ " : "❌ ") + markdown_text(title, false) + ": " +
                   (decision.passed ? "passed" : "did not pass") + "\n\n";
  if (decision.passed)
    md += "Every needed job passed or was legitimately skipped (" + std::to_string(decision.jobs.size()) + " jobs).\n\n";
  else
    md += std::to_string(failed) + " of " + std::to_string(decision.jobs.size()) + " needed jobs did not pass.\n\n";
  std::vector<std::vector<std::string>> rows;
  for (const auto& v : decision.jobs) {
    std::string gate_says =
        v.role == Role::gated ? (v.gate_said.empty() ? "-" : markdown_code(v.gate_said)) : "";
    rows.push_back({markdown_code(v.job), markdown_text(role_text(v, gate)), std::string(to_string(v.result)), gate_says,
                    v.passed ? "✅ pass" : "❌ fail", markdown_text(reason_with_detail(v))});
  }
  md += markdown_table({"Job", "Role", "Result", "Gate said", "Verdict", "Reason"}, rows);
  for (const auto& w : decision.warnings) md += "\n> [!WARNING]\n> " + markdown_text(w) + "\n";
  if (legs.available) {
    md += "\n### Legs in this run\n\n";
    std::vector<std::vector<std::string>> leg_rows;
    for (const auto& leg : legs.legs) {
      std::string state = leg.status == "completed" ? (leg.conclusion.empty() ? "completed" : leg.conclusion) : leg.status;
      std::string mark = leg_did_not_pass(leg) ? "❌ " : (leg.status == "completed" ? "✅ " : "⏳ ");
      leg_rows.push_back({markdown_link(leg.name, leg.url), mark + markdown_text(state, false)});
    }
    md += leg_rows.empty() ? std::string("The jobs API listed no jobs for this run.\n") : markdown_table({"Leg", "Conclusion"}, leg_rows);
  } else if (!legs.unavailable_reason.empty()) {
    md += "\nPer-leg view not shown: " + markdown_text(legs.unavailable_reason, false) + "\n";
  }
  return md;
}

std::string error_summary_markdown(const std::string& title, const std::string& message, bool usage_error) {
  // Exit 2 (the step's own options are wrong) reads differently from exit 3 (the inputs it
  // was given could not be judged); neither is a pass.
  const char* headline = usage_error ? ": invalid options" : ": could not evaluate";
  return "## ⚠️ " + markdown_text(title, false) + headline + "\n\n" + markdown_text(message) +
         "\n\nThis is not a pass: fix the input and re-run the job.\n";
}

std::string reasons_json(const Decision& decision) {
  boost::json::object out;
  for (const auto& v : decision.jobs) {
    boost::json::object entry;
    entry["result"] = to_string(v.result);
    entry["verdict"] = v.passed ? "pass" : "fail";
    entry["reason"] = v.reason;
    if (!v.detail.empty()) entry["detail"] = v.detail;
    out[v.job] = std::move(entry);
  }
  return boost::json::serialize(out);
}

}  // namespace gatekit::matrix_aggregator
