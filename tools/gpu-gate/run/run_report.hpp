#pragma once
// What a `gpu-gate run` found, as a record and as a job summary (pure).
#include <chrono>
#include <string>
#include <vector>

#include "config.hpp"
#include "record/record.hpp"
#include "run/run_plan.hpp"

namespace gatekit::gpu_gate {

struct RunOutcome {
  std::string commit;
  std::string tree;
  std::string machine;
  DeviceFacts device;
  std::vector<std::string> paths;  // the scope's test files
  int workers = 0;
  PassResult gate;
  bool stress_needed = false;
  std::string stress_touched;      // the changed path that called for it
  StressTargets stress_targets;    // what the stress pass runs, and why
  std::vector<PassResult> stress;
  std::chrono::milliseconds duration{0};
  std::string ref;                 // where the record went
  std::string publish_note;
};

GateRecord record_of(const RunOutcome& outcome, const Config& config, std::int64_t now);
std::string run_summary(const RunOutcome& outcome, const GateRecord& record);

}  // namespace gatekit::gpu_gate
