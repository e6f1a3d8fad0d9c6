// gatekit-doctor: read, decide, report (gatekit-doctor.hpp).
#include <optional>
#include <string>

#include "decide.hpp"
#include "gatekit-doctor.hpp"
#include "gather.hpp"
#include "gatekit/run_info.hpp"
#include "gatekit/workflow.hpp"
#include "report.hpp"

namespace gatekit::gatekit_doctor {

ExitCode run_doctor(const Options& options, Context& context) {
  const auto setup = gather(options, context);
  const auto report = decide(setup);
  for (const auto& line : report_lines(setup, report)) context.workflow.log(line);
  // On the run's page under Actions; in a terminal the lines above say it all.
  if (context.run.actions)
    for (const auto& finding : report.findings)
      context.workflow.annotate({Severity::error, finding.check + ": " + finding.problem + ". Fix: " + finding.fix,
                                 "gatekit-doctor: " + std::string(to_string(finding.kind))});
  context.workflow.append_summary(report_markdown(setup, report));
  const auto code = report.exit_code();
  std::vector<std::pair<std::string, std::string>> outputs;
  // `result` is a verdict's; when something could not be read the frame writes `error`.
  if (code == ExitCode::pass || code == ExitCode::verdict_fail)
    outputs.emplace_back("result", code == ExitCode::pass ? "pass" : "fail");
  outputs.emplace_back("findings", std::to_string(report.findings.size()));
  outputs.emplace_back("not-read", std::to_string(report.gaps.size()));
  context.workflow.set_outputs(outputs);
  return code;
}

}  // namespace gatekit::gatekit_doctor
