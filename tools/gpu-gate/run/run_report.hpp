#pragma once
// What a `gpu-gate run` found (`--full` or not), as a verdict, a record and a job summary (pure).
#include <chrono>
#include <string>
#include <vector>

#include "config.hpp"
#include "record/record.hpp"
#include "run/full.hpp"
#include "run/run_plan.hpp"

namespace gatekit::gpu_gate {

struct RunOutcome {
  std::string commit;
  std::string tree;
  std::string machine;
  DeviceFacts device;
  std::vector<std::string> paths;  // the scope's test files
  int workers = 0;
  std::vector<PassResult> passes;  // the plan's passes, in its order (run: the gate; --full: GPU, CPU)
  std::vector<PassCases> cases;    // each pass's test cases, when the plan checks the scope
  bool stress_needed = false;
  std::string stress_touched;      // the changed path that called for it
  StressTargets stress_targets;    // what the stress pass runs, and why
  std::vector<PassResult> stress;
  std::vector<ScopeViolation> violations;  // --full: files outside the scope that depend on the device
  std::string map_note;            // --full: "written to ...: N tests, M files" or "not written: why"
  std::chrono::milliseconds duration{0};
  std::vector<std::string> packages;  // the repository's top-level packages (evidence.hpp)
  std::string gpu_markers;         // the GPU legs' expression ("" = every test is a GPU test)
  std::vector<std::string> evidence;  // per pass, what its evidence showed (log and summary)
  std::string config_digest;       // config_digest of the configuration the run used (the record's `config`)
  std::string config_from;         // where it was read: "origin/main (3c787c61b44d)", "this checkout (...)"
  std::string ref;                 // where the record went
  std::string publish_note;
};

// pass when every pass and every stress repeat passed and the scope check found nothing.
Verdict verdict_of(const RunOutcome& outcome);
GateRecord record_of(const RunOutcome& outcome, const RunPlan& plan, const Config& config, std::int64_t now);
// The job summary; `config_file` is where the scope check's lines go (--full).
std::string run_summary(const RunPlan& plan, const RunOutcome& outcome, const GateRecord& record,
                        const std::string& config_file);

}  // namespace gatekit::gpu_gate
