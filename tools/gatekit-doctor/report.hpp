#pragma once
// The doctor's report in the two forms it is read in: lines for the log (stdout) and the job
// summary's Markdown. Pure functions of what was read and decided; outside text (check names,
// file names, API messages) reaches Markdown only through the core's helpers.
#include <string>
#include <vector>

#include "decide.hpp"

namespace gatekit::gatekit_doctor {

// The log: a heading line, the table of required checks, each finding with its fix, what
// could not be read, and the verdict. One string per line.
std::vector<std::string> report_lines(const Setup& setup, const Report& report);

// "the token needs Metadata: read (a fine-grained token's or GitHub App's repository
// permission; a classic token: the repo scope)": what a Gap, or exit 3, tells a person to grant.
std::string permission_text(const std::string& permission);

// The job summary.
std::string report_markdown(const Setup& setup, const Report& report);

}  // namespace gatekit::gatekit_doctor
