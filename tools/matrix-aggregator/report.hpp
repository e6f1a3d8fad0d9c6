#pragma once
// Renders a Decision: log lines, the job summary (Markdown) and the `reasons` output (JSON).
// Pure text functions; aggregate.cpp writes them through the Workflow interface.
#include <string>
#include <vector>

#include "decide.hpp"

namespace gatekit::matrix_aggregator {

// One line per input job: "  tests    skipped   -> skipped (no relevant change): changes.outputs.cpu is 'false'"
std::vector<std::string> log_lines(const Decision& decision);

// `title` heads the summary (the check name, e.g. "CPU tests").
std::string summary_markdown(const std::string& title, const Decision& decision, const LegView& legs);
// The summary of a run without a verdict: a usage error (exit 2) or could not evaluate (exit 3).
std::string error_summary_markdown(const std::string& title, const std::string& message, bool usage_error);

// {"tests": {"result": "skipped", "verdict": "pass", "reason": "skipped (no relevant change)", "detail": "..."}}
std::string reasons_json(const Decision& decision);

std::string role_text(const JobVerdict& v, const std::string& gate_name);

}  // namespace gatekit::matrix_aggregator
