// The prune decision: which results go, on tables of records; with signatures checked, the
// newest of a tree and machine is decided among the verified results alone.
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "catch.hpp"
#include "record/prune_decide.hpp"

using namespace gatekit::gpu_gate;

namespace {

constexpr std::int64_t kNow = 1'800'000'000;
constexpr std::int64_t kHour = 3'600;
constexpr std::chrono::hours kExpiry{28 * 24};

// A published result of tree T, machine m1, `age` seconds old; its record commit is `commit`.
GateRecord result(const std::string& commit, std::int64_t age, RefHalf half = RefHalf::published) {
  GateRecord r;
  r.tree = std::string(40, 'T');
  r.machine = "m1";
  r.time = kNow - age;
  r.half = half;
  r.record_commit = commit;
  r.ref = std::string(half == RefHalf::published ? "refs/gatekit-gate/" : "refs/gatekit-gate-mine/") + r.tree +
          "/m1@" + commit;
  return r;
}

std::vector<std::string> commits(const std::vector<GateRecord>& records) {
  std::vector<std::string> out;
  for (const auto& r : records) out.push_back(r.record_commit);
  return out;
}

}  // namespace

TEST_CASE("prune: the newest of a tree and machine is decided among verified results") {
  struct Case {
    const char* name;
    std::vector<GateRecord> records;
    std::optional<std::set<std::string>> verified;
    std::vector<std::string> superseded;
    std::vector<std::string> unverified;
    std::size_t kept;
  };
  const std::vector<Case> cases = {
      {"not checked: the newest stays, whatever its signature",
       {result("signed", 2 * kHour), result("hostile", kHour)}, std::nullopt, {"signed"}, {}, 1},
      {"a newer unverified ref deletes no verified result",
       {result("signed", 2 * kHour), result("hostile", kHour)}, std::set<std::string>{"signed"}, {}, {"hostile"}, 2},
      {"verified results still replace each other; unverified ones each other",
       {result("old", 3 * kHour), result("signed", 2 * kHour), result("hostile1", kHour), result("hostile2", 1)},
       std::set<std::string>{"old", "signed"}, {"old", "hostile1"}, {"hostile1", "hostile2"}, 2},
      {"nothing verifies: the newest of them stays",
       {result("a", 2 * kHour), result("b", kHour)}, std::set<std::string>{}, {"a"}, {"a", "b"}, 1},
      {"this machine's own half is not checked",
       {result("mine1", 2 * kHour, RefHalf::mine), result("mine2", kHour, RefHalf::mine)}, std::set<std::string>{},
       {"mine1"}, {}, 1},
  };
  for (const auto& c : cases) {
    SECTION(c.name) {
      const auto d = decide_prune(c.records, kNow, kExpiry, {}, c.verified);
      CHECK(commits(d.superseded) == c.superseded);
      CHECK(commits(d.unverified) == c.unverified);
      CHECK(d.kept == c.kept);
      CHECK(d.remove.empty());
    }
  }
}

TEST_CASE("prune: an expired verified result goes even when an unverified one is newer") {
  const std::vector<GateRecord> records = {result("signed", 30 * 24 * kHour), result("hostile", kHour)};
  const auto d = decide_prune(records, kNow, kExpiry, {}, std::set<std::string>{"signed"});
  CHECK(commits(d.remove) == std::vector<std::string>{"signed"});
  CHECK(d.superseded.empty());
  CHECK(d.kept == 1);
}
