#pragma once
// The three modes of smoke-runner (check.cpp, list.cpp, run.cpp) and what they share.
#include <map>
#include <string>

#include "gatekit/environment.hpp"
#include "gatekit/exit_code.hpp"
#include "gatekit/gpu.hpp"
#include "gatekit/result.hpp"
#include "gatekit/workflow.hpp"
#include "manifest.hpp"
#include "options.hpp"

namespace smoke_runner {

// --check: validate the manifest only.
gatekit::ExitCode check_mode(const Options& o, gatekit::Workflow& wf);
// --list: show what each tier would run on the GPUs found; run nothing.
gatekit::ExitCode list_mode(const Options& o, const gatekit::Environment& env, gatekit::Workflow& wf);
// Default: run the smokes and write the reports, also when it fails.
gatekit::ExitCode run_mode(const Options& o, const gatekit::Environment& env, gatekit::StreamWorkflow& wf);

// The command line was rejected (exit 2): `result=error` and a short job summary, so a
// workflow reading the step's outputs sees why nothing ran.
void report_usage_error(const std::string& message, gatekit::Workflow& wf);

// The GPUs --gpus N names, else the ones detected; an error (exit 3) when they cannot be counted.
gatekit::Result<gatekit::GpuInventory> resolve_gpus(const Options& o, const gatekit::Environment& env);

// Durations from a previous report (--durations-from); empty, with an annotation, when it is
// missing or unreadable: packing then uses the timeouts as estimates.
std::map<std::string, milliseconds> load_durations(const std::string& path, gatekit::Workflow& wf);

}  // namespace smoke_runner
