// The decision (allow/deny/always, renames on both sides, fail-open causes, self-protect) and
// the step outputs. Rules loading is in test_rules.cpp, event parsing in test_changes.cpp, the
// whole gate over fakes in test_gate.cpp.
#include <sstream>

#include "catch.hpp"
#include "changes.hpp"
#include "classify.hpp"
#include "gatekit/json.hpp"
#include "path-classifier.hpp"
#include "report.hpp"
#include "rules.hpp"

using namespace gatekit;
using namespace gatekit::path_classifier;

namespace {

Rules rules_of(const std::string& yaml) {
  auto r = load_rules_text(yaml, "rules.yml", std::nullopt);
  if (!r) FAIL(r.error().message);
  return std::move(*r);
}

ChangeListing listing(std::vector<ChangedFile> files) {
  ChangeListing l;
  l.source = "test";
  l.files = std::move(files);
  fail_open_if_empty(l);
  return l;
}

const FilterDecision& find(const Decision& d, const std::string& name) {
  for (const auto& f : d.filters)
    if (f.filter == name) return f;
  FAIL("no filter " << name);
  throw;
}

const char* kRules = R"(filters:
  cpu:
    mode: deny
    paths: ['.github/**', '!.github/scripts/**']
    always: [.github/workflows/cpu-tests.yml]
  gpu:
    paths: ['src/kernels/**', '!**.md']
)";

}  // namespace

TEST_CASE("decide: allow, deny, always and ordered negation") {
  auto rules = rules_of(kRules);
  SECTION("a CI-only change skips both") {
    auto d = decide(rules, listing({{".github/workflows/lint.yml", "", "modified"}}), "pull_request", true);
    CHECK_FALSE(find(d, "cpu").relevant);
    CHECK(find(d, "cpu").reason == Reason::all_excluded);
    CHECK(find(d, "cpu").pattern == ".github/**");
    CHECK_FALSE(find(d, "gpu").relevant);
    CHECK(d.relevant().empty());
  }
  SECTION("the gate's own workflow is always relevant") {
    auto d = decide(rules, listing({{".github/workflows/cpu-tests.yml", "", "modified"}}), "pull_request", true);
    CHECK(find(d, "cpu").relevant);
    CHECK(find(d, "cpu").reason == Reason::always);
    CHECK(find(d, "cpu").from_always);
  }
  SECTION("a deny-list negation re-includes") {
    auto d = decide(rules, listing({{".github/scripts/check.py", "", "modified"}}), "pull_request", true);
    CHECK(find(d, "cpu").relevant);
    CHECK(find(d, "cpu").reason == Reason::not_excluded);
    CHECK(find(d, "cpu").pattern == "!.github/scripts/**");
  }
  SECTION("an allow-list negation subtracts") {
    auto d = decide(rules, listing({{"src/kernels/README.md", "", "modified"}}), "pull_request", true);
    CHECK_FALSE(find(d, "gpu").relevant);
    CHECK(find(d, "gpu").why ==
          "the only changed path is not included (e.g. `src/kernels/README.md` is excluded by `!**.md`)");
    auto d2 = decide(rules, listing({{"src/kernels/README.md", "", ""}, {"src/kernels/a.cu", "", ""}}), "x", true);
    CHECK(find(d2, "gpu").relevant);
    CHECK(find(d2, "gpu").file == "src/kernels/a.cu");
    CHECK(find(d2, "gpu").why == "`src/kernels/a.cu` is included by `src/kernels/**`");
  }
}

TEST_CASE("decide: renames count on both sides") {
  auto rules = rules_of(kRules);
  // Moving a kernel out of the GPU paths removes GPU code: the GPU suite must run.
  auto d = decide(rules, listing({{"docs/old_kernel.cu", "src/kernels/k.cu", "renamed"}}), "pull_request", true);
  CHECK(find(d, "gpu").relevant);
  CHECK(find(d, "gpu").file == "src/kernels/k.cu");
  CHECK(find(d, "gpu").renamed_to == "docs/old_kernel.cu");
  // Moving source into the denied .github/ still removes source: the CPU suite must run.
  auto d2 = decide(rules, listing({{".github/moved.py", "src/app.py", "renamed"}}), "pull_request", true);
  CHECK(find(d2, "cpu").relevant);
  CHECK(find(d2, "cpu").file == "src/app.py");
  CHECK(find(d2, "cpu").why == "`src/app.py` (renamed to `.github/moved.py`) matches no deny pattern");
}

TEST_CASE("decide: fail-open and non-PR events make every filter relevant") {
  auto rules = rules_of(kRules);
  auto empty = listing({});
  REQUIRE(empty.fail_open);
  auto d = decide(rules, empty, "pull_request", true);
  for (const auto& f : d.filters) {
    CHECK(f.relevant);
    CHECK(f.reason == Reason::fail_open);
    CHECK(f.why == "fail-open: the change lists no files (test)");
  }
  auto push = decide(rules, listing({{".github/x", "", ""}}), "push", false);
  for (const auto& f : push.filters) {
    CHECK(f.relevant);
    CHECK(f.reason == Reason::non_pr_event);
  }
}

TEST_CASE("decide: the rules file and the running workflow make every filter relevant (self-protect)") {
  const std::vector<GuardedFile> guarded{{".github/path-gate.yml", "the gate's rules file"},
                                         {".github/workflows/ci.yml", "the workflow running the gate"}};
  // cpu denies .github/** and gpu allows only kernels: without self-protection, a change to
  // the gate's own configuration would run nothing.
  auto rules = rules_of(kRules);
  const auto only_rules = listing({{".github/path-gate.yml", "", "modified"}});
  auto d = decide(rules, only_rules, "pull_request", true, guarded);
  for (const auto& f : d.filters) {
    CHECK(f.relevant);
    CHECK(f.reason == Reason::self_protect);
    CHECK(f.file == ".github/path-gate.yml");
    CHECK(f.pattern.empty());
    CHECK(f.why ==
          "`.github/path-gate.yml` is the gate's rules file: a change to it makes every filter relevant (self-protect)");
  }
  // The old side of a rename counts, and the workflow file too.
  auto moved = decide(rules, listing({{"ci-old.yml", ".github/workflows/ci.yml", "renamed"}}), "pull_request", true,
                      guarded);
  CHECK(find(moved, "gpu").reason == Reason::self_protect);
  CHECK(find(moved, "gpu").why == "`.github/workflows/ci.yml` (renamed to `ci-old.yml`) is the workflow running the "
                                  "gate: a change to it makes every filter relevant (self-protect)");
  // Other files decide as before.
  auto other = decide(rules, listing({{".github/other.yml", "", "modified"}}), "pull_request", true, guarded);
  CHECK_FALSE(find(other, "cpu").relevant);
  CHECK_FALSE(find(other, "gpu").relevant);
  // `self-protect: false` restores the lists' verdict.
  auto off = rules_of(std::string("self-protect: false\n") + kRules);
  CHECK_FALSE(off.self_protect);
  auto d_off = decide(off, only_rules, "pull_request", true, guarded);
  CHECK_FALSE(find(d_off, "cpu").relevant);
  CHECK(find(d_off, "cpu").reason == Reason::all_excluded);
  CHECK_FALSE(find(d_off, "gpu").relevant);
  CHECK(rules_of(std::string("self-protect: true\n") + kRules).self_protect);
  CHECK(rules_of(kRules).self_protect);
}

TEST_CASE("self-protect: the workflow path from GITHUB_WORKFLOW_REF, the rules path inside the repository") {
  CHECK(*workflow_path_from_ref("octo/app/.github/workflows/cpu-tests.yml@refs/pull/7/merge") ==
        ".github/workflows/cpu-tests.yml");
  CHECK(*workflow_path_from_ref("o/r/.github/workflows/a.yaml@refs/heads/feat@x") == ".github/workflows/a.yaml");
  CHECK(*workflow_path_from_ref("o/r/.github/workflows/v1.yml.d.yml@main") == ".github/workflows/v1.yml.d.yml");
  CHECK_FALSE(workflow_path_from_ref(""));
  CHECK_FALSE(workflow_path_from_ref("o/r"));
  CHECK_FALSE(workflow_path_from_ref("o//.github/workflows/a.yml@main"));
  CHECK_FALSE(workflow_path_from_ref("o/r/.github/workflows/a.yml"));      // no ref
  CHECK_FALSE(workflow_path_from_ref("o/r/src/a.yml@main"));               // not a workflow
  CHECK(*path_inside("/w/repo/.github/gate.yml", "/w/repo") == ".github/gate.yml");
  CHECK(*path_inside("/w/repo/./sub/../gate.yml", "/w/repo/") == "gate.yml");
  CHECK_FALSE(path_inside("/w/other/gate.yml", "/w/repo"));
  CHECK_FALSE(path_inside("/w/repo", "/w/repo"));
  CHECK_FALSE(path_inside("/w/repository/gate.yml", "/w/repo"));
}

TEST_CASE("outputs: one flag per filter, changes, filters and the JSON trace") {
  auto rules = rules_of(kRules);
  auto d = decide(rules, listing({{"src/kernels/a.cu", "", ""}}), "pull_request", true);
  auto outs = step_outputs(d);
  REQUIRE(outs.size() == 5);
  CHECK(outs[0] == std::pair<std::string, std::string>{"cpu", "true"});
  CHECK(outs[1] == std::pair<std::string, std::string>{"gpu", "true"});
  CHECK(outs[2] == std::pair<std::string, std::string>{"changes", R"(["cpu","gpu"])"});
  CHECK(outs[3] == std::pair<std::string, std::string>{"filters", R"({"cpu":true,"gpu":true})"});
  auto trace = boost::json::parse(outs[4].second).as_object();
  CHECK(trace["filters"].as_object()["gpu"].as_object()["pattern"].as_string() == "src/kernels/**");
  CHECK(trace["filters"].as_object()["cpu"].as_object()["pattern"].is_null());
}
