// The status decision: the states and descriptions of docs/gpu-gate.md, on tables of history.
#include <string>

#include "catch.hpp"
#include "gatekit/text.hpp"
#include "status/status_decide.hpp"

using namespace gatekit::gpu_gate;

namespace {

constexpr std::int64_t kNow = 1'800'000'000;
constexpr std::int64_t kDay = 86'400;

std::string id(char c) { return std::string(40, c); }

GateRecord result(char tree, Verdict verdict, std::int64_t age, const std::string& machine = "m1") {
  GateRecord r;
  r.tree = id(tree);
  r.verdict = verdict;
  r.time = kNow - age;
  r.machine = machine;
  r.duration = std::chrono::milliseconds(245'000);
  r.device.backend = "cuda";
  r.device.count = 1;
  r.ref = "refs/gatekit-gate/" + id(tree) + "/" + machine;
  return r;
}

// history "c:C d" = commit c with tree C, docs-only step (d) or code step (x).
StatusInput input(std::vector<HistoryCommit> history, std::vector<GateRecord> records,
                  std::optional<bool> docs_only = std::nullopt) {
  StatusInput in;
  in.history = std::move(history);
  in.records = std::move(records);
  in.change_docs_only = docs_only;
  in.now = kNow;
  return in;
}

HistoryCommit commit(char c, char tree, bool docs_only_step) { return {id(c), id(tree), docs_only_step}; }

}  // namespace

TEST_CASE("an exact-tree result gives success 'passed in 4m' or failure 'failed (result of <time>)'") {
  auto passed = decide_status(input({commit('1', 'A', false)}, {result('A', Verdict::pass, 60)}));
  CHECK(passed.state == GateState::success);
  CHECK(passed.description == "passed in 4m");
  CHECK(passed.source == id('1'));
  CHECK(passed.tree == id('A'));
  CHECK(passed.source_kind == StatusSource::exact);
  auto failed = decide_status(input({commit('1', 'A', false)}, {result('A', Verdict::fail, 60)}));
  CHECK(failed.state == GateState::failure);
  CHECK(failed.description == "failed (result of " + gatekit::format_utc(kNow - 60) + ")");
}

TEST_CASE("among several results for one tree the newest counts, whatever the machine") {
  auto s = decide_status(input({commit('1', 'A', false)},
                               {result('A', Verdict::pass, 300, "m1"), result('A', Verdict::fail, 100, "m2"),
                                result('A', Verdict::pass, 200, "m3")}));
  CHECK(s.state == GateState::failure);
  REQUIRE(s.record);
  CHECK(s.record->machine == "m2");
}

TEST_CASE("results older than the expiry are ignored") {
  auto s = decide_status(input({commit('1', 'A', false)}, {result('A', Verdict::pass, 29 * kDay)}));
  CHECK(s.state == GateState::pending);
  CHECK(s.description == "no gate result for this tree");
  CHECK(s.ignored == std::vector<std::string>{"'refs/gatekit-gate/" + id('A') + "/m1': older than the expiry (28 days)"});
  auto in = input({commit('1', 'A', false)}, {result('A', Verdict::pass, 29 * kDay)});
  in.expiry = std::chrono::hours(24 * 30);
  CHECK(decide_status(in).state == GateState::success);
}

TEST_CASE("a docs-only delta inherits the result of the nearest tree, across several commits") {
  auto s = decide_status(input({commit('3', 'C', true), commit('2', 'B', true), commit('1', 'A', false)},
                               {result('A', Verdict::pass, 60)}));
  CHECK(s.state == GateState::success);
  CHECK(s.description == "inherited from 111111111111, docs-only delta");
  CHECK(s.source == id('1'));
  CHECK(s.source_kind == StatusSource::inherited);
  CHECK(s.tree == id('C'));
}

TEST_CASE("an exact-tree result wins over an inherited one, even when older") {
  auto s = decide_status(input({commit('2', 'B', true), commit('1', 'A', false)},
                               {result('A', Verdict::pass, 60), result('B', Verdict::fail, 600)}));
  CHECK(s.state == GateState::failure);
  CHECK(s.source_kind == StatusSource::exact);
}

TEST_CASE("a code step stops inheritance: a rebase onto new code needs a new run") {
  // 2 changes code on top of 1's tree: 1's pass says nothing about 2.
  auto s = decide_status(input({commit('3', 'C', true), commit('2', 'B', false), commit('1', 'A', false)},
                               {result('A', Verdict::pass, 60)}));
  CHECK(s.state == GateState::pending);
  CHECK(s.description == "no gate result for this tree");
}

TEST_CASE("an inherited failure fails, naming the commit that failed as the source") {
  auto s = decide_status(input({commit('2', 'B', true), commit('1', 'A', false)}, {result('A', Verdict::fail, 60)}));
  CHECK(s.state == GateState::failure);
  CHECK(s.description == "failed (result of " + gatekit::format_utc(kNow - 60) + ")");
  CHECK(s.source == id('1'));
}

TEST_CASE("a docs-only pull request without any result is 'no code change'") {
  auto s = decide_status(input({commit('2', 'B', false)}, {}, true));
  CHECK(s.state == GateState::success);
  CHECK(s.description == "no code change");
  CHECK(s.source.empty());
  CHECK(decide_status(input({commit('2', 'B', false)}, {}, false)).state == GateState::pending);
}

TEST_CASE("durations read as the status table in docs/gpu-gate.md writes them") {
  CHECK(short_duration(std::chrono::milliseconds(42'000)) == "42s");
  CHECK(short_duration(std::chrono::milliseconds(245'000)) == "4m");
  CHECK(short_duration(std::chrono::milliseconds(3'900'000)) == "1h 05m");
}

TEST_CASE("a result dated ahead of now by more than the allowed clock skew is ignored, and says why") {
  // A failure from now, and a pass dated 20 minutes ahead: the pass must not win.
  auto in = input({commit('1', 'A', false)}, {result('A', Verdict::fail, 0, "m1"), result('A', Verdict::pass, -20 * 60, "m2")});
  auto s = decide_status(in);
  CHECK(s.state == GateState::failure);
  REQUIRE(s.record);
  CHECK(s.record->machine == "m1");
  CHECK(s.ignored == std::vector<std::string>{"'refs/gatekit-gate/" + id('A') +
                                              "/m2': dated 20 minutes in the future: the allowed clock skew is 5 minutes"});
  // Within the skew it counts; the skew is the configuration's.
  in.records[1].time = kNow + 4 * 60;
  CHECK(decide_status(in).state == GateState::success);
  in.clock_skew = std::chrono::minutes(1);
  CHECK(decide_status(in).state == GateState::failure);
  CHECK(decide_status(in).ignored.front().ends_with("': dated 4 minutes in the future: the allowed clock skew is 1 minute"));
}

TEST_CASE("a result whose commit date is not its time is ignored") {
  auto back_dated = result('A', Verdict::pass, 60);
  back_dated.committer_time = kNow - 60 - 400 * kDay;  // signed "in the past", where an expired key was valid
  auto s = decide_status(input({commit('1', 'A', false)}, {back_dated}));
  CHECK(s.state == GateState::pending);
  CHECK(s.ignored == std::vector<std::string>{"'refs/gatekit-gate/" + id('A') + "/m1': its commit date (" +
                                              gatekit::format_utc(kNow - 60 - 400 * kDay) + ") is not its time (" +
                                              gatekit::format_utc(kNow - 60) + "): the allowed clock skew is 5 minutes"});
  back_dated.committer_time = kNow - 60 + 5 * 60;  // within the skew
  CHECK(decide_status(input({commit('1', 'A', false)}, {back_dated})).state == GateState::success);
}

TEST_CASE("a result recorded without a GPU never counts, unless the configuration lets a CPU machine gate") {
  auto cpu = result('A', Verdict::pass, 60);
  cpu.device = {"none", 0, {}, "", "", ""};
  auto in = input({commit('1', 'A', false)}, {cpu});
  auto s = decide_status(in);
  CHECK(s.state == GateState::pending);
  CHECK(s.ignored == std::vector<std::string>{"'refs/gatekit-gate/" + id('A') +
                                              "/m1': recorded without a GPU (gpu-count 0): only a GPU machine's result "
                                              "counts (the configuration does not set cpu_gate)"});
  in.cpu_gate = true;
  s = decide_status(in);
  CHECK(s.state == GateState::success);
  CHECK(s.description == "passed in 4m (no GPU; cpu_gate is on)");
  CHECK(s.ignored.empty());
}
