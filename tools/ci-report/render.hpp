#pragma once
// The report as a job summary / discussion post (Markdown with mermaid charts), JSON and CSV
// (pure). API text (job names, labels, issue titles) is escaped for each format.
#include <string>

#include "estimate.hpp"

namespace gatekit::ci_report {

std::string summary_markdown(const Report& report);
std::string report_json(const Report& report);
// One table: section,week,workflow,leg,labels,kind,count,minutes,low,high.
std::string report_csv(const Report& report);

}  // namespace gatekit::ci_report
