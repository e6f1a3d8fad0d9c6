#pragma once
// One rerun or stress copy: the core's test pass (gatekit/test_run.hpp) with its report read
// once, through the pass, and checked and folded as load_report does.
#include <mutex>
#include <optional>
#include <string>

#include "gatekit/context.hpp"
#include "gatekit/process.hpp"
#include "gatekit/result.hpp"
#include "gatekit/test_run.hpp"
#include "report.hpp"

namespace gatekit::flaky_tracker {

struct PassReport {
  ProcessResult process;
  std::string how;              // how the command ended: "exit code 1", "timed out after 5s"
  std::optional<Report> report;
  std::string report_error;     // when there is no report: why ("PATH: cannot read the report ...")
};

// Runs `pass` (its on_case is this function's own). An Error only when the command did not
// start (test_run::run_test_pass); an exit other than 0 or 1 still reads the report: the
// caller decides what a missing report means. `reading`, when given, is locked at the
// report's first case and still held on return (its owner lets go): passes that run side by
// side then read their reports, and hold their cases, one at a time.
Result<PassReport> run_pass(Context& context, test_run::TestPass pass, std::unique_lock<std::mutex>* reading = nullptr);

}  // namespace gatekit::flaky_tracker
