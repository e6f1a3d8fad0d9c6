#include <string>

#include "catch.hpp"
#include "gatekit/files.hpp"
#include "manifest.hpp"

using namespace gatekit::smoke_runner;
using namespace std::chrono_literals;

namespace {
std::string errors_of(const std::string& yaml) {
  auto m = load_manifest_text(yaml, "m.yaml");
  REQUIRE_FALSE(m.ok());
  CHECK(m.error().kind == gatekit::ErrorKind::bad_input);
  return m.error().message;
}
}  // namespace

TEST_CASE("a manifest with every key loads; defaults fill the rest") {
  auto m = load_manifest_text(R"(defaults:
  timeout: 5m
  kill_grace: 3
  env: {A: one, N: 2}
smokes:
  - name: gpu_smoke
    command: [python, -m, tinyml.smoke, --steps, 3, true]
    pr: true
  - name: race.smoke-2
    command: [sh, -c, "exit 0"]
    min_gpus: 2
    timeout: 90
    kill_grace: 1.5s
    env: {N: 3, B: "x y"}
    cwd: sub/dir
)", "m.yaml");
  REQUIRE(m.ok());
  REQUIRE(m->smokes.size() == 2);
  const auto& a = m->smokes[0];
  CHECK(a.name == "gpu_smoke");
  CHECK(a.command == std::vector<std::string>{"python", "-m", "tinyml.smoke", "--steps", "3", "true"});
  CHECK(a.min_gpus == 1);
  CHECK(a.pr);
  CHECK(a.timeout == 5min);
  CHECK(a.kill_grace == 3s);
  CHECK(a.env == std::map<std::string, std::string>{{"A", "one"}, {"N", "2"}});
  CHECK(a.cwd.empty());
  CHECK(a.line == 6);
  const auto& b = m->smokes[1];
  CHECK(b.min_gpus == 2);
  CHECK_FALSE(b.pr);
  CHECK(b.timeout == 90s);
  CHECK(b.kill_grace == 1500ms);
  CHECK(b.env == std::map<std::string, std::string>{{"A", "one"}, {"N", "3"}, {"B", "x y"}});
  CHECK(b.cwd == "sub/dir");
}

TEST_CASE("without defaults a smoke gets 30 minutes and a 10 second grace") {
  auto m = load_manifest_text("smokes:\n  - {name: a, command: [true]}\n", "m.yaml");
  REQUIRE(m.ok());
  CHECK(m->smokes[0].timeout == 30min);
  CHECK(m->smokes[0].kill_grace == 10s);
}

TEST_CASE("every problem in a manifest is reported at once, with line and column") {
  const std::string yaml = R"(smokes:
  - name: gpu_smoke
    command: [python, -m, x]
    min_gpus: true
    pr: "false"
    timeot: 30
  - name: gpu_smoke
    command: python -m x
  - name: bad name
    command: []
    min_gpus: 0
    timeout: soon
  - command: [x]
    env: {CUDA_VISIBLE_DEVICES: "0", 1BAD: x}
  - just a string
extra: 1
)";
  CHECK(errors_of(yaml) ==
        "14 errors in m.yaml:\n"
        "m.yaml:4:15: smokes[0].min_gpus: expected an integer, got true (a boolean)\n"
        "m.yaml:5:9: smokes[0].pr: expected true or false, got the string \"false\" (remove the quotes)\n"
        "m.yaml:6:5: smokes[0].timeot: unknown key 'timeot' (did you mean 'timeout'?)\n"
        "m.yaml:7:11: smokes[1].name: duplicate name 'gpu_smoke' (first used by smokes[0] on line 2)\n"
        "m.yaml:8:14: smokes[1].command: expected a list (argv, run without a shell), got 'python -m x'; write it as [program, arg, ...]\n"
        "m.yaml:9:11: smokes[2].name: 'bad name' is not a valid name: use letters, digits, '.', '_' and '-', starting with a letter or digit (at most 100)\n"
        "m.yaml:10:14: smokes[2].command: must name a program: the list is empty\n"
        "m.yaml:11:15: smokes[2].min_gpus: must be between 1 and 1024, got 0\n"
        "m.yaml:12:14: smokes[2].timeout: expected a duration in seconds (90) or with a unit (90s, 5m, 1h30m), got 'soon'\n"
        "m.yaml:13:5: smokes[3]: missing required key 'name'\n"
        "m.yaml:14:11: smokes[3].env.CUDA_VISIBLE_DEVICES: is set by smoke-runner from the GPUs it assigns to the smoke; remove it (ask for GPUs with min_gpus)\n"
        "m.yaml:14:38: smokes[3].env: '1BAD' is not a valid environment variable name\n"
        "m.yaml:15:5: smokes[4]: expected a map with name and command, got 'just a string'\n"
        "m.yaml:16:1: extra: unknown key 'extra' (allowed: smokes, defaults)");
}

TEST_CASE("a key given twice in any map of a manifest is an error, all of them at once") {
  // Without the check the later `command` would silently replace the first one, and a
  // repeated env name would be set from whichever entry yaml-cpp iterates last.
  CHECK(errors_of("defaults: {timeout: 5m, timeout: 1s}\n"
                  "smokes:\n"
                  "  - name: a\n"
                  "    command: [safe]\n"
                  "    command: [rm, -rf, x]\n"
                  "    env: {A: 1, B: 2, A: 3}\n") ==
        "3 errors in m.yaml:\n"
        "m.yaml:1:25: defaults.timeout: duplicate key 'timeout' (first at line 1, column 12): give each key once\n"
        "m.yaml:5:5: smokes[0].command: duplicate key 'command' (first at line 4, column 5): give each key once\n"
        "m.yaml:6:23: smokes[0].env.A: duplicate key 'A' (first at line 6, column 11): give each key once");
}

TEST_CASE("document-level problems") {
  struct Case {
    const char* yaml;
    const char* message;
  };
  const Case cases[] = {
      {"", "1 error in m.yaml:\nm.yaml:1:1: expected a map with a 'smokes:' list, got nothing"},
      {"- a\n", "1 error in m.yaml:\nm.yaml:1:1: expected a map with a 'smokes:' list, got a list"},
      {"defaults: {}\n", "1 error in m.yaml:\nm.yaml:1:1: missing required key 'smokes' (a list of smoke entries)"},
      {"smokes:\n", "1 error in m.yaml:\nm.yaml:1:1: smokes: expected a list of smoke entries, got nothing"},
      {"smokes: []\n", "1 error in m.yaml:\nm.yaml:1:9: smokes: the list is empty: add at least one smoke"},
      {"smokes: {a: 1}\n", "1 error in m.yaml:\nm.yaml:1:9: smokes: expected a list of smoke entries, got a map"},
      {"smokes:\n  - {name: a, command: [x]}\ndefaults: {timeout: 0, kill: 1}\n",
       "2 errors in m.yaml:\nm.yaml:3:21: defaults.timeout: must be more than 0 and at most 24h, got 0\n"
       "m.yaml:3:24: defaults.kill: unknown key 'kill' (allowed: timeout, kill_grace, env)"},
      {"smokes:\n  - {name: a, command: [x, ~]}\n", "1 error in m.yaml:\nm.yaml:2:28: smokes[0].command[1]: expected a string, got nothing"},
      {"smokes:\n  - {name: a, command: [x], pr: 1}\n", "1 error in m.yaml:\nm.yaml:2:33: smokes[0].pr: expected true or false, got '1'"},
      {"smokes:\n  - {name: a, command: [x], min_gpus: '2'}\n",
       "1 error in m.yaml:\nm.yaml:2:39: smokes[0].min_gpus: expected an integer, got the string \"2\" (remove the quotes)"},
      {"smokes:\n  - {name: a, command: [x], env: [A]}\n",
       "1 error in m.yaml:\nm.yaml:2:34: smokes[0].env: expected a map of NAME: value, got a list"},
      {"smokes:\n  - {name: a, command: [x], cwd: }\n", "1 error in m.yaml:\nm.yaml:2:29: smokes[0].cwd: expected a string, got nothing"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.yaml);
    CHECK(errors_of(c.yaml) == c.message);
  }
}

TEST_CASE("a YAML syntax error names the place") {
  CHECK(errors_of("smokes:\n  - name: [a\n").rfind("m.yaml:3:1: invalid YAML: end of sequence", 0) == 0);
}

TEST_CASE("durations with units") {
  CHECK(parse_duration_text("90s") == 90s);
  CHECK(parse_duration_text("5m") == 5min);
  CHECK(parse_duration_text("1h30m") == 90min);
  CHECK(parse_duration_text("1.5s") == 1500ms);
  CHECK(parse_duration_text("250ms") == 250ms);
  CHECK_FALSE(parse_duration_text("0s"));
  CHECK_FALSE(parse_duration_text("5"));
  CHECK_FALSE(parse_duration_text("5 m"));
  CHECK_FALSE(parse_duration_text("m"));
  CHECK_FALSE(parse_duration_text("-5s"));
}

TEST_CASE("smoke names are safe for files, logs and charts") {
  CHECK(valid_smoke_name("gpu_smoke"));
  CHECK(valid_smoke_name("a.b-c_9"));
  CHECK_FALSE(valid_smoke_name(""));
  CHECK_FALSE(valid_smoke_name("-x"));
  CHECK_FALSE(valid_smoke_name("a:b"));
  CHECK_FALSE(valid_smoke_name("a b"));
  CHECK_FALSE(valid_smoke_name(std::string(101, 'a')));
}

TEST_CASE("the manifest file is read through the Files seam") {
  gatekit::MemoryFiles files{{"ci/smokes.yaml", "smokes:\n  - name: one\n    command: [true]\n    pr: true\n"}};
  auto m = load_manifest_file(files, "ci/smokes.yaml");
  REQUIRE(m.ok());
  CHECK(m->path == "ci/smokes.yaml");
  REQUIRE(m->smokes.size() == 1);
  CHECK(m->smokes[0].name == "one");
}

TEST_CASE("a missing manifest file is a usage error naming it") {
  gatekit::SystemFiles files;
  auto m = load_manifest_file(files, "/nonexistent/smokes.yaml");
  REQUIRE_FALSE(m.ok());
  CHECK(m.error().kind == gatekit::ErrorKind::bad_input);
  CHECK(m.error().message == "/nonexistent/smokes.yaml: cannot read the smoke manifest (pass --manifest PATH)");
}
