// Which tests a pass leaves out (markers.hpp): the expression from the selection file or the
// configuration, how it reaches the command, and the configuration's -m refusal.
#include "catch.hpp"
#include "config.hpp"
#include "run/markers.hpp"

using namespace gatekit;
using namespace gatekit::gpu_gate;

namespace {

selection::Selection selection_of(const std::string& text) {
  auto s = selection::load_selection_text(text, "suite.yml");
  if (!s) FAIL(s.error().message);
  return std::move(*s);
}

const std::string kLegs = "version: 1\nlegs:\n  cpu: {markers: not gpu}\n  gpu: {markers: gpu, device: gpu}\n";

}  // namespace

TEST_CASE("markers: the gate leaves the nightly tests out, the full run takes every test") {
  struct Case {
    std::string name;
    std::string selection;  // "" = no selection file
    bool full;
    std::string expression;
    bool leaves_out;
  };
  const std::vector<Case> cases{
      {"no file, gate", "", false, "not nightly", true},
      {"no file, full", "", true, "nightly or not nightly", false},
      {"default contexts, gate", kLegs, false, "not nightly", true},
      {"default contexts, full", kLegs, true, "nightly or not nightly", false},
      {"own marker, gate", kLegs + "nightly-marker: slow\n", false, "not slow", true},
      {"gate among the contexts", kLegs + "nightly-contexts: [daily, gate, gate-full]\n", false, "nightly or not nightly", false},
      {"gate-full not among them", kLegs + "nightly-contexts: [daily]\n", true, "not nightly", true},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    const auto config = default_config();
    std::optional<selection::Selection> s;
    if (!c.selection.empty()) s = selection_of(c.selection);
    const auto markers = pass_markers(config, s ? &*s : nullptr, c.full);
    REQUIRE(markers.ok());
    CHECK(markers->expression == c.expression);
    CHECK(markers->leaves_out == c.leaves_out);
  }
}

TEST_CASE("markers: the configuration's nightly_marker without a file; refused when it differs from the file's") {
  auto config = parse_config("nightly_marker: slow\n", "gate.yml");
  REQUIRE(config.ok());
  CHECK(pass_markers(*config, nullptr, false)->expression == "not slow");
  const auto same = selection_of(kLegs + "nightly-marker: slow\n");
  CHECK(pass_markers(*config, &same, false)->expression == "not slow");
  const auto other = selection_of(kLegs);
  const auto refused = pass_markers(*config, &other, false);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().kind == ErrorKind::bad_input);
  CHECK(refused.error().message ==
        "gate.yml:1:17: nightly_marker: 'slow' differs from nightly-marker 'nightly' in suite.yml, which gpu-gate reads "
        "too: remove nightly_marker (the selection file decides)");
}

TEST_CASE("markers: {markers} takes the expression; else a pytest command gets -m appended, any other nothing") {
  struct Case {
    std::vector<std::string> command;
    std::vector<std::string> expected;
    bool reached;
  };
  const std::vector<Case> cases{
      {{"python", "-m", "pytest", "{tests}"}, {"python", "-m", "pytest", "{tests}", "-m", "not nightly"}, true},
      {{"/venv/bin/pytest", "{tests}"}, {"/venv/bin/pytest", "{tests}", "-m", "not nightly"}, true},
      {{"pytest", "-m", "({markers}) and gpu", "{tests}"}, {"pytest", "-m", "(not nightly) and gpu", "{tests}"}, true},
      {{"make", "test", "MARKERS={markers}"}, {"make", "test", "MARKERS=not nightly"}, true},
      {{"make", "test"}, {"make", "test"}, false},
  };
  for (const auto& c : cases) {
    bool reached = false;
    CHECK(apply_markers(c.command, "not nightly", &reached) == c.expected);
    CHECK(reached == c.reached);
  }
}

TEST_CASE("markers: pytest's own -m is found after the pytest program, never Python's") {
  CHECK(pytest_marker_option({"python", "-m", "pytest", "{tests}"}) == std::string::npos);
  CHECK(pytest_marker_option({"python", "-m", "pytest", "-m", "gpu", "{tests}"}) == 3);
  CHECK(pytest_marker_option({"pytest", "-mgpu"}) == 1);
  CHECK(pytest_marker_option({"make", "-m", "x"}) == std::string::npos);
  // The configuration refuses a pytest -m without {markers}: the appended one would replace it.
  auto config = parse_config("command: [python, -m, pytest, -m, gpu, '--junitxml={junit}', '{tests}']\n", "gate.yml");
  REQUIRE_FALSE(config.ok());
  CHECK(config.error().message ==
        "1 error in gate.yml:\ngate.yml:1:31: command[3]: pytest reads only its last -m, and gpu-gate appends one (the "
        "nightly rule): put {markers} in the expression, e.g. -m, \"({markers}) and gpu\"");
  CHECK(parse_config("command: [pytest, -m, '({markers}) and gpu', '--junitxml={junit}', '{tests}']\n", "gate.yml").ok());
}

TEST_CASE("markers: the selection key names a path in the repository") {
  auto config = parse_config("selection: ci/suite.yml\n", "gate.yml");
  REQUIRE(config.ok());
  CHECK(config->selection == "ci/suite.yml");
  CHECK(config->selection_at == "gate.yml:1:12");
  CHECK(default_config().selection == ".github/gatekit/suite.yml");
  CHECK(default_config().selection_at.empty());
  auto bad = parse_config("selection: /etc/suite.yml\n", "gate.yml");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message == "1 error in gate.yml:\ngate.yml:1:12: selection: must be a path inside the repository (the selection file): it is an absolute path");
}
