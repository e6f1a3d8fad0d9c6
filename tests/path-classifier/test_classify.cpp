// Rules loading, the decision (allow/deny/always, renames on both sides), fail-open causes,
// event parsing, and the whole gate with in-memory fakes (no network, no git).
#include <sstream>

#include "catch.hpp"
#include "changes.hpp"
#include "classify.hpp"
#include "gatekit/cli.hpp"
#include "gatekit/compat.hpp"
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

std::string rules_error(const std::string& yaml) {
  auto r = load_rules_text(yaml, "rules.yml", std::nullopt);
  if (r) FAIL("rules were accepted");
  CHECK(r.error().code == ExitCode::usage_error);
  return r.error().message;
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

TEST_CASE("rules: errors are located, complete and hinted") {
  CHECK(rules_error("filters:\n  cpu:\n    mode: deny\n    pathz: [a]\n") ==
        "2 errors in rules.yml:\n"
        "rules.yml:2:3: filters.cpu: missing `paths:` (or `category:`)\n"
        "rules.yml:4:5: filters.cpu.pathz: unknown key 'pathz' (did you mean 'paths'?)");
  CHECK(rules_error("filters:\n  changes: [a]\n") ==
        "1 error in rules.yml:\nrules.yml:2:3: filters.changes: 'changes' is reserved for an output of its own; "
        "choose another name");
  CHECK(rules_error("filters:\n  x: ['!a', '!b']\n") ==
        "1 error in rules.yml:\nrules.yml:2:3: filters.x.paths: every pattern is negative ('!'), so the list can "
        "never match: start with a positive pattern such as '**'");
  CHECK(rules_error("filters:\n  d:\n    category: docs\n    paths: [a]\n") ==
        "1 error in rules.yml:\nrules.yml:3:15: filters.d.category: give either `category` or `paths`, not both");
  CHECK(rules_error("dialect: glob\nfilters:\n  x: [a]\n") ==
        "1 error in rules.yml:\nrules.yml:1:10: dialect: unknown dialect 'glob' (expected github or picomatch)");
  CHECK(rules_error("filters:\n  x:\n    - \"a/[b\"\n") ==
        "1 error in rules.yml:\nrules.yml:3:10: filters.x[0]: invalid pattern 'a/[b': '[' is not closed by ']' "
        "(hint: write '\\[' for a literal '[')");
  CHECK(rules_error("[a, b]\n") == "1 error in rules.yml:\nrules.yml:1:1: expected a map with a `filters:` key, got a list");
  CHECK(rules_error("filters: {}\n") ==
        "1 error in rules.yml:\nrules.yml:1:10: filters: no filters: give at least one, e.g. `cpu: ['src/**']`");
  CHECK(rules_error("filters: [a]\n") ==
        "1 error in rules.yml:\nrules.yml:1:10: filters: expected a map of filter name to rules, got a list");
  CHECK(rules_error("self-protect: 'false'\nfilters:\n  x: [a]\n") ==
        "1 error in rules.yml:\nrules.yml:1:15: self-protect: expected true or false, got the string \"false\" "
        "(remove the quotes)");
}

TEST_CASE("rules: a filter or category given twice is an error, never last-one-wins") {
  // yaml-cpp keeps both entries: each would become a step output of the same name, and the
  // runner would keep the last value (cpu=false), skipping a needed suite.
  CHECK(rules_error("filters: {cpu: ['src/**'], gpu: ['k/**'], cpu: ['.none']}\n") ==
        "1 error in rules.yml:\nrules.yml:1:43: filters.cpu: duplicate key 'cpu' (first at line 1, column 11): "
        "give each key once");
  CHECK(rules_error("categories:\n  docs: ['a/**']\n  docs: ['b/**']\nfilters:\n  d:\n    category: docs\n"
                    "    category: docs\n") ==
        "2 errors in rules.yml:\n"
        "rules.yml:3:3: categories.docs: duplicate key 'docs' (first at line 2, column 3): give each key once\n"
        "rules.yml:7:5: filters.d.category: duplicate key 'category' (first at line 6, column 5): give each key once");
}

TEST_CASE("rules: shorthand lists, categories and the dialect override") {
  auto r = rules_of("filters:\n  web: ['*.{js,ts}']\n  docs:\n    category: docs\n");
  REQUIRE(r.filters.size() == 2);
  CHECK(r.filters[0].mode == Mode::allow);
  CHECK(r.filters[1].category == "docs");
  REQUIRE(r.warnings.size() == 1);  // braces are literal in the github dialect
  CHECK(r.warnings[0].line == 2);
  CHECK(r.warnings[0].column == 12);

  auto custom = rules_of("categories:\n  docs: ['manual/**']\nfilters:\n  docs:\n    category: docs\n");
  CHECK(custom.filters[0].paths.size() == 1);
  CHECK(custom.filters[0].paths[0].text == "manual/**");

  auto pico = load_rules_text("filters:\n  web: ['*.{js,ts}']\n", "x", glob::Dialect::picomatch);
  REQUIRE(pico);
  CHECK(pico->dialect == glob::Dialect::picomatch);
}

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

TEST_CASE("listing_from_pull: truncation and missing counts fail open") {
  github::PullRequest pr;
  pr.number = 7;
  std::vector<github::PullFile> files{{"a.py", "modified", ""}, {"b.py", "renamed", "old/b.py"}};
  pr.changed_files = 2;
  auto ok = listing_from_pull(pr, files);
  CHECK_FALSE(ok.fail_open);
  CHECK(ok.files[1].previous_path == "old/b.py");
  pr.changed_files = 5;
  CHECK(*listing_from_pull(pr, files).fail_open == "the API listed 2 of 5 changed files: the listing is incomplete");
  pr.changed_files = -1;
  CHECK(*listing_from_pull(pr, files).fail_open ==
        "the pull request's changed_files count is missing or not a number, so the listing of 2 files cannot be "
        "checked for truncation");
  std::vector<github::PullFile> many(3000, {"x", "modified", ""});
  pr.changed_files = 3000;
  CHECK(*listing_from_pull(pr, many).fail_open ==
        "the API lists at most 3000 files and returned 3000 (changed_files: 3000): the listing may be truncated");
  pr.changed_files = 0;
  CHECK(*listing_from_pull(pr, {}).fail_open == "the change lists no files (GitHub API, pull request #7)");
}

TEST_CASE("parse_path_list: newline or NUL separated, normalized") {
  auto lines = *parse_path_list("./a/b\r\n\n  c  \n/d\n");
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].path == "a/b");
  CHECK(lines[1].path == "c");
  CHECK(lines[2].path == "d");
  auto status = *parse_path_list("M\tsrc/a.py\nR087\told/k.cu\tnew/k.cu\nnot\ta status\n");
  REQUIRE(status.size() == 3);
  CHECK(status[0].path == "src/a.py");
  CHECK(status[1].path == "new/k.cu");
  CHECK(status[1].previous_path == "old/k.cu");
  CHECK(status[2].path == "not\ta status");
  auto nul = *parse_path_list(std::string("a b\0c\nd\0", 8));
  REQUIRE(nul.size() == 2);
  CHECK(nul[0].path == "a b");
  CHECK(nul[1].path == "c\nd");
}

TEST_CASE("parse_event: pull_request, merge_group, push and broken payloads") {
  auto pr = parse_event("pull_request",
                        R"({"number":12,"pull_request":{"number":12,"base":{"sha":"b1"},"head":{"sha":"h1"}},
                            "repository":{"full_name":"o/r"}})",
                        "");
  CHECK(pr.kind == EventKind::pull_request);
  CHECK(*pr.pr_number == 12);
  CHECK(pr.base_sha == "b1");
  CHECK(pr.repo == "o/r");
  CHECK(pr.problem.empty());
  auto mg = parse_event("merge_group", R"({"merge_group":{"base_sha":"b","head_sha":"h"}})", "o/r");
  CHECK(mg.kind == EventKind::merge_group);
  CHECK(mg.head_sha == "h");
  auto push = parse_event("push", R"({"before":"0000000000000000000000000000000000000000","after":"a"})", "o/r");
  CHECK(is_null_sha(push.base_sha));
  CHECK(parse_event("pull_request", "", "o/r").problem ==
        "the pull_request event payload (GITHUB_EVENT_PATH) is missing");
  CHECK(parse_event("pull_request", "[1]", "o/r").problem == "the pull_request event payload is not a JSON object");
  CHECK(parse_event("schedule", "", "").kind == EventKind::other);
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

// ---- the whole gate with fakes ---------------------------------------------------------

namespace {

// Answers GET /repos/o/r/pulls/1 and its /files from canned bodies; everything else 404.
class CannedTransport final : public github::HttpTransport {
 public:
  std::string pull_body;
  std::vector<std::string> pages;
  int fail_status = 0;  // answer every request with this status when set
  std::variant<github::HttpResponse, github::TransportError> send(const github::HttpRequest& request) override {
    github::HttpResponse r;
    r.headers.push_back({"content-type", "application/json; charset=utf-8"});
    if (fail_status != 0) {
      r.status = fail_status;
      r.body = R"({"message":"boom"})";
      return r;
    }
    const auto files_at = request.url.find("/pulls/1/files");
    if (files_at != std::string::npos) {
      std::size_t page = 1;
      if (auto p = request.url.find("&page="); p != std::string::npos) page = std::stoul(request.url.substr(p + 6));
      r.status = 200;
      r.body = pages.at(page - 1);
      if (page < pages.size())
        r.headers.push_back({"link", "<https://api.github.com/repos/o/r/pulls/1/files?per_page=100&page=" +
                                         std::to_string(page + 1) + ">; rel=\"next\""});
      return r;
    }
    if (request.url.find("/pulls/1") != std::string::npos) {
      r.status = 200;
      r.body = pull_body;
      return r;
    }
    r.status = 404;
    r.body = R"({"message":"Not Found"})";
    return r;
  }
};

struct GateRun {
  ExitCode code;
  RecordingWorkflow workflow;
};

GateRun run_with(const std::string& rules_text, CannedTransport* transport, const std::string& payload_file) {
  MapEnvironment env({{"GITHUB_EVENT_NAME", "pull_request"}, {"GITHUB_REPOSITORY", "o/r"},
                      {"GITHUB_TOKEN", "tok"}, {"GITHUB_EVENT_PATH", payload_file}});
  GateRun run{ExitCode::pass, {}};
  FakeProcessRunner runner([](const ProcessSpec&) -> Result<ProcessResult> { return make_error("no git here"); });
  FakeClock clock;
  std::istringstream in;
  std::ostringstream out;
  Context ctx{env, run.workflow, runner, clock,
              [transport]() -> std::unique_ptr<github::HttpTransport> {
                struct Forward final : github::HttpTransport {
                  CannedTransport* t;
                  explicit Forward(CannedTransport* x) : t(x) {}
                  std::variant<github::HttpResponse, github::TransportError> send(const github::HttpRequest& r) override {
                    return t->send(r);
                  }
                };
                return std::make_unique<Forward>(transport);
              },
              in, out};
  Options o;
  o.rules_text = rules_text;
  run.code = run_gate(o, ctx);
  return run;
}

}  // namespace

#include "temp_dir.hpp"
#include <fstream>

TEST_CASE("gate: a pull request listed through the API, renames included") {
  testing::TempDir tmp;
  const auto payload = (tmp / "event.json").string();
  std::ofstream(payload) << R"({"pull_request":{"number":1,"base":{"sha":"b"},"head":{"sha":"h"}}})";
  CannedTransport t;
  t.pull_body = R"({"number":1,"state":"open","changed_files":2,"head":{"sha":"h","ref":"f"},"base":{"sha":"b","ref":"main"}})";
  t.pages = {R"([{"filename":".github/ci.yml","status":"modified"}])",
             R"([{"filename":"docs/k.cu","status":"renamed","previous_filename":"src/kernels/k.cu"}])"};
  auto run = run_with(kRules, &t, payload);
  CHECK(run.code == ExitCode::pass);
  CHECK(run.workflow.outputs["gpu"] == "true");
  CHECK(run.workflow.outputs["cpu"] == "true");
  for (const auto& a : run.workflow.annotations) UNSCOPED_INFO(a.message);
  CHECK(run.workflow.annotations.empty());
  CHECK(run.workflow.masked == std::vector<std::string>{"tok"});
  CHECK(run.workflow.summary.find("| `gpu` | allow | ✅ runs | `src/kernels/k.cu` → `docs/k.cu` |") != std::string::npos);
}

TEST_CASE("gate: an API error fails open with a warning naming the cause") {
  testing::TempDir tmp;
  const auto payload = (tmp / "event.json").string();
  std::ofstream(payload) << R"({"pull_request":{"number":1}})";
  CannedTransport t;
  t.fail_status = 404;
  auto run = run_with(kRules, &t, payload);
  CHECK(run.code == ExitCode::pass);
  CHECK(run.workflow.outputs["cpu"] == "true");
  CHECK(run.workflow.outputs["gpu"] == "true");
  REQUIRE(run.workflow.annotations.size() == 1);
  CHECK(run.workflow.annotations[0].severity == Severity::warning);
  CHECK(run.workflow.annotations[0].message.rfind("fail-open: the GitHub API failed: GET ", 0) == 0);
}

TEST_CASE("gate: invalid rules stop with a usage error") {
  CannedTransport t;
  bool threw = false;
  try {
    (void)run_with("filters:\n  x: ['[']\n", &t, "");
  } catch (const ToolError& e) {
    threw = true;
    CHECK(e.code == ExitCode::usage_error);
    CHECK(e.message ==
          "1 error in filters input:\nfilters input:2:8: filters.x[0]: invalid pattern '[': '[' is not closed by ']' "
          "(hint: write '\\[' for a literal '[')");
  }
  CHECK(threw);
}
