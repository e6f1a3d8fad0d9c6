#include "test_pass.hpp"

#include <utility>
#include <vector>

namespace gatekit::flaky_tracker {

Result<PassReport> run_pass(Context& context, test_run::TestPass pass, std::unique_lock<std::mutex>* reading) {
  std::vector<junit::TestCase> cases;
  pass.on_case = [&cases, reading](const junit::TestCase& c) {
    if (reading != nullptr && !reading->owns_lock()) reading->lock();
    cases.push_back(c);
  };
  auto ran = test_run::run_test_pass(context, pass);
  if (!ran) return ran.error();
  PassReport out{std::move(ran->process), "", std::nullopt, std::move(ran->report_error)};
  out.how = out.process.describe(pass.timeout);
  if (!ran->report) return out;
  auto report = finish_report(std::move(cases), *ran->report, pass.junit);
  if (report) out.report = std::move(*report);
  else out.report_error = report.error().message;
  return out;
}

}  // namespace gatekit::flaky_tracker
