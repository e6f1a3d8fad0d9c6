// The doctor's decision, table-driven: the workflow templates as shipped (workflows/*.yml) with
// rules that fit them pass; each row breaks one thing (a rule, a workflow line, a setting) and
// names the one finding it must give, with the rule each finding comes from
// (docs/doctor.md, "What it checks").
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "decide.hpp"
#include "gatekit/text.hpp"

using namespace gatekit;
using namespace gatekit::gatekit_doctor;

namespace {

std::string template_text(const std::string& name) {
  std::ifstream in(std::filesystem::path(GATEKIT_SOURCE_DIR) / "workflows" / name);
  REQUIRE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The three templates, each as `.github/workflows/<name>` with `edit` applied to its text.
struct Texts {
  std::string cpu = template_text("cpu-tests.yml");
  std::string gpu = template_text("gpu-tests.yml");
  std::string gate = template_text("gate.yml");
};

void edit(std::string& text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  if (at == std::string::npos) FAIL("the template no longer holds: " + from);
  text.replace(at, from.size(), to);
}

constexpr std::int64_t kApp = 4242;

Requirement rule(const std::string& context, std::optional<std::int64_t> app = kGitHubActionsApp) {
  return {context, app, "ruleset 7", "https://github.com/o/r/settings/rules/7"};
}

// What a repository set up as the docs say has: the templates, the aggregators and gate/gpu
// from the App required, strict mode with its environment limited to main.
Setup healthy(const Texts& texts) {
  Setup setup;
  setup.repository = "o/r";
  setup.branch = "main";
  setup.default_branch = "main";
  for (const auto& [name, text] : {std::pair{"cpu-tests.yml", &texts.cpu}, std::pair{"gpu-tests.yml", &texts.gpu},
                                   std::pair{"gate.yml", &texts.gate}}) {
    auto workflow = read_workflow(*text, std::string(".github/workflows/") + name);
    if (!workflow) FAIL(workflow.error().message);
    setup.workflows.push_back(std::move(*workflow));
  }
  setup.workflows_from = "test";
  setup.required = {rule("CPU tests"), rule("GPU tests"), rule("gate/gpu", kApp)};
  setup.gate_mode = "strict";
  setup.gate_mode_from = "the repository variable GATEKIT_GATE_MODE is not set";
  setup.variables["GATEKIT_GATE_MODE"] = std::nullopt;
  setup.app_id = kApp;
  EnvironmentFacts env;
  env.exists = true;
  env.branches = github::DeploymentBranches::custom;
  env.policies = {{1, "main", "branch"}};
  env.variables = std::set<std::string>{"GATEKIT_GATE_APP_CLIENT_ID"};
  env.secrets = std::set<std::string>{"GATEKIT_GATE_APP_KEY"};
  setup.environments["gatekit-gate"] = env;
  return setup;
}

std::vector<std::string> kinds(const Report& report) {
  std::vector<std::string> out;
  for (const auto& f : report.findings) out.push_back(std::string(to_string(f.kind)) + " " + f.check);
  return out;
}

struct Row {
  std::string title;
  std::function<void(Texts&)> workflows;  // edits to the templates' text
  std::function<void(Setup&)> settings;   // edits to what was read
  std::vector<std::string> findings;      // "kind check", in order
};

}  // namespace

TEST_CASE("decide: the templates with the rules the docs give have no finding") {
  Texts texts;
  const auto report = decide(healthy(texts));
  INFO(join(kinds(report), "\n"));
  CHECK(report.findings.empty());
  CHECK(report.exit_code() == ExitCode::pass);
  REQUIRE(report.checks.size() == 3);
  CHECK(report.checks[0].produced_by == "cpu-tests.yml: cpu-tests");
  CHECK(report.checks[1].produced_by == "gpu-tests.yml: gpu-aggregate");
  CHECK(report.checks[2].produced_by == "gate.yml: post");
  CHECK(report.checks[2].source == "app 4242");
}

TEST_CASE("decide: each broken part gives its one finding, table-driven") {
  auto none = [](auto&) {};
  const std::vector<Row> rows = {
      // 1. required checks that no workflow reports on a pull request
      {"a typo in a required check's name", none,
       [](Setup& s) { s.required[0] = rule("CPU test"); }, {"not-produced CPU test"}},
      {"a matrix leg whose unquoted version GitHub reads as a number",
       [](Texts& t) { edit(t.cpu, "python: ['3.10', '3.11', '3.12']", "python: [3.10, 3.11, 3.12]"); },
       [](Setup& s) { s.required.push_back(rule("pytest (CPU, py3.10)")); },
       {"not-produced pytest (CPU, py3.10)"}},
      {"a renamed job", [](Texts& t) { edit(t.cpu, "    name: CPU tests\n", "    name: CPU suite\n"); }, none,
       {"not-produced CPU tests"}},
      {"a paths: filter on the workflow",
       [](Texts& t) { edit(t.cpu, "on:\n  pull_request:\n", "on:\n  pull_request:\n    paths: ['src/**']\n"); }, none,
       {"not-produced CPU tests"}},
      {"paths-ignore: the same", [](Texts& t) {
         edit(t.cpu, "on:\n  pull_request:\n", "on:\n  pull_request:\n    paths-ignore: ['docs/**']\n");
       }, none, {"not-produced CPU tests"}},
      {"a branches: filter that leaves out the branch",
       [](Texts& t) { edit(t.gpu, "on:\n  pull_request:\n", "on:\n  pull_request:\n    branches: [release/**]\n"); },
       none, {"not-produced GPU tests"}},
      {"a branches: filter that includes it is fine",
       [](Texts& t) { edit(t.gpu, "on:\n  pull_request:\n", "on:\n  pull_request:\n    branches: [main, 'release/**']\n"); },
       none, {}},
      {"branches-ignore that matches the branch",
       [](Texts& t) { edit(t.gpu, "on:\n  pull_request:\n", "on:\n  pull_request:\n    branches-ignore: ['ma*']\n"); },
       none, {"not-produced GPU tests"}},
      {"types: without synchronize",
       [](Texts& t) { edit(t.cpu, "on:\n  pull_request:\n", "on:\n  pull_request:\n    types: [opened, reopened]\n"); },
       none, {"not-produced CPU tests"}},
      {"no pull_request trigger", [](Texts& t) { edit(t.cpu, "on:\n  pull_request:\n", "on:\n"); }, none,
       {"not-produced CPU tests"}},
      {"a job if: that is false on every pull request",
       [](Texts& t) { edit(t.cpu, "    needs: [changes, partition, tests]\n    if: always()\n",
                           "    needs: [changes, partition, tests]\n    if: github.event_name == 'push'\n"); },
       none, {"not-produced CPU tests"}},
      {"a job that needs a job never run on a pull request",
       [](Texts& t) { edit(t.cpu, "  changes:\n    name: path gate\n",
                           "  changes:\n    name: path gate\n    if: github.event_name == 'schedule'\n"); },
       [](Setup& s) { s.required.push_back(rule("test partition")); },
       {"not-produced test partition"}},
      // 2. a required check a path gate can skip, without an aggregator behind it
      {"a matrix leg behind the path gate", none,
       [](Setup& s) { s.required.push_back(rule("pytest (CPU, py3.10)")); }, {"skippable pytest (CPU, py3.10)"}},
      {"a gated job that is no matrix", none, [](Setup& s) { s.required.push_back(rule("test partition")); },
       {"skippable test partition"}},
      {"a matrix whose own if: can skip it, no path gate",
       [](Texts& t) { edit(t.cpu, "    if: needs.changes.outputs.cpu == 'true' || needs.changes.outputs.docs == 'true'\n",
                           "    if: github.event.pull_request.draft == false\n"); },
       [](Setup& s) { s.required.push_back(rule("pytest (CPU, py3.11)")); },
       {"skippable pytest (CPU, py3.11)"}},
      {"a job that needs a gated job, without a status function, is skipped with it",
       [](Texts& t) { edit(t.cpu, "  # The one required check", "  report:\n    needs: tests\n    runs-on: ubuntu-24.04\n"
                                                                   "    steps:\n      - run: echo\n\n  # The one required check"); },
       [](Setup& s) { s.required.push_back(rule("report")); }, {"skippable report", "aggregator-needs CPU tests"}},
      {"the path gate itself runs on every pull request", none, [](Setup& s) { s.required.push_back(rule("path gate")); },
       {}},
      // 3. a merge queue and no merge_group trigger
      {"a merge queue, and the CPU workflow does not run on merge_group",
       [](Texts& t) { edit(t.cpu, "  merge_group:\n", ""); }, [](Setup& s) { s.merge_queue_rules = {"ruleset 9"}; },
       {"merge-queue CPU tests"}},
      {"a merge queue, and every workflow runs on merge_group", none,
       [](Setup& s) { s.merge_queue_rules = {"ruleset 9"}; }, {}},
      {"no merge queue: merge_group does not matter", [](Texts& t) { edit(t.cpu, "  merge_group:\n", ""); }, none, {}},
      {"a merge queue, gate.yml's workflow_run sources without merge_group (strict)",
       [](Texts& t) {
         edit(t.cpu, "  merge_group:\n", "");
         edit(t.gpu, "  merge_group:\n", "");
       },
       [](Setup& s) { s.merge_queue_rules = {"ruleset 9"}; },
       {"merge-queue CPU tests", "merge-queue GPU tests", "merge-queue gate/gpu"}},
      // 4. gate/gpu: its source, strict mode's environment, the App
      {"strict: gate/gpu from any source", none, [](Setup& s) { s.required[2] = rule("gate/gpu", std::nullopt); },
       {"gate-source gate/gpu"}},
      {"strict: gate/gpu pinned to GitHub Actions", none, [](Setup& s) { s.required[2] = rule("gate/gpu"); },
       {"gate-source gate/gpu"}},
      {"strict: gate/gpu pinned to another App than --app-id", none,
       [](Setup& s) { s.required[2] = rule("gate/gpu", 99); }, {"gate-source gate/gpu"}},
      {"strict without --app-id: any App but GitHub Actions", none, [](Setup& s) { s.app_id.reset(); }, {}},
      {"pull-request mode: gate/gpu pinned to GitHub Actions", none,
       [](Setup& s) {
         s.gate_mode = "pull-request";
         s.variables["GATEKIT_GATE_MODE"] = "pull-request";
         s.required[2] = rule("gate/gpu");
       },
       {}},
      {"pull-request mode: gate/gpu pinned to the App", none,
       [](Setup& s) {
         s.gate_mode = "pull-request";
         s.variables["GATEKIT_GATE_MODE"] = "pull-request";
       },
       {"gate-source gate/gpu"}},
      {"strict: the environment lets every branch deploy", none,
       [](Setup& s) { s.environments["gatekit-gate"].branches = github::DeploymentBranches::all; },
       {"gate-environment gate/gpu"}},
      {"strict: the environment lets protected branches deploy", none,
       [](Setup& s) { s.environments["gatekit-gate"].branches = github::DeploymentBranches::protected_branches; },
       {"gate-environment gate/gpu"}},
      {"strict: the environment lets another pattern deploy", none,
       [](Setup& s) { s.environments["gatekit-gate"].policies.push_back({2, "release/*", "branch"}); },
       {"gate-environment gate/gpu"}},
      {"strict: the environment lets a tag deploy", none,
       [](Setup& s) { s.environments["gatekit-gate"].policies.push_back({2, "v*", "tag"}); },
       {"gate-environment gate/gpu"}},
      {"strict: the environment does not exist", none, [](Setup& s) { s.environments["gatekit-gate"] = {}; },
       {"gate-environment gate/gpu"}},
      {"strict: the post job names no environment",
       [](Texts& t) { edit(t.gate, "    environment: gatekit-gate\n", ""); }, none, {"gate-environment gate/gpu"}},
      {"strict: the App's key is no secret of the environment", none,
       [](Setup& s) { s.environments["gatekit-gate"].secrets = std::set<std::string>{}; }, {"gate-app gate/gpu"}},
      {"strict: the App's client ID set nowhere", none,
       [](Setup& s) {
         s.environments["gatekit-gate"].variables = std::set<std::string>{};
         s.variables["GATEKIT_GATE_APP_CLIENT_ID"] = std::nullopt;
       },
       {"gate-app gate/gpu"}},
      {"strict: the App's client ID a repository variable is fine", none,
       [](Setup& s) {
         s.environments["gatekit-gate"].variables = std::set<std::string>{};
         s.variables["GATEKIT_GATE_APP_CLIENT_ID"] = "Iv1";
       },
       {}},
      {"strict: the post job mints no App token",
       [](Texts& t) {
         edit(t.gate, "      - id: app\n        uses: actions/create-github-app-token@", "      - id: app\n        uses: ./x/y@");
       },
       none, {"gate-app gate/gpu"}},
      {"strict: gate.yml's workflow_run names no workflow there is",
       [](Texts& t) { edit(t.gate, "workflows: [CPU tests, GPU tests]", "workflows: [CPU, GPU]"); }, none,
       {"not-produced gate/gpu"}},
      {"strict: one of the names is enough",
       [](Texts& t) { edit(t.gate, "workflows: [CPU tests, GPU tests]", "workflows: [CPU tests, GPU]"); }, none, {}},
      {"no workflow posts gate/gpu, and it is required",
       [](Texts& t) { t.gate = replace_all(t.gate, "uses: ./actions/gpu-gate-status", "uses: ./actions/other"); }, none,
       {"not-produced gate/gpu"}},
      {"a workflow posts gate/gpu and no rule requires it", none, [](Setup& s) { s.required.pop_back(); },
       {"gate-not-required gate/gpu"}},
      // 5. aggregators that do not cover every leg
      {"an aggregator that does not need a gated leg",
       [](Texts& t) { edit(t.gpu, "    needs: [changes, gpu-tests, gpu-suite, workload-regression]\n",
                           "    needs: [changes, gpu-tests, gpu-suite]\n"); },
       none, {"aggregator-needs GPU tests"}},
      {"an aggregator whose gated: leaves out a leg it needs",
       [](Texts& t) { edit(t.cpu, "gated: partition=cpu,tests=cpu", "gated: tests=cpu"); }, none,
       {"aggregator-needs CPU tests"}},
      {"an aggregator that does not need its gate job",
       [](Texts& t) { edit(t.cpu, "    needs: [changes, partition, tests]\n", "    needs: [partition, tests]\n"); },
       none, {"aggregator-needs CPU tests"}},
      // a workflow's check pinned to another App never counts; another App's check is not the doctor's
      {"a workflow's check pinned to another App", none, [](Setup& s) { s.required[0] = rule("CPU tests", 99); },
       {"check-source CPU tests"}},
      {"a check another App posts", none, [](Setup& s) { s.required.push_back(rule("codecov/patch", 254)); }, {}},
      {"a check nobody reports, from any source", none,
       [](Setup& s) { s.required.push_back(rule("ci/circleci", std::nullopt)); }, {"not-produced ci/circleci"}},
  };
  for (const auto& row : rows) {
    INFO(row.title);
    Texts texts;
    row.workflows(texts);
    auto setup = healthy(texts);
    row.settings(setup);
    const auto report = decide(setup);
    INFO(join([&] {
      std::vector<std::string> lines;
      for (const auto& f : report.findings) lines.push_back(f.problem + " | " + f.fix);
      return lines;
    }(), "\n"));
    CHECK(kinds(report) == row.findings);
    CHECK(report.exit_code() == (row.findings.empty() ? ExitCode::pass : ExitCode::verdict_fail));
  }
}

TEST_CASE("decide: each finding says what is wrong and the exact fix") {
  Texts texts;
  auto setup = healthy(texts);
  setup.required[0] = rule("CPU test");
  setup.required.push_back(rule("pytest (CPU, py3.10)"));
  setup.required[2] = rule("gate/gpu");
  setup.environments["gatekit-gate"].branches = github::DeploymentBranches::all;
  const auto report = decide(setup);
  REQUIRE(report.findings.size() == 4);
  const auto& typo = report.findings[0];
  CHECK(typo.problem ==
        "no job of a workflow that runs on pull requests reports \"CPU test\": every pull request waits for it "
        "(\"Expected - waiting for status to be reported\"); a job reports \"CPU tests\"");
  CHECK(typo.fix ==
        "rename the required check \"CPU test\" to \"CPU tests\" in ruleset 7 (https://github.com/o/r/settings/rules/7)");
  const auto& source = report.findings[1];
  CHECK(source.kind == Kind::gate_source);
  CHECK(source.problem ==
        "\"gate/gpu\" in ruleset 7 is pinned to GitHub Actions: in strict mode a pull request that edits the workflow "
        "posts success from its own run (strict mode, the repository variable GATEKIT_GATE_MODE is not set)");
  CHECK(source.fix ==
        "choose the gate's App (app 4242) as the source of \"gate/gpu\" in ruleset 7 (https://github.com/o/r/settings/rules/7)");
  const auto& environment = report.findings[2];
  CHECK(environment.problem ==
        "the environment \"gatekit-gate\" (strict mode's key) lets every branch deploy, so a run of any branch (a pull "
        "request's own) can read the App's key");
  CHECK(environment.fix ==
        "Settings → Environments → gatekit-gate → Deployment branches and tags: choose \"Selected branches and tags\" "
        "and add main only (https://github.com/o/r/settings/environments)");
  const auto& leg = report.findings[3];
  CHECK(leg.problem ==
        "\"pytest (CPU, py3.10)\": its job tests is a matrix the path gate can skip, and a skipped matrix never "
        "reports its legs: pull requests wait for it forever");
  CHECK(leg.fix ==
        "require \"CPU tests\" (job cpu-tests of cpu-tests.yml, which needs tests) instead of \"pytest (CPU, py3.10)\" "
        "in ruleset 7 (https://github.com/o/r/settings/rules/7)");
}

TEST_CASE("decide: what could not be read makes the verdict 'could not evaluate', never a pass") {
  Texts texts;
  auto setup = healthy(texts);
  setup.gaps.push_back({"the branch protection of main", "HTTP 403", "Administration: read"});
  CHECK(decide(setup).exit_code() == ExitCode::could_not_evaluate);
  setup.required[0] = rule("CPU test");
  CHECK(decide(setup).exit_code() == ExitCode::could_not_evaluate);  // worst of fail and 3
  setup.gaps.clear();
  setup.required[0] = rule("CPU tests");
  setup.gate_mode.reset();  // the mode not known: gate/gpu is not judged (gather adds the gap that says why)
  const auto report = decide(setup);
  REQUIRE(report.checks.size() == 3);
  CHECK_FALSE(report.checks[2].ok);
  CHECK(report.findings.empty());
}

TEST_CASE("decide: what the gate's settings the doctor reads, from the workflows") {
  Texts texts;
  const auto setup = healthy(texts);
  const auto strict = gate_reads(setup.workflows, std::string("strict"));
  CHECK(strict.gate_workflow);
  CHECK(strict.context == "gate/gpu");
  CHECK(strict.environments == std::vector<std::string>{"gatekit-gate"});
  CHECK(strict.variables == std::vector<std::string>{"GATEKIT_GATE_APP_CLIENT_ID"});
  CHECK(strict.secrets == std::vector<std::string>{"GATEKIT_GATE_APP_KEY"});
  const auto pull_request = gate_reads(setup.workflows, std::string("pull-request"));
  CHECK(pull_request.gate_workflow);
  CHECK(pull_request.environments.empty());
}
