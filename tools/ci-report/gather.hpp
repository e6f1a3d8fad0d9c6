#pragma once
// Reads the history through the GitHub client: the runs of each workflow created in
// [from, until) (a window past GitHub's 1,000-result search cap is split in halves), their
// jobs, the path gate's fail-open annotations, the annotations of failed required checks,
// the flaky-test issues and the gate/gpu statuses of pull-request commits. The first failed
// call stops the gathering; what was read is kept and the failure becomes a gap. An answer
// that could not be read (not JSON) only skips its item (a run, a job's annotations, a
// commit's statuses, a window of runs, the issues): the skips are counted in one gap.
#include <cstdint>
#include <string>
#include <vector>

#include "gatekit/github.hpp"
#include "gatekit/workflow.hpp"
#include "history.hpp"

namespace gatekit::ci_report {

struct GatherPlan {
  std::string repo;
  std::vector<std::string> workflows;
  std::int64_t from = 0;   // lookback start
  std::int64_t since = 0;  // window start: annotations and statuses only from here
  std::int64_t until = 0;
  std::string gate_job;
  std::vector<std::string> required_jobs;
  std::string gpu_context;
  std::string flaky_label;
  std::vector<std::string> flaky_creators;  // only their issues' hidden state is read
};

History gather(github::Client& client, const GatherPlan& plan, Workflow& log);

}  // namespace gatekit::ci_report
