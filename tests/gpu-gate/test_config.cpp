// The gate's configuration: defaults, every key, and every error located and reported together.
#include <algorithm>
#include <string>
#include <vector>

#include "catch.hpp"
#include "common.hpp"
#include "config.hpp"
#include "run/full.hpp"
#include "run/run_plan.hpp"
#include "gatekit/fake_context.hpp"
#include "gatekit/files.hpp"

using namespace gatekit;
using namespace gatekit::gpu_gate;

TEST_CASE("no file at the default path gives the defaults; a named file must exist") {
  MemoryFiles files;
  auto config = load_config(files, ".github/gatekit/gpu-gate.yml", false);
  REQUIRE(config.ok());
  CHECK(config->workers == 0);  // not set: load_gate_config puts in the machine's CPUs
  CHECK(config->namespace_ == "gatekit-gate");
  CHECK(config->expiry == std::chrono::hours(24 * 28));
  CHECK(config->clock_skew == std::chrono::minutes(5));
  CHECK_FALSE(config->cpu_gate);
  CHECK(config->command == std::vector<std::string>{"python", "-m", "pytest", "-n", "{workers}", "--junitxml={junit}", "{tests}"});
  CHECK_FALSE(config->docs_patterns.empty());
  auto missing = load_config(files, "gate.yml", true);
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().kind == ErrorKind::bad_input);
  CHECK(missing.error().message.starts_with("cannot read gate.yml: "));
}

TEST_CASE("every key is read") {
  auto config = parse_config(R"(command: [pytest, -p, xdist, -n, "{workers}", "--junitxml={junit}", "{tests}"]
workers: 4
scope:
  folders: [tests/gpu]
  modules: [torch, tinyml.kernels]
  extras: [tests/test_io.py]
nightly_marker: slow
namespace: team-gate
expiry_days: 14
clock_skew_minutes: 2
cpu_gate: true
docs: ["docs/**", "**.md"]
concurrency: ["src/stream/**"]
stress_repeats: 5
signing:
  sign: true
  allowed_signers: .github/allowed_signers
  revoked_keys: .github/revoked_keys
test_map: build/map.json
)", "gate.yml");
  REQUIRE(config.ok());
  CHECK(config->command.front() == "pytest");
  CHECK(config->workers == 4);
  CHECK(config->scope_folders == std::vector<std::string>{"tests/gpu"});
  CHECK(config->modules == std::vector<std::string>{"torch", "tinyml.kernels"});
  CHECK(config->extras == std::vector<std::string>{"tests/test_io.py"});
  CHECK(config->nightly_marker == "slow");
  CHECK(config->namespace_ == "team-gate");
  CHECK(config->expiry == std::chrono::hours(24 * 14));
  CHECK(config->clock_skew == std::chrono::minutes(2));
  CHECK(config->cpu_gate);
  CHECK(config->docs_patterns == std::vector<std::string>{"docs/**", "**.md"});
  CHECK(config->concurrency_patterns == std::vector<std::string>{"src/stream/**"});
  CHECK(config->stress_repeats == 5);
  CHECK(config->sign);
  CHECK(config->allowed_signers == ".github/allowed_signers");
  CHECK(config->revoked_keys == ".github/revoked_keys");
  CHECK(config->test_map == "build/map.json");
  CHECK(config->source == "gate.yml");
}

TEST_CASE("every error is reported at once, each with file, line, column and field") {
  auto config = parse_config(R"(command: [pytest, "{threads}"]
workers: 0
namespace: a-mine
scope:
  folder: [tests]
expiry_days: "28"
docs: ["[z-a]"]
signing: yes
nightly_marker: "not a marker"
colour: red
)", "gate.yml");
  REQUIRE_FALSE(config.ok());
  CHECK(config.error().kind == ErrorKind::bad_input);
  CHECK(config.error().message ==
        "11 errors in gate.yml:\n"
        "gate.yml:1:10: command: must hold {tests} (the tests to run)\n"
        "gate.yml:1:10: command: must hold {junit} (the JUnit report the gate reads its counts from)\n"
        "gate.yml:1:19: command[1]: unknown placeholder {threads} (known: {workers} {tests} {junit} {markers})\n"
        "gate.yml:2:10: workers: must be from 1 to 1024, got 0\n"
        "gate.yml:3:12: namespace: the namespace 'a-mine' must not end in '-mine' (refs/<namespace>-mine/ holds this machine's results)\n"
        "gate.yml:5:3: scope.folder: unknown key 'folder' (did you mean 'folders'?)\n"
        "gate.yml:6:14: expiry_days: expected an integer, got the string \"28\" (remove the quotes)\n"
        "gate.yml:7:8: docs[0]: reversed range 'z-a' in brackets\n"
        "gate.yml:8:10: signing: expected a map with sign, allowed_signers, revoked_keys, got 'yes'\n"
        "gate.yml:9:17: nightly_marker: must be a pytest marker name (letters, digits, _)\n"
        "gate.yml:10:1: colour: unknown key 'colour' (allowed: command, workers, scope, nightly_marker, namespace, "
        "expiry_days, clock_skew_minutes, cpu_gate, docs, concurrency, stress_repeats, signing, test_map, selection, "
        "trusted_bases, gpu_filter)");
}

TEST_CASE("gpu_filter: false, or the path gate's rules file and filter, each bad value named") {
  auto defaults = value_or_throw(parse_config("", "gate.yml"));
  CHECK(defaults.gpu_filter.enabled);
  CHECK(defaults.gpu_filter.rules == ".github/gatekit/filters.yml");
  CHECK(defaults.gpu_filter.filter == "gpu");
  CHECK(defaults.gpu_filter.at.empty());
  auto off = value_or_throw(parse_config("gpu_filter: false\n", "gate.yml"));
  CHECK_FALSE(off.gpu_filter.enabled);
  auto named = value_or_throw(parse_config(
      "gpu_filter:\n  rules: ci/paths.yml\n  filter: gpu-suite\n  dialect: picomatch\n  predicate-quantifier: every\n",
      "gate.yml"));
  CHECK(named.gpu_filter.enabled);
  CHECK(named.gpu_filter.rules == "ci/paths.yml");
  CHECK(named.gpu_filter.filter == "gpu-suite");
  CHECK(named.gpu_filter.dialect == "picomatch");
  CHECK(named.gpu_filter.quantifier == "every");
  CHECK(named.gpu_filter.at == "gate.yml:1:1");
  auto bad = parse_config(R"(gpu_filter:
  rules: ../outside.yml
  filter: ""
  dialect: bash
  predicate-quantifier: most
  filters: gpu
)", "gate.yml");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message ==
        "5 errors in gate.yml:\n"
        "gate.yml:2:10: gpu_filter.rules: must be a path inside the repository (the path gate's rules file): it "
        "leaves the repository ('..')\n"
        "gate.yml:3:11: gpu_filter.filter: must name a filter of the rules file\n"
        "gate.yml:4:12: gpu_filter.dialect: expected github or picomatch, got 'bash'\n"
        "gate.yml:5:25: gpu_filter.predicate-quantifier: expected some or every, got 'most'\n"
        "gate.yml:6:3: gpu_filter.filters: unknown key 'filters' (did you mean 'filter'?)");
  auto on = parse_config("gpu_filter: true\n", "gate.yml");
  REQUIRE_FALSE(on.ok());
  CHECK(on.error().message == "1 error in gate.yml:\ngate.yml:1:13: gpu_filter: expected false or a map with rules, filter, got true");
}

TEST_CASE("the old spelling {paths} still reads, as {tests}, with a deprecation warning") {
  auto config = parse_config("command: [pytest, '--junitxml={junit}', '{paths}', '{paths}']\n", "gate.yml");
  REQUIRE(config);
  CHECK(config->command == std::vector<std::string>{"pytest", "--junitxml={junit}", "{tests}", "{tests}"});
  CHECK(config->old_spellings == std::vector<std::string>{"{paths}"});
  CHECK(parse_config("command: [pytest, '--junitxml={junit}', 'x{paths}']\n", "gate.yml").error().message ==
        "2 errors in gate.yml:\n"
        "gate.yml:1:10: command: must hold {tests} (the tests to run)\n"
        "gate.yml:1:41: command[2]: {tests} must be a word of its own (it becomes one word per test)");

  FakeSeams seams;
  seams.files.files["repo/.github/gatekit/gpu-gate.yml"] = "command: [pytest, '--junitxml={junit}', '{paths}']\n";
  auto context = seams.context();
  const auto loaded = load_gate_config(context, "repo", "");
  CHECK(loaded.command == std::vector<std::string>{"pytest", "--junitxml={junit}", "{tests}"});
  REQUIRE(seams.workflow.annotations.size() == 1);
  CHECK(seams.workflow.annotations[0].severity == Severity::warning);
  CHECK(seams.workflow.annotations[0].message ==
        "repo/.github/gatekit/gpu-gate.yml: command: {paths} is the old spelling of {tests}: write {tests} (the old "
        "one will be removed)");

  FakeSeams current;
  current.files.files["repo/.github/gatekit/gpu-gate.yml"] = "command: [pytest, '--junitxml={junit}', '{tests}']\n";
  auto context2 = current.context();
  (void)load_gate_config(context2, "repo", "");
  CHECK(current.workflow.annotations.empty());
}

// Issue 43: 8 workers on a 2-core machine ran a suite in 16.9 s, 2 in 6.2 s. Unset, `workers`
// is the CPUs the Environment seam counts (the process's affinity mask on Linux); the file's
// value and then -n win over it.
TEST_CASE("workers default to the machine's CPUs, through the environment seam") {
  const std::string path = "repo/.github/gatekit/gpu-gate.yml";
  const std::string command = "command: [pytest, -n, '{workers}', '--junitxml={junit}', '{tests}']\n";
  struct Row {
    std::string file;  // "" = no configuration file
    int cpus;
    int option;  // -n, 0 = not given
    int workers;
  };
  const std::vector<Row> rows = {
      {"", 2, 0, 2},           {"", 16, 0, 16},          {command, 1, 0, 1},   {"", 4096, 0, 1024},
      {command + "workers: 6\n", 2, 0, 6}, {command + "workers: 6\n", 2, 3, 3}, {"", 2, 5, 5},
  };
  for (const auto& row : rows) {
    INFO("file=" << row.file << " cpus=" << row.cpus << " -n " << row.option);
    FakeSeams seams;
    seams.env.cpus = row.cpus;
    if (!row.file.empty()) seams.files.files[path] = row.file;
    auto context = seams.context();
    const auto config = load_gate_config(context, "repo", "");
    RunOptions options;
    options.workers = row.option;
    const RunPlan plan = plan_run(options, config);
    CHECK(plan.workers == row.workers);
    const auto argv = full_command(config, plan.workers, "/tmp/j.xml", Device::gpu);
    const auto n = std::find(argv.begin(), argv.end(), "-n");
    REQUIRE(n + 1 < argv.end());
    CHECK(*(n + 1) == std::to_string(row.workers));
  }
}

TEST_CASE("trusted_bases: branch names only, each bad one named") {
  auto config = parse_config("trusted_bases: [release/1.x, stable]\n", "gate.yml");
  REQUIRE(config.ok());
  CHECK(config->trusted_bases == std::vector<std::string>{"release/1.x", "stable"});
  CHECK(default_config().trusted_bases.empty());
  struct Row {
    std::string value, shown;
  };
  for (const auto& row : std::vector<Row>{{"refs/heads/main", "'refs/heads/main'"},
                                          {"-x", "'-x'"},
                                          {"a..b", "'a..b'"},
                                          {"rel*", "'rel*'"},
                                          {"v1~2", "'v1~2'"},
                                          {std::string(40, 'a'), "'" + std::string(40, 'a') + "'"}}) {
    INFO(row.value);
    auto bad = parse_config("trusted_bases: [ok, '" + row.value + "']\n", "gate.yml");
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().message == "1 error in gate.yml:\ngate.yml:1:21: trusted_bases[1]: must be a branch name such as "
                                 "release/1.x (no refs/heads/ prefix), got " + row.shown);
  }
  CHECK(parse_config("trusted_bases: main\n", "gate.yml").error().message.find("trusted_bases") != std::string::npos);
}
