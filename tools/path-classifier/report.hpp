#pragma once
// How a decision is told: step outputs, the JSON trace, the job summary, log lines, and
// the per-pattern explanation of one path. Pure text functions.
#include <map>
#include <string>
#include <vector>

#include "classify.hpp"
#include "rules.hpp"

namespace gatekit::path_classifier {

// name -> value, in the order they are written: one `<filter>=true|false` per filter, then
// `changes` (JSON list of relevant filters), `filters` (JSON object name -> bool),
// `decision` (JSON trace).
std::vector<std::pair<std::string, std::string>> step_outputs(const Decision& decision);

std::string decision_json(const Decision& decision);

// Outside data in it is escaped (markdown_code / markdown_text): no table break, no markup.
std::string summary_markdown(const Decision& decision, const std::vector<std::string>& warnings);

// The lines the log gets: per filter, its verdict and why; a closing line that says what
// happens downstream. They hold outside data: Workflow::log makes each one inert.
std::vector<std::string> log_lines(const Decision& decision);

// How every pattern of every filter treats one path, and, when the path is one of the
// `guarded` files, that self-protect decides before the patterns (or that the rules turned
// it off). Outside values (the path, patterns, names) are shown with visible_controls, so
// each line of the text is one line; print it through inert_lines.
std::string explain(const Rules& rules, const std::string& path, const std::vector<GuardedFile>& guarded = {});

}  // namespace gatekit::path_classifier
