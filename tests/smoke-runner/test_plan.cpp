#include "catch.hpp"
#include "gatekit/environment.hpp"
#include "plan.hpp"

using namespace gatekit::smoke_runner;
using namespace std::chrono_literals;

namespace {
Manifest manifest_of(std::vector<std::pair<int, bool>> gpus_pr) {
  Manifest m;
  int i = 0;
  for (auto [g, pr] : gpus_pr) {
    Smoke s;
    s.name = "s" + std::to_string(i++);
    s.command = {"true"};
    s.min_gpus = g;
    s.pr = pr;
    m.smokes.push_back(s);
  }
  return m;
}

// No device is used by two runs at once, and every job runs exactly once.
void check_disjoint(const Plan& plan, std::size_t jobs) {
  REQUIRE(plan.runs.size() == jobs);
  for (std::size_t i = 0; i < plan.runs.size(); ++i) {
    for (std::size_t j = i + 1; j < plan.runs.size(); ++j) {
      const auto& a = plan.runs[i];
      const auto& b = plan.runs[j];
      const bool overlap_in_time = a.start < b.end && b.start < a.end;
      if (!overlap_in_time) continue;
      for (int d : a.devices) CHECK(std::find(b.devices.begin(), b.devices.end(), d) == b.devices.end());
    }
  }
}
}  // namespace

TEST_CASE("selection: tier first, then GPU count, with reasons") {
  auto m = manifest_of({{1, true}, {2, true}, {1, false}, {4, false}});
  auto pr = select_smokes(m, Tier::pr, 1);
  CHECK(pr[0].run);
  CHECK_FALSE(pr[1].run);
  CHECK(pr[1].reason == "needs 2 GPUs, runner has 1");
  CHECK(pr[2].reason == "not in the pr tier (pr: false)");
  CHECK(pr[3].reason == "not in the pr tier (pr: false)");
  auto full = select_smokes(m, Tier::full, 2);
  CHECK(full[0].run);
  CHECK(full[1].run);
  CHECK(full[2].run);
  CHECK(full[3].reason == "needs 4 GPUs, runner has 2");
  auto none = select_smokes(m, Tier::full, 0);
  CHECK(none[0].reason == "needs 1 GPU, runner has 0");
}

TEST_CASE("tier from the option, the variable, or the compatibility variable") {
  gatekit::MapEnvironment env;
  CHECK(resolve_tier("pr", kDefaultTierEnv, false, env).value() == Tier::pr);
  auto bad = resolve_tier("nightly", kDefaultTierEnv, false, env);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().kind == gatekit::ErrorKind::bad_input);
  CHECK(bad.error().message == "--tier must be 'pr' or 'full', got 'nightly'");
  auto none = resolve_tier("", kDefaultTierEnv, false, env);
  REQUIRE_FALSE(none.ok());
  CHECK(none.error().message == "no tier given: pass --tier pr|full or set GATEKIT_SMOKE_TIER (or AORTA_CI_TIER)");
  env.set("AORTA_CI_TIER", "full");
  CHECK(resolve_tier("", kDefaultTierEnv, false, env).value() == Tier::full);
  CHECK_FALSE(resolve_tier("", "MY_TIER", true, env).ok());  // an explicit --tier-env reads only that one
  env.set("GATEKIT_SMOKE_TIER", "PR");
  auto upper = resolve_tier("", kDefaultTierEnv, false, env);
  REQUIRE_FALSE(upper.ok());
  CHECK(upper.error().message == "GATEKIT_SMOKE_TIER must be 'pr' or 'full', got 'PR'");
  env.set("MY_TIER", "pr");
  CHECK(resolve_tier("", "MY_TIER", true, env).value() == Tier::pr);
  env.set("GATEKIT_SMOKE_TIER", "");  // empty counts as unset
  CHECK(resolve_tier("", kDefaultTierEnv, false, env).value() == Tier::full);
}

TEST_CASE("priority: more GPUs first, then longer, then manifest order") {
  auto order = priority_order({{0, 1, 5s}, {1, 2, 1s}, {2, 1, 9s}, {3, 2, 1s}, {4, 4, 1s}});
  std::vector<std::size_t> ids;
  for (auto& j : order) ids.push_back(j.id);
  CHECK(ids == std::vector<std::size_t>{4, 1, 3, 2, 0});
}

TEST_CASE("devices: the lowest contiguous run, else the lowest free ones") {
  CHECK(choose_devices({false, false, false, false}, 2) == std::vector<int>{0, 1});
  CHECK(choose_devices({true, false, true, false, false}, 2) == std::vector<int>{3, 4});
  CHECK(choose_devices({true, false, true, false}, 2) == std::vector<int>{1, 3});
  CHECK(choose_devices({true, true}, 1).empty());
}

TEST_CASE("backfilling: a small job may not delay a reserved big one") {
  // 4 GPUs; 2 busy until t=10s. A 4-GPU job waits (reserved at 10s); a 1-GPU job of 20s
  // would push it back, one of 5s fits in front of it.
  std::vector<RunningJob> running{{2, 10s}};
  std::vector<Job> queue{{0, 4, 30s}, {1, 1, 20s}, {2, 1, 5s}};
  CHECK(jobs_to_start(queue, 2, running, 0s, false) == std::vector<std::size_t>{2});
  // Serial: one at a time, only when nothing runs.
  CHECK(jobs_to_start(queue, 2, running, 0s, true).empty());
  CHECK(jobs_to_start({{0, 1, 1s}, {1, 1, 1s}}, 4, {}, 0s, true) == std::vector<std::size_t>{0});
}

TEST_CASE("plans use disjoint devices and respect the lower bound") {
  std::vector<Job> jobs;
  const int gpus[] = {4, 2, 1, 1, 2, 1, 4, 1, 2, 1, 1, 2, 1, 1, 1, 2};
  const int secs[] = {6, 5, 9, 3, 4, 7, 2, 8, 3, 2, 5, 6, 4, 3, 1, 2};
  for (std::size_t i = 0; i < 16; ++i) jobs.push_back({i, gpus[i], std::chrono::seconds(secs[i])});
  auto plan = plan_runs(jobs, 8, false);
  check_disjoint(plan, 16);
  CHECK(plan.makespan >= plan.lower_bound);
  CHECK(plan.makespan.count() <= plan.lower_bound.count() * 11 / 10);
  CHECK(plan.serial_time == 70s);
  auto serial = plan_runs(jobs, 8, true);
  CHECK(serial.makespan == 70s);
  for (const auto& r : serial.runs) CHECK(r.devices.size() == 8);
}

TEST_CASE("jobs needing more GPUs than the runner has are left out of a plan") {
  auto plan = plan_runs({{0, 2, 1s}, {1, 1, 1s}}, 1, false);
  REQUIRE(plan.runs.size() == 1);
  CHECK(plan.runs[0].id == 1);
  CHECK(plan_runs({{0, 1, 1s}}, 0, false).runs.empty());
}

TEST_CASE("estimates come from the previous report, else the timeout") {
  auto m = manifest_of({{1, true}, {1, true}, {1, true}});
  m.smokes[1].timeout = 42s;
  auto jobs = make_jobs(m, select_smokes(m, Tier::pr, 1), {{"s0", 3s}});
  REQUIRE(jobs.size() == 3);
  CHECK(jobs[0].estimate == 3s);
  CHECK(jobs[1].estimate == 42s);
  CHECK(jobs[2].estimate == kDefaultTimeout);
}
