#pragma once
// The reports of a run: JSON (also the input of --durations-from), JUnit XML, and the job
// summary (a table and a mermaid Gantt chart of which smoke ran on which GPUs when).
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "gatekit/gpu.hpp"
#include "gatekit/result.hpp"
#include "manifest.hpp"
#include "results.hpp"

namespace gatekit {
class Files;
}

namespace gatekit::smoke_runner {

struct RunReport {
  const Manifest* manifest = nullptr;
  std::string tier;             // "pr", "full", or empty when not decided
  gatekit::GpuInventory gpus;
  bool gpus_known = false;      // false when counting failed or never happened
  bool concurrent = false;
  std::string started_at;       // ISO 8601 UTC
  milliseconds duration{0};
  std::string result;           // passed | failed | cancelled | error | running
  int exit_code = 0;
  std::string message;          // why the run is an error / cancelled, if it is
  std::vector<SmokeResult> smokes;  // one per manifest entry
};

struct Counts {
  int passed = 0, failed = 0, timed_out = 0, errors = 0, skipped = 0, cancelled = 0, not_run = 0;
  int ran() const { return passed + failed + timed_out + cancelled; }
};
Counts count_results(const std::vector<SmokeResult>& smokes);

std::string report_json(const RunReport& report);
std::string report_junit(const RunReport& report);
std::string report_summary(const RunReport& report);
// The summary of a run whose command line was rejected (exit 2).
std::string usage_error_summary(const std::string& message);
// The mermaid block alone; empty when nothing ran.
std::string gantt_chart(const RunReport& report);

struct ReportFiles {
  std::filesystem::path json, junit, summary;
};
ReportFiles report_paths(const std::filesystem::path& dir);
// Each file is written through `files` to a temporary name and renamed, so a reader (or a
// kill) never sees a half-written report. The folder is created when missing.
gatekit::Status write_reports(const RunReport& report, const std::filesystem::path& dir, gatekit::Files& files);

// Durations (name -> ms) from a previous JSON report, for packing. Only smokes that ran.
gatekit::Result<std::map<std::string, milliseconds>> read_durations(const std::string& json_text);

}  // namespace gatekit::smoke_runner
