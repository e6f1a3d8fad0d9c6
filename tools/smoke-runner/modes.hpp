#pragma once
// What the three modes (check.cpp, list.cpp, run.cpp) and the frame (cli.cpp) share.
#include <map>
#include <string>

#include "gatekit/gpu.hpp"
#include "gatekit/result.hpp"
#include "manifest.hpp"
#include "smoke-runner.hpp"

namespace gatekit {
class Files;
class ProcessRunner;
class Workflow;
}  // namespace gatekit

namespace gatekit::smoke_runner {

// The command line was rejected (exit 2): after the frame's `result=error`, a short job
// summary, so a workflow reading the step's outputs sees why nothing ran.
void report_usage_error(const std::string& message, Workflow& workflow);

// The GPUs --gpus N names, else the ones the Context's probe detects; could_not_evaluate
// when they cannot be counted.
Result<GpuInventory> resolve_gpus(const Options& options, Context& context);

// Durations from a previous report (--durations-from); empty, with an annotation, when it is
// missing or unreadable: packing then uses the timeouts as estimates.
std::map<std::string, milliseconds> load_durations(const std::string& path, const Files& files, Workflow& workflow);

}  // namespace gatekit::smoke_runner
