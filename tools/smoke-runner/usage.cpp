// What a rejected command line leaves for the workflow.
#include "gatekit/workflow.hpp"
#include "modes.hpp"
#include "report.hpp"

namespace gatekit::smoke_runner {

void report_usage_error(const std::string& message, Workflow& workflow) {
  workflow.append_summary(usage_error_summary(message));
}

}  // namespace gatekit::smoke_runner
