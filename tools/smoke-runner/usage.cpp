// What a rejected command line leaves for the workflow.
#include "modes.hpp"
#include "report.hpp"

namespace smoke_runner {

void report_usage_error(const std::string& message, gatekit::Workflow& wf) {
  wf.set_output("result", "error");
  wf.append_summary(usage_error_summary(message));
}

}  // namespace smoke_runner
