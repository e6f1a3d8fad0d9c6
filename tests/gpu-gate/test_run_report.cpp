// The verdict, the record and the summary of a run, `--full` or not (run/run_report.hpp).
#include "catch.hpp"
#include "gatekit/version.hpp"
#include "run/run_report.hpp"

using namespace gatekit;
using namespace gatekit::gpu_gate;

namespace {

RunOutcome full_outcome() {
  RunOutcome o;
  o.commit = std::string(40, 'c');
  o.tree = std::string(40, 'e');
  o.machine = "m1";
  o.passes = {{"GPU", 0, {6, 0, 0, 0}, std::chrono::milliseconds(2000), true},
              {"CPU", 0, {3, 0, 3, 0}, std::chrono::milliseconds(1000), true}};
  o.map_note = "written to .git/gatekit/test-map.json: 9 tests, 4 files";
  o.duration = std::chrono::milliseconds(3500);
  o.config_digest = "sha256:" + std::string(64, '0');
  o.config_from = "origin/main (0123456789ab)";
  return o;
}

}  // namespace

TEST_CASE("run report: a full run passes with a pass that skipped all; a file outside the scope fails it") {
  Config config;
  RunOptions options;
  options.full = true;
  const RunPlan plan = plan_run(options, config);
  auto o = full_outcome();
  CHECK(verdict_of(o) == Verdict::pass);
  auto record = record_of(o, plan, config, 1700000000);
  CHECK(record.verdict == Verdict::pass);
  CHECK(record.counts.passed == 9);
  CHECK(record.counts.skipped == 3);
  CHECK(record.scope == "full: every test, nightly included, GPU then CPU; 0 files outside the scope");
  CHECK(record.stress == "not run (full run)");
  CHECK(record.gatekit_version == kVersion);
  CHECK(record.config == o.config_digest);  // the configuration the run used, in the record

  o.violations.push_back({"tests/test_sneaky.py", {"tests/test_sneaky.py::test_needs_gpu"}, {}});
  CHECK(verdict_of(o) == Verdict::fail);
  record = record_of(o, plan, config, 1700000000);
  CHECK(record.scope == "full: every test, nightly included, GPU then CPU; 1 files outside the scope");
  const auto summary = run_summary(plan, o, record, ".github/gatekit/gpu-gate.yml");
  CHECK(summary.starts_with("## GPU gate: full run\n\n**fail** in 3.5s, commit `cccccccccccc` on `m1`\n\n"
                            "```mermaid\nflowchart LR\n  gpu[\"GPU pass: 6 passed, 0 failed, 0 skipped, 0 errors\"] --> "
                            "cpu[\"CPU pass: 3 passed, 0 failed, 3 skipped, 0 errors\"] --> check[\"scope check: 1 files "
                            "outside\"]\n```\n\n| pass | passed | failed | skipped | errors | duration |\n"));
  CHECK(summary.find("| GPU | 6 | 0 | 0 | 0 | 2.0s |") != std::string::npos);
  CHECK(summary.find("\nConfiguration of origin/main (0123456789ab), `sha256:000000000000`\n") != std::string::npos);
  CHECK(summary.find("| `tests/test_sneaky.py` | 1 | 0 | `- tests/test_sneaky.py` |") != std::string::npos);
  CHECK(summary.ends_with("\nTest map written to .git/gatekit/test-map.json: 9 tests, 4 files\n"));
}

TEST_CASE("run report: the gate run fails when a stress repeat fails, and says so in the record") {
  Config config;
  const RunPlan plan = plan_run(RunOptions{}, config);
  RunOutcome o = full_outcome();
  o.passes = {{"gate", 0, {5, 0, 0, 0}, {}}};
  o.paths = {"tests/test_q.py"};
  o.workers = 8;
  o.stress_needed = true;
  o.stress_touched = "src/stream/q.py";
  o.stress_targets.tests = {"tests/test_q.py"};
  o.stress_targets.reasons = {"imports src/stream/q.py"};
  o.stress = {{"stress 1/3", 0, {1, 0, 0, 0}, {}}, {"stress 2/3", 1, {0, 1, 0, 0}, {}}};
  CHECK(verdict_of(o) == Verdict::fail);
  const auto record = record_of(o, plan, config, 1700000000);
  CHECK(record.counts.passed == 6);
  CHECK(record.counts.failed == 1);
  CHECK(record.scope == "gate: 1 test files, 8 workers");
  CHECK(record.stress == "failed on repeat 2 of 3 on tests/test_q.py (src/stream/q.py)");
  CHECK(run_summary(plan, o, record, "unused").starts_with("## gpu-gate run: fail\n\n```mermaid\nflowchart LR\n  gate[\"gate: pass"));
}
