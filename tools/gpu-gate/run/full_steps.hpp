#pragma once
// The steps of `run --full` (full.cpp): each pass, the record, the job summary.
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "config.hpp"
#include "run/full.hpp"
#include "gatekit/context.hpp"
#include "gatekit/git.hpp"
#include "gatekit/result.hpp"
#include "record/record.hpp"

namespace gatekit::gpu_gate {

struct PassOutcome {
  Device device = Device::gpu;
  PassCases cases;
  TestCounts counts;
  int exit_code = 0;
  std::chrono::milliseconds duration{0};
  bool passed() const { return exit_code == 0 && counts.failed == 0 && counts.errors == 0; }
};

struct FullOutcome {
  std::string commit;
  std::string tree;
  std::string machine;
  DeviceFacts device;
  PassOutcome gpu;
  PassOutcome cpu;
  std::vector<ScopeViolation> violations;
  std::string map_note;  // "written to ...: N tests, M files" or "not written: why"
  std::chrono::milliseconds duration{0};
  bool passed() const { return gpu.passed() && cpu.passed() && violations.empty(); }
};

// Records the outcome as refs/<namespace>-mine/<tree>/<machine> (record.hpp's write_record,
// signed when the configuration says so); returns the ref.
Result<std::string> record_full_run(const Git& git, Context& context, const Config& config, const FullOutcome& outcome);

std::string full_summary(const FullOutcome& outcome, const std::string& config_file);

}  // namespace gatekit::gpu_gate
