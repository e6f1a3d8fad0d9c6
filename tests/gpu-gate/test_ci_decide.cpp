// The CI side's pure parts: which results count, the note on ignored ones, the description
// fitted to GitHub's limit, the outputs and the summary.
#include "catch.hpp"
#include "status/ci_status_decide.hpp"
#include "status/ci_status_report.hpp"
#include "gatekit/text.hpp"
#include "status/post.hpp"

using namespace gatekit;
using namespace gatekit::gpu_gate;

namespace {

const std::int64_t kNow = 1'700'000'000;
const std::string kHead(40, 'a'), kTree(40, 'b');

GateRecord result(const std::string& machine, Verdict verdict, std::int64_t age, bool mine = false) {
  GateRecord r;
  r.verdict = verdict;
  r.duration = std::chrono::minutes(4);
  r.commit = kHead;
  r.tree = kTree;
  r.time = kNow - age;
  r.machine = machine;
  r.record_commit = std::string(39, 'c') + machine.front();
  r.half = mine ? RefHalf::mine : RefHalf::published;
  r.ref = "refs/gatekit-gate/" + kTree + "/" + machine;
  r.device.backend = "cuda";
  r.device.count = 1;
  return r;
}

StatusInput input_with(std::vector<GateRecord> records) {
  StatusInput input;
  input.history = {{kHead, kTree, false}};
  input.records = std::move(records);
  input.now = kNow;
  return input;
}

SignatureVerdict verdict(SignatureCheck check) { return {check, check == SignatureCheck::trusted ? "alice" : "", "SHA256:k"}; }

}  // namespace

TEST_CASE("without an allowed-signers file every published result counts, this machine's own do not",
          "[ci-status][decide]") {
  auto decision = decide_ci_status(input_with({result("mine", Verdict::pass, 10, true), result("box", Verdict::fail, 20)}),
                                   std::nullopt);
  CHECK(decision.status.state == GateState::failure);
  CHECK(decision.status.description == "failed (result of " + format_utc(kNow - 20) + ")");
  CHECK(decision.ignored == 0);
  REQUIRE(decision.results.size() == 1);
  CHECK_FALSE(decision.results[0].signature.has_value());
}

TEST_CASE("an untrusted result counts as absent; the note appears only when it mattered", "[ci-status][decide]") {
  const auto trusted_old = result("alice", Verdict::pass, 600);
  const auto unsigned_new = result("plain", Verdict::fail, 60);
  std::map<std::string, SignatureVerdict> verdicts{{trusted_old.record_commit, verdict(SignatureCheck::trusted)},
                                                   {unsigned_new.record_commit, verdict(SignatureCheck::unsigned_)}};
  SECTION("it would have won: said") {
    auto decision = decide_ci_status(input_with({trusted_old, unsigned_new}), verdicts);
    CHECK(decision.status.state == GateState::success);
    CHECK(decision.status.description == "passed in 4m (an unsigned or foreign result was ignored)");
    CHECK(decision.ignored == 1);
    CHECK(decision.ignored_mattered);
    REQUIRE(decision.results.size() == 2);
    CHECK(decision.results[0].record.machine == "plain");  // newest first
    CHECK_FALSE(decision.results[0].counted);
    CHECK(decision.results[1].counted);
  }
  SECTION("alone: pending, said") {
    auto decision = decide_ci_status(input_with({unsigned_new}), verdicts);
    CHECK(decision.status.state == GateState::pending);
    CHECK(decision.status.description == "no gate result for this tree (an unsigned or foreign result was ignored)");
  }
  SECTION("older than the trusted one: nothing to say") {
    auto older = result("plain", Verdict::fail, 6000);
    auto decision = decide_ci_status(input_with({trusted_old, older}), verdicts);
    CHECK(decision.status.description == "passed in 4m");
    CHECK(decision.ignored == 1);
    CHECK_FALSE(decision.ignored_mattered);
  }
  SECTION("a result git gave no verdict for is not trusted") {
    auto stray = result("zed", Verdict::pass, 5);
    auto decision = decide_ci_status(input_with({stray}), verdicts);
    CHECK(decision.status.state == GateState::pending);
    CHECK(decision.results.at(0).signature->check == SignatureCheck::unverifiable);
  }
}

TEST_CASE("CI remembers the newest failure it posted on the commit", "[ci-status][decide]") {
  auto posted = [](const std::string& state, const std::string& description, const std::string& context = "gate/gpu") {
    github::CommitStatus s;
    s.state = state;
    s.description = description;
    s.context = context;
    return s;
  };
  const std::vector<github::CommitStatus> statuses{
      posted("success", "passed in 4m"),
      posted("failure", "failed (result of " + format_utc(kNow - 100) + "; older results do not undo it)"),
      posted("failure", "failed (result of " + format_utc(kNow - 300) + ")"),
      posted("failure", "failed (result of " + format_utc(kNow - 50) + ")", "gate/other"),
      posted("failure", "failed"),
      posted("error", "could not evaluate: failed (result of " + format_utc(kNow) + ")"),
      posted("failure", "failed (result of 2026-13-01T00:00:00Z)")};
  CHECK(remembered_failure(statuses, "gate/gpu") == kNow - 100);
  CHECK(remembered_failure({posted("success", "passed in 4m")}, "gate/gpu") == std::nullopt);

  SECTION("an older pass does not undo it") {
    auto decision = decide_ci_status(input_with({result("box", Verdict::pass, 600)}), std::nullopt);
    keep_newer_failure(decision, kNow - 100, input_with({}));
    CHECK(decision.kept_failure);
    CHECK(decision.status.state == GateState::failure);
    CHECK(decision.status.description == "failed (result of " + format_utc(kNow - 100) + "; older results do not undo it)");
    CHECK(remembered_failure({posted("failure", decision.status.description)}, "gate/gpu") == kNow - 100);
  }
  SECTION("nor does the failure's ref going away") {
    auto decision = decide_ci_status(input_with({}), std::nullopt);
    keep_newer_failure(decision, kNow - 100, input_with({}));
    CHECK(decision.status.state == GateState::failure);
  }
  SECTION("a newer result counts") {
    auto decision = decide_ci_status(input_with({result("box", Verdict::pass, 60)}), std::nullopt);
    keep_newer_failure(decision, kNow - 100, input_with({}));
    CHECK_FALSE(decision.kept_failure);
    CHECK(decision.status.description == "passed in 4m");
  }
  SECTION("a remembered failure past the expiry or from the future is forgotten") {
    auto decision = decide_ci_status(input_with({result("box", Verdict::pass, 600)}), std::nullopt);
    keep_newer_failure(decision, kNow - 29 * 86400, input_with({}));
    CHECK(decision.status.state == GateState::success);
    keep_newer_failure(decision, kNow + 3600, input_with({}));
    CHECK(decision.status.state == GateState::success);
  }
}

TEST_CASE("a status description fits GitHub's 140 characters on one line", "[ci-status][post]") {
  CHECK(status_description("passed in 4m") == "passed in 4m");
  CHECK(status_description("line one\nline two\ttab") == "line one line two tab");
  const std::string exact(140, 'x');
  CHECK(status_description(exact) == exact);
  const std::string longer = std::string(136, 'x') + "é and more";  // a 2-byte character at 137
  const auto fitted = status_description(longer);
  CHECK(fitted == std::string(136, 'x') + "é...");
  CHECK(status_description("bad \xff byte") == "bad \xEF\xBF\xBD byte");
}

TEST_CASE("the outputs and the summary of a decision", "[ci-status][report]") {
  CiReport report;
  report.context = "gate/gpu";
  report.sha = kHead;
  report.pr = "12";
  report.base = "main";
  report.allowed_signers = ".github/gatekit/allowed_signers";
  report.posted = true;
  const auto foreign = result("mallory", Verdict::pass, 90);
  report.decision = decide_ci_status(input_with({foreign}), std::map<std::string, SignatureVerdict>{
                                                                 {foreign.record_commit, verdict(SignatureCheck::foreign)}});
  report.decision.status.tree = kTree;
  const auto outputs = ci_outputs(report);
  CHECK(outputs == std::vector<std::pair<std::string, std::string>>{
                       {"result", "pass"},
                       {"state", "pending"},
                       {"description", "no gate result for this tree (an unsigned or foreign result was ignored)"},
                       {"tree", kTree},
                       {"source", ""},
                       {"ignored", "1"},
                       {"posted", "true"}});
  const auto summary = ci_summary(report, kNow);
  CHECK(summary.substr(0, summary.find('\n')) ==
        "## gate/gpu: ⏳ pending — no gate result for this tree (an unsigned or foreign result was ignored)");
  CHECK(summary.find("| `mallory` | `aaaaaaaaaaaa` | pass | 0 passed | 1m 30s ago | foreign (`SHA256:k`) | **no** |") !=
        std::string::npos);
  CHECK(summary.find("(head of pull request #12)") != std::string::npos);
  CHECK(summary.find("would have changed the status") != std::string::npos);
}
