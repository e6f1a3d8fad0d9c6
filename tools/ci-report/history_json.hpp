#pragma once
// The gathered history as JSON Lines (--save-history writes it, --history reads it back): the
// same figures again without the API, and the benchmark's input. The first line is the header,
//   {"gatekit_ci_history": 1, "requests": 266, "not_modified": 200, "gaps": ["..."]}
// then one record a line: {"run": {id, workflow, event, head_sha, conclusion, created_at,
// gate_failed_open, jobs: [{id, name, conclusion, labels, runner_name, created_at, started_at,
// completed_at, could_not_evaluate}]}}, {"flaky": {number, title, state, created_at,
// closed_at, test, flakes, flake_runs, runs_cut, oldest_run}} (the last five optional) or
// {"gpu_gate": {sha, pushed_at, success_at}}. One line is parsed at a time, so memory follows
// the records kept, not the file's JSON. Times are UTC strings as GitHub writes
// them ("" when unknown).
#include <string>
#include <string_view>

#include "gatekit/result.hpp"
#include "history.hpp"

namespace gatekit::ci_report {

std::string history_to_json(const History& history);
// Errors name the file, the line and the field: "h.jsonl:4: run.jobs[0].started_at: not a UTC
// time like 2026-12-01T10:00:00Z".
Result<History> history_from_json(std::string_view text, const std::string& file);

// The same, a line at a time (Files::for_each_line), so the file is never held whole.
class HistoryLines {
 public:
  explicit HistoryLines(std::string file);
  Status add(std::string_view line);
  Result<History> finish();

 private:
  std::string file_;
  std::size_t line_number_ = 0;
  bool header_ = false;
  History history_;
};

}  // namespace gatekit::ci_report
