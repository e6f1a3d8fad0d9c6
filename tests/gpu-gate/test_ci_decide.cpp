// The CI side's pure parts: which results count, the note on ignored ones, the description
// fitted to GitHub's limit, the outputs and the summary.
#include <set>

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
  const std::string app = "gatekit-gate[bot]";
  auto posted = [](const std::string& state, const std::string& description, const std::string& context = "gate/gpu",
                       const std::string& creator = "gatekit-gate[bot]") {
    github::CommitStatus s;
    s.state = state;
    s.description = description;
    s.context = context;
    s.creator = creator;
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
  CHECK(remembered_failure(statuses, "gate/gpu", app) == kNow - 100);
  CHECK(remembered_failure({posted("success", "passed in 4m")}, "gate/gpu", app) == std::nullopt);

  SECTION("only the poster's own statuses: one posted with any other token, or by a deleted account, is not") {
    // Any workflow with statuses: write posts as github-actions[bot]; a person's token as that person.
    for (const std::string& other : {std::string("github-actions[bot]"), std::string("mallory"), std::string()}) {
      INFO(other);
      CHECK(remembered_failure({posted("failure", "failed (result of " + format_utc(kNow - 10) + ")", "gate/gpu", other)},
                               "gate/gpu", app) == std::nullopt);
    }
    CHECK(remembered_failure({posted("failure", "failed (result of " + format_utc(kNow - 10) + ")", "gate/gpu",
                                     "github-actions[bot]")},
                             "gate/gpu", "github-actions[bot]") == kNow - 10);
  }
  SECTION("a merge queue's failure carries its time too") {
    CHECK(remembered_failure({posted("failure", "failed at the pull request head " + kHead.substr(0, 12) +
                                                    " (result of " + format_utc(kNow - 70) + ")")},
                             "gate/gpu", app) == kNow - 70);
  }
  SECTION("a mark for a tree counts only where that tree lends the result") {
    const std::vector<github::CommitStatus> marked{posted("failure", outranked_description(kNow - 30, kTree))};
    CHECK(outranked_description(kNow - 30, kTree) == "failed (result of " + format_utc(kNow - 30) + ") for tree " + kTree);
    CHECK(remembered_failure(marked, "gate/gpu", app, {kTree}) == kNow - 30);
    CHECK(remembered_failure(marked, "gate/gpu", app, {std::string(40, 'e')}) == std::nullopt);
    CHECK(remembered_failure(marked, "gate/gpu", app) == std::nullopt);
    CHECK(remembered_failure({posted("failure", "failed (result of " + format_utc(kNow - 30) + ") for tree xyz")},
                             "gate/gpu", app, {"xyz"}) == std::nullopt);
  }
  SECTION("an older pass does not undo it") {
    auto decision = decide_ci_status(input_with({result("box", Verdict::pass, 600)}), std::nullopt);
    keep_newer_failure(decision, kNow - 100, input_with({}));
    CHECK(decision.kept_failure);
    CHECK(decision.status.state == GateState::failure);
    CHECK(decision.status.description == "failed (result of " + format_utc(kNow - 100) + "; older results do not undo it)");
    CHECK(remembered_failure({posted("failure", decision.status.description)}, "gate/gpu", app) == kNow - 100);
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

TEST_CASE("a failure outranks the older passes of its tree and of the trees the walk reaches after it",
          "[ci-status][decide]") {
  const std::string head_tree(40, 'h'), docs_parent(40, 'p'), other(40, 'o');
  auto at = [](const std::string& name, Verdict verdict, std::int64_t age, const std::string& tree) {
    auto r = result(name, verdict, age);
    r.tree = tree;
    return r;
  };
  // The walk: the head (tree h, a docs-only step) and its parent (tree p).
  StatusInput input;
  input.history = {{std::string(40, '1'), head_tree, true}, {std::string(40, '2'), docs_parent, false}};
  input.now = kNow;
  const auto fail_h = at("f", Verdict::fail, 100, head_tree);
  const auto old_pass_h = at("a", Verdict::pass, 600, head_tree);
  const auto old_pass_p = at("b", Verdict::pass, 700, docs_parent);
  const auto new_pass_p = at("c", Verdict::pass, 50, docs_parent);
  const auto expired_p = at("d", Verdict::pass, 40 * 86400, docs_parent);
  input.records = {old_pass_h, fail_h, old_pass_p, new_pass_p, expired_p};
  auto decision = decide_ci_status(input, std::nullopt);
  REQUIRE(decision.status.state == GateState::failure);
  std::vector<std::string> marked;
  for (const auto& r : outranked_passes(decision, input)) marked.push_back(r.machine);
  CHECK(marked == std::vector<std::string>{"a", "b"});  // newest first; not the newer pass, nor the expired one
  CHECK(failure_time(decision) == kNow - 100);
  CHECK(lending_trees(input, decision.status) == std::set<std::string>{head_tree});

  SECTION("a failure inherited from the parent's tree marks only what lies at or after that tree") {
    input.records = {old_pass_p, at("g", Verdict::fail, 100, docs_parent), at("z", Verdict::pass, 900, other)};
    decision = decide_ci_status(input, std::nullopt);
    REQUIRE(decision.status.source_kind == StatusSource::inherited);
    marked.clear();
    for (const auto& r : outranked_passes(decision, input)) marked.push_back(r.machine);
    CHECK(marked == std::vector<std::string>{"b"});
    CHECK(lending_trees(input, decision.status) == std::set<std::string>{head_tree, docs_parent});
  }
  SECTION("a pass that counts marks nothing; a kept failure marks nothing") {
    input.records = {old_pass_h};
    decision = decide_ci_status(input, std::nullopt);
    CHECK(outranked_passes(decision, input).empty());
    keep_newer_failure(decision, kNow - 100, input);
    REQUIRE(decision.kept_failure);
    CHECK(outranked_passes(decision, input).empty());
    CHECK(failure_time(decision) == kNow - 100);
  }
  SECTION("at most kMaxMarks") {
    input.records = {fail_h};
    for (int i = 0; i < 20; ++i) input.records.push_back(at("m" + std::to_string(i), Verdict::pass, 200 + i, head_tree));
    decision = decide_ci_status(input, std::nullopt);
    CHECK(outranked_passes(decision, input).size() == kMaxMarks);
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
