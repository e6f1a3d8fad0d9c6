// estimate(): which skips the gate caused, what they cost and its spread, spent and queue
// time, the honesty checks. Table-driven over small histories; the four-week history with
// known answers runs end to end in test_report_api.py.
#include <cmath>

#include "catch.hpp"
#include "estimate.hpp"

using namespace gatekit::ci_report;

namespace {

constexpr std::int64_t T0 = 1'800'000'000;  // the window's start
constexpr std::int64_t kDay = 86400;

Job ran(const std::string& name, std::vector<std::string> labels, std::int64_t at, int minutes,
        const std::string& conclusion = "success", int queue_s = 0) {
  return {0, name, conclusion, std::move(labels), "r", at, at + queue_s, at + queue_s + minutes * 60, false};
}
Job skipped(const std::string& name, std::int64_t at) { return {0, name, "skipped", {}, "", at, at, at, false}; }
Job gate(std::int64_t at, const std::string& conclusion = "success") {
  return ran("path gate", {"ubuntu-24.04"}, at, 1, conclusion);
}
Run run(std::int64_t at, std::vector<Job> jobs, bool fail_open = false) {
  return {0, "gpu-tests.yml", "push", "s", "success", at, fail_open, std::move(jobs)};
}
EstimateOptions window(std::size_t samples = 20) {
  EstimateOptions o;
  o.since = T0;
  o.until = T0 + 7 * kDay;
  o.samples = samples;
  return o;
}
const std::vector<std::string> kGpu{"self-hosted", "gpu"};

}  // namespace

TEST_CASE("runner_kind: hosted or self-hosted, CPU or GPU, from the labels") {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"ubuntu-24.04"}, "hosted CPU"},
      {{"self-hosted", "gpu"}, "self-hosted GPU"},
      {{"self-hosted", "linux", "x64"}, "self-hosted CPU"},
      {{"Self-Hosted", "MI300X-GPU"}, "self-hosted GPU"},
      {{"gpu-t4-4-core"}, "hosted GPU"},
      {{}, "unknown"},
  };
  for (const auto& [labels, kind] : cases) CHECK(runner_kind(labels) == kind);
}

TEST_CASE("spread_of: nearest-rank median and quartiles") {
  const std::vector<std::pair<std::vector<double>, Spread>> cases{
      {{}, {0, 0, 0, 0}},
      {{5}, {5, 5, 5, 1}},
      {{30, 28, 32, 30}, {30, 28, 30, 4}},
      {{1, 2, 3, 4, 5, 6, 7, 8}, {4, 2, 6, 8}},
  };
  for (const auto& [values, want] : cases) {
    const auto got = spread_of(values);
    CHECK(got.median == want.median);
    CHECK(got.low == want.low);
    CHECK(got.high == want.high);
    CHECK(got.samples == want.samples);
  }
}

TEST_CASE("run_gate: the last path-gate job decides; failing open needs a gate that succeeded") {
  struct Case {
    const char* what;
    std::vector<Job> jobs;
    bool failed_open;
    RunGate want;
  };
  const std::int64_t at = T0 + 100;
  const std::vector<Case> cases{
      {"succeeded", {gate(at), ran("pytest (GPU)", kGpu, at, 5)}, false, {true, true, false}},
      {"succeeded, failing open", {gate(at)}, true, {true, true, true}},
      {"failed", {gate(at, "failure")}, false, {true, false, false}},
      {"failed, annotated fail-open: not open", {gate(at, "failure")}, true, {true, false, false}},
      {"skipped", {skipped("path gate", at)}, false, {true, false, false}},
      {"cancelled", {gate(at, "cancelled")}, false, {true, false, false}},
      {"no gate job", {ran("pytest (GPU)", kGpu, at, 5)}, true, {false, false, false}},
      {"two gate jobs: the last", {gate(at), gate(at, "failure")}, false, {true, false, false}},
      {"two gate jobs, the last succeeded", {gate(at, "failure"), gate(at)}, false, {true, true, false}},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    const auto got = run_gate(run(at, c.jobs, c.failed_open), window());
    CHECK(got.found == c.want.found);
    CHECK(got.ok == c.want.ok);
    CHECK(got.fail_open == c.want.fail_open);
  }
}

TEST_CASE("job_fate: the gate's job, a skip by fork, by the gate or otherwise, a run, or nothing") {
  const std::int64_t at = T0 + 100;
  const RunGate ok{true, true, false}, open{true, true, true}, failed{true, false, false}, none{};
  Job unstarted = ran("pytest (GPU)", kGpu, at, 5);
  unstarted.started = 0;
  Job ended_before_start = ran("pytest (GPU)", kGpu, at, 5);
  ended_before_start.completed = ended_before_start.started - 1;
  struct Case {
    const char* what;
    Job job;
    bool from_fork;
    RunGate gate;
    JobFate want;
  };
  const std::vector<Case> cases{
      {"the gate's own job", gate(at), false, ok, JobFate::gate},
      {"the gate's own job, skipped", skipped("path gate", at), false, failed, JobFate::gate},
      {"skipped, the gate succeeded", skipped("pytest (GPU)", at), false, ok, JobFate::skipped_by_gate},
      {"skipped in a fork's run", skipped("pytest (GPU)", at), true, ok, JobFate::skipped_fork},
      {"skipped in a fork's run, the gate failed", skipped("pytest (GPU)", at), true, failed, JobFate::skipped_fork},
      {"skipped, the gate failed", skipped("pytest (GPU)", at), false, failed, JobFate::skipped_other},
      {"skipped, the gate failed open", skipped("pytest (GPU)", at), false, open, JobFate::skipped_other},
      {"skipped, no gate", skipped("pytest (GPU)", at), false, none, JobFate::skipped_other},
      {"ran to success", ran("pytest (GPU)", kGpu, at, 5), false, ok, JobFate::spent},
      {"ran and was cancelled", ran("pytest (GPU)", kGpu, at, 5, "cancelled"), false, failed, JobFate::spent},
      {"a required check that ran", ran("GPU tests", {"ubuntu-24.04"}, at, 1), true, none, JobFate::spent},
      {"never started", unstarted, false, ok, JobFate::not_run},
      {"ended before it started", ended_before_start, false, ok, JobFate::not_run},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    Run r = run(at, {c.job});
    r.from_fork = c.from_fork;
    CHECK(job_fate(c.job, r, c.gate, window()) == c.want);
  }
}

TEST_CASE("estimate: a leg the gate skipped costs the median of its recent runs on its labels") {
  History h;
  // Lookback runs: 28, 30, 32 min on the GPU runner; one on another label must not count.
  for (int i = 0; i < 3; ++i) h.runs.push_back(run(T0 - kDay * (i + 1), {gate(T0 - kDay * (i + 1)),
                                                   ran("pytest (GPU)", kGpu, T0 - kDay * (i + 1), 28 + 2 * i)}));
  h.runs.push_back(run(T0 - 5 * kDay, {gate(T0 - 5 * kDay), ran("pytest (GPU)", {"self-hosted", "gpu", "big"},
                                                                 T0 - 5 * kDay, 300)}));
  h.runs.push_back(run(T0 + 3600, {gate(T0 + 3600), skipped("pytest (GPU)", T0 + 3600)}));
  const auto r = estimate(h, window());
  REQUIRE(r.saved.size() == 1);
  CHECK(r.saved[0].leg == "pytest (GPU)");
  CHECK(r.saved[0].labels == "gpu,self-hosted");  // the skipped job's labels: its leg's newest run's
  CHECK(r.saved[0].kind == "self-hosted GPU");
  CHECK(r.saved[0].minutes == 30);
  CHECK(r.saved[0].low == 28);
  CHECK(r.saved[0].high == 32);
  CHECK(r.saved[0].each.samples == 3);
  CHECK(r.kinds.at("self-hosted GPU").saved == 30);
  CHECK(r.runs == 1);
  CHECK(r.lookback_runs == 4);
  CHECK(r.weeks.size() == 1);
  CHECK(r.weeks[0].saved == 30);
}

TEST_CASE("estimate: only a skip after a successful, not fail-open gate is a saving") {
  struct Case {
    const char* what;
    std::vector<Job> jobs;
    bool fail_open;
    std::size_t by_gate, other, unestimated;
  };
  const std::int64_t at = T0 + 100;
  const std::vector<Case> cases{
      {"gate succeeded", {gate(at), skipped("pytest (GPU)", at)}, false, 1, 0, 0},
      {"gate failed", {gate(at, "failure"), skipped("pytest (GPU)", at)}, false, 0, 1, 0},
      {"gate skipped", {skipped("path gate", at), skipped("pytest (GPU)", at)}, false, 0, 1, 0},
      {"no gate job", {skipped("pytest (GPU)", at)}, false, 0, 1, 0},
      {"gate failed open", {gate(at), skipped("pytest (GPU)", at)}, true, 0, 1, 0},
      {"never ran before", {gate(at), skipped("workload regression (GPU)", at)}, false, 1, 0, 1},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    History h;
    h.runs.push_back(run(T0 - kDay, {gate(T0 - kDay), ran("pytest (GPU)", kGpu, T0 - kDay, 30)}));
    h.runs.push_back(run(at, c.jobs, c.fail_open));
    const auto r = estimate(h, window());
    CHECK(r.skipped_by_gate == c.by_gate);
    CHECK(r.skipped_other == c.other);
    CHECK(r.skipped_unestimated == c.unestimated);
    CHECK(r.saved_minutes == static_cast<double>(c.by_gate - c.unestimated) * 30.0);
  }
}

TEST_CASE("estimate: a skipped matrix job costs every leg that expanded from it") {
  History h;
  const std::int64_t before = T0 - kDay;
  h.runs.push_back(run(before, {gate(before), ran("pytest (CPU, py3.10)", {"ubuntu-24.04"}, before, 9),
                                ran("pytest (CPU, py3.11)", {"ubuntu-24.04"}, before, 10),
                                ran("pytest (CPU, py3.12)", {"ubuntu-24.04"}, before, 11),
                                ran("pytest (CPU) extra", {"ubuntu-24.04"}, before, 100)}));
  h.runs.push_back(run(T0 + 60, {gate(T0 + 60), skipped("pytest (CPU, py${{ matrix.python }})", T0 + 60)}));
  const auto r = estimate(h, window());
  REQUIRE(r.saved.size() == 1);
  CHECK(r.saved[0].leg == "pytest (CPU, py${{ matrix.python }})");
  CHECK(r.saved[0].minutes == 30);  // 9 + 10 + 11, never the 100 of a job outside the family
  CHECK(r.saved[0].kind == "hosted CPU");
}

TEST_CASE("estimate: the median is over the last N runs only") {
  History h;
  // Old runs took 100 min; the last three 10 min.
  for (int i = 10; i >= 1; --i)
    h.runs.push_back(run(T0 - i * 3600, {gate(T0 - i * 3600), ran("pytest (GPU)", kGpu, T0 - i * 3600, i > 3 ? 100 : 10)}));
  h.runs.push_back(run(T0 + 60, {gate(T0 + 60), skipped("pytest (GPU)", T0 + 60)}));
  CHECK(estimate(h, window(3)).saved_minutes == 10);
  CHECK(estimate(h, window(20)).saved_minutes == 100);
}

TEST_CASE("estimate: spent, cancelled and queue time per label, fail-open and required checks") {
  History h;
  const std::int64_t at = T0 + kDay;
  h.runs.push_back(run(at, {gate(at), ran("pytest (GPU)", kGpu, at, 20, "success", 600),
                            ran("GPU tests", {"ubuntu-24.04"}, at, 1, "failure")}, true));
  h.runs.back().jobs.back().could_not_evaluate = true;
  h.runs.push_back(run(at + 60, {gate(at + 60), ran("pytest (GPU)", kGpu, at + 60, 5, "cancelled", 60),
                                 ran("GPU tests", {"ubuntu-24.04"}, at + 60, 1)}));
  const auto r = estimate(h, window());
  CHECK(r.spent_minutes == 1 + 20 + 1 + 1 + 5 + 1);
  CHECK(r.cancelled_minutes == 5);
  CHECK(r.fail_open_runs == 1);
  CHECK(r.gated_runs == 2);
  CHECK(r.fail_open_minutes == 21);  // the legs that ran in the fail-open run, not its gate
  CHECK(r.required_checks == 2);
  CHECK(r.required_failed == 1);
  CHECK(r.could_not_evaluate == 1);
  REQUIRE(r.queues.size() == 2);
  CHECK(r.queues[0].labels == "gpu,self-hosted");
  CHECK(r.queues[0].median_s == 60);
  CHECK(r.queues[0].max_s == 600);
  CHECK(r.kinds.at("self-hosted GPU").spent == 25);
}

TEST_CASE("estimate: flaky issues and gate/gpu latency in the window") {
  History h;
  h.flaky = {{1, "old", "open", T0 - 9 * kDay, 0},
             {2, "new", "open", T0 + kDay, 0},
             {3, "fixed", "closed", T0 - kDay, T0 + 2 * kDay},
             {4, "later", "closed", T0 + 8 * kDay, T0 + 9 * kDay}};
  h.gpu_gate = {{"a", T0 + 10, T0 + 10 + 600}, {"b", T0 + 20, T0 + 20 + 1800}, {"c", T0 + 30, 0},
                {"d", T0 - 100, T0 + 10}};
  const auto r = estimate(h, window());
  CHECK(r.flaky_opened == 1);
  CHECK(r.flaky_closed == 1);
  CHECK(r.flaky_open == 2);
  REQUIRE(r.flaky_longest_open.size() == 2);
  CHECK(r.flaky_longest_open[0].title == "old");
  CHECK(r.gpu_gate_samples == 3);
  CHECK(r.gpu_gate_pending == 1);
  CHECK(r.gpu_gate_latency.median == 10);
  CHECK(r.gpu_gate_max == 30);
}

TEST_CASE("estimate: flake rate per test, from the issues' flaky runs and the runs of their suites") {
  // Runs 1-4 in the window, 5 before it; run 3 skipped its leg (the test did not run), run 4's
  // only leg was cancelled, and "GPU tests" (a required check) is no leg.
  History h;
  auto with_id = [](Run r, std::int64_t id, const std::string& workflow) {
    r.id = id;
    r.workflow = workflow;
    return r;
  };
  const Job agg = ran("GPU tests", {"ubuntu-24.04"}, T0, 1);
  h.runs = {with_id(run(T0 + 10, {gate(T0 + 10), ran("pytest (GPU)", kGpu, T0 + 10, 5), agg}), 1, "gpu.yml"),
            with_id(run(T0 + 20, {gate(T0 + 20), ran("pytest (GPU)", kGpu, T0 + 20, 5), agg}), 2, "gpu.yml"),
            with_id(run(T0 + 30, {gate(T0 + 30), skipped("pytest (GPU)", T0 + 30), agg}), 3, "gpu.yml"),
            with_id(run(T0 + 40, {gate(T0 + 40), ran("pytest (GPU)", kGpu, T0 + 40, 5, "cancelled"), agg}), 4,
                    "gpu.yml"),
            with_id(run(T0 - kDay, {gate(T0 - kDay), ran("pytest (GPU)", kGpu, T0 - kDay, 5)}), 5, "gpu.yml"),
            with_id(run(T0 + 50, {gate(T0 + 50), ran("pytest (CPU)", {"ubuntu-24.04"}, T0 + 50, 5)}), 6, "cpu.yml")};
  auto issue = [](std::int64_t number, std::string test, std::vector<std::int64_t> runs, bool cut = false,
                  std::int64_t oldest = 0) {
    return FlakyIssue{number, "flaky", "open", T0, 0, std::move(test), 3, std::move(runs), cut, oldest};
  };
  struct Case {
    const char* what;
    FlakyIssue issue;
    std::size_t flakes, runs;  // 0 flakes: not rated
    bool at_least;
  };
  const std::vector<Case> cases{
      {"one flake of two suite runs", issue(1, "t::a", {1}), 1, 2, false},
      {"a run counted once; a run outside the window only names the suite", issue(2, "t::b", {1, 1, 5}), 1, 2, false},
      {"runs not in the history are ignored", issue(3, "t::c", {99, 2}), 1, 2, false},
      {"flakes in two workflows: both suites' runs", issue(4, "t::d", {2, 6}), 2, 3, false},
      {"only flakes before the window: not rated", issue(5, "t::e", {5}), 0, 0, false},
      {"no state (not written by gatekit): not rated", issue(6, "", {1}), 0, 0, false},
      {"a full list whose oldest run is in the window: a lower bound", issue(7, "t::g", {2}, true, 1), 1, 2, true},
      {"a full list whose oldest run is before the window: exact", issue(8, "t::h", {2}, true, 5), 1, 2, false},
      {"a full list whose oldest entry is no known run: a lower bound", issue(9, "t::i", {2}, true, 0), 1, 2, true},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    h.flaky = {c.issue};
    const auto r = estimate(h, window());
    if (c.flakes == 0) {
      CHECK(r.flake_rates.empty());
      CHECK(r.flaky_tests_flaked == 0);
      continue;
    }
    REQUIRE(r.flake_rates.size() == 1);
    CHECK(r.flake_rates[0].flakes == c.flakes);
    CHECK(r.flake_rates[0].runs == c.runs);
    CHECK(std::abs(r.flake_rates[0].rate - static_cast<double>(c.flakes) / static_cast<double>(c.runs)) < 1e-12);
    CHECK(r.flake_rates[0].at_least == c.at_least);
  }
}

TEST_CASE("estimate: the worst ten flake rates, highest rate first, then most flakes, then the test id") {
  History h;
  for (std::int64_t id = 1; id <= 20; ++id) {
    Run r = run(T0 + id, {gate(T0 + id), ran("pytest (GPU)", kGpu, T0 + id, 5)});
    r.id = id;
    h.runs.push_back(r);
  }
  // Test k flaked in runs 1..k (k = 1..12): rate k/20; "t::07b" ties with "t::07".
  for (std::int64_t k = 1; k <= 12; ++k) {
    std::vector<std::int64_t> runs;
    for (std::int64_t id = 1; id <= k; ++id) runs.push_back(id);
    h.flaky.push_back({k, "flaky", "open", T0, 0, "t::" + std::string(k < 10 ? "0" : "") + std::to_string(k), k, runs,
                       false, 0});
  }
  h.flaky.push_back({13, "flaky", "open", T0, 0, "t::07b", 7, {1, 2, 3, 4, 5, 6, 7}, false, 0});
  const auto r = estimate(h, window());
  CHECK(r.flaky_tests_flaked == 13);
  REQUIRE(r.flake_rates.size() == 10);
  std::vector<std::string> order;
  for (const auto& f : r.flake_rates) order.push_back(f.test);
  CHECK(order == std::vector<std::string>{"t::12", "t::11", "t::10", "t::09", "t::08", "t::07", "t::07b", "t::06",
                                          "t::05", "t::04"});
}

TEST_CASE("estimate: weeks split the window, and a short last week is still a week") {
  History h;
  auto o = window();
  o.until = T0 + 10 * kDay;
  h.runs.push_back(run(T0 + 8 * kDay, {gate(T0 + 8 * kDay)}));
  const auto r = estimate(h, o);
  REQUIRE(r.weeks.size() == 2);
  CHECK(r.weeks[1].start == T0 + 7 * kDay);
  CHECK(r.weeks[1].spent == 1);
  CHECK(r.weeks[0].spent == 0);
}
