// The selection file: loading, every validation error (collected, located, verbatim), and
// the expressions each leg gets per context.
#include "catch.hpp"
#include "gatekit/selection.hpp"

using namespace gatekit;
using namespace gatekit::selection;

namespace {

const std::string kValid = R"(version: 1
legs:
  cpu:
    markers: not gpu and not rocm
  gpu:
    device: gpu
    markers: gpu or rocm
    imports: [torch, tinyml.kernels]
docs:
  leg: cpu
  variant: '3.13'
  markers: docs
)";

Selection load(const std::string& text) {
  auto selection = load_selection_text(text, "suite.yml");
  if (!selection) FAIL(selection.error().message);
  return std::move(*selection);
}

std::string load_error(const std::string& text) {
  auto selection = load_selection_text(text, "suite.yml");
  if (selection) FAIL("the selection was accepted");
  CHECK(selection.error().kind == ErrorKind::bad_input);
  return selection.error().message;
}

}  // namespace

TEST_CASE("a valid selection file: legs in order, defaults for what it leaves out") {
  const auto s = load(kValid);
  REQUIRE(s.legs.size() == 2);
  CHECK(s.legs[0].name == "cpu");
  CHECK(s.legs[0].device == Device::cpu);
  CHECK(s.legs[1].device == Device::gpu);
  CHECK(s.legs[1].imports == std::vector<std::string>{"torch", "tinyml.kernels"});
  CHECK(s.nightly_marker == "nightly");
  CHECK(s.nightly_contexts == std::vector<std::string>{"daily", "gate-full"});
  REQUIRE(s.docs);
  CHECK(s.docs->variant == "3.13");
  CHECK(s.device_skips.size() == default_device_skips().size());
  CHECK(s.notice_tests == 100);
  CHECK(s.notice_seconds == 60);
}

TEST_CASE("expressions per context: the nightly rule is applied, never written twice") {
  auto s = load(kValid + "nightly-marker: costly\nnightly-contexts: [daily]\n");
  const auto& cpu = s.legs[0];
  CHECK(leg_expression(s, cpu, "pr") == "(not gpu and not rocm) and not costly");
  CHECK(leg_expression(s, cpu, "main") == "(not gpu and not rocm) and not costly");
  CHECK(leg_expression(s, cpu, "gate-full") == "(not gpu and not rocm) and not costly");
  CHECK(leg_expression(s, cpu, "daily") == "not gpu and not rocm");
  CHECK(universe_expression(s, "pr") == "not costly");
  CHECK(universe_expression(s, "daily").empty());
  CHECK(docs_expression(s, "pr") == "(docs) and not costly");
  CHECK(docs_expression(s, "daily") == "docs");
}

TEST_CASE("every error of a selection file is reported at once, with file, line and field") {
  CHECK(load_error(R"(version: 2
legs:
  cpu:
    markers: -p evil
    device: tpu
    imports: [torch, 'os; rm -rf /']
    extra: 1
  gpu: [gpu]
docs:
  leg: gpux
nightly-contexts: [nightly]
nightly-marker: not a name
device-skips:
  - {reason: no GPU}
growth: {notice-tests: 0, notice-seconds: -1}
pathz: [tests]
)") == "14 errors in suite.yml:\n"
       "suite.yml:1:10: version: unsupported version 2 (this gatekit reads version 1)\n"
       "suite.yml:4:14: legs.cpu.markers: the marker expression must not start with '-' or a space (it would read as an option)\n"
       "suite.yml:5:13: legs.cpu.device: expected cpu or gpu, got 'tpu'\n"
       "suite.yml:6:22: legs.cpu.imports[1]: 'os; rm -rf /' is not a module name (dotted Python identifiers)\n"
       "suite.yml:7:5: legs.cpu.extra: unknown key 'extra' (allowed: markers, device, imports)\n"
       "suite.yml:8:8: legs.gpu: expected a map with `markers`, got a list\n"
       "suite.yml:10:3: docs.markers: missing: the expression that selects the docs tests\n"
       "suite.yml:10:8: docs.leg: no leg named 'gpux' under `legs`\n"
       "suite.yml:11:20: nightly-contexts[0]: unknown context 'nightly' (contexts: pr, main, daily, gate, gate-full)\n"
       "suite.yml:12:17: nightly-marker: 'not a name' is not a marker name\n"
       "suite.yml:14:5: device-skips[0].marker: missing: the marker such a test should carry\n"
       "suite.yml:15:24: growth.notice-tests: must be at least 1\n"
       "suite.yml:15:43: growth.notice-seconds: must be more than 0\n"
       "suite.yml:16:1: pathz: unknown key 'pathz' (did you mean 'paths'?)");
}

TEST_CASE("a selection file without version or legs says what to write") {
  CHECK(load_error("paths: [tests]\n") ==
        "2 errors in suite.yml:\n"
        "suite.yml:1:1: version: missing: write `version: 1`\n"
        "suite.yml:1:1: legs: missing: name each CI leg and its marker expression");
  CHECK(load_error("- a\n") == "1 error in suite.yml:\nsuite.yml:1:1: expected a map with `version` and `legs`, got a list");
}

TEST_CASE("expressions that could be read as options or span lines are refused") {
  CHECK(expression_problem("gpu or rocm").empty());
  CHECK(expression_problem("") == "the marker expression is empty");
  CHECK(expression_problem("   ") == "the marker expression is empty");
  CHECK(expression_problem("--co") == "the marker expression must not start with '-' or a space (it would read as an option)");
  CHECK(expression_problem("gpu\n-p x") == "the marker expression must be one line without control characters");
  CHECK(expression_problem(std::string(2001, 'a')) == "the marker expression is longer than 2000 characters");
}

TEST_CASE("contexts from workflow events") {
  CHECK(*context_from_event("pull_request") == "pr");
  CHECK(*context_from_event("pull_request_target") == "pr");
  CHECK(*context_from_event("merge_group") == "pr");
  CHECK(*context_from_event("push") == "main");
  CHECK(*context_from_event("workflow_dispatch") == "main");
  CHECK(*context_from_event("schedule") == "daily");
  CHECK(context_from_event("release").error().message ==
        "no --context given and the event 'release' has no context of its own: pass --context (pr, main, daily, gate, gate-full)");
  CHECK(context_from_event("").error().kind == ErrorKind::bad_input);
}

TEST_CASE("parentheses must pair up, or the nightly wrapper would not hold the expression") {
  struct Case {
    std::string expression;
    std::string problem;
  };
  const std::vector<Case> cases{
      {"(gpu or rocm) and not slow", ""},
      {"((gpu) or (rocm))", ""},
      {"device(name=\"a)\")", ""},  // pytest's marker keyword arguments: quoted text is skipped
      {"not gpu) or (gpu",
       "the marker expression's parentheses do not balance: the ')' at character 8 closes no '('"},
      {"gpu or rocm)", "the marker expression's parentheses do not balance: the ')' at character 12 closes no '('"},
      {"(gpu or (rocm)", "the marker expression's parentheses do not balance: the '(' at character 1 is never closed"},
      {"gpu and \"x", "the marker expression's quote \" at character 9 is never closed"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.expression);
    CHECK(expression_problem(c.expression) == c.problem);
  }
  // Wrapped, the first case of the list above would have selected every gpu test, nightly
  // ones included: `(not gpu) or (gpu) and not nightly`.
  CHECK(load_error("version: 1\nlegs:\n  gpu: {markers: not gpu) or (gpu}\n") ==
        "1 error in suite.yml:\nsuite.yml:3:18: legs.gpu.markers: the marker expression's parentheses do not balance: "
        "the ')' at character 8 closes no '('");
}

TEST_CASE("the docs variant must be one of the docs leg's matrix values") {
  const auto s = load(kValid);
  CHECK(docs_variant_problem(s, {"3.11", "3.12", "3.13"}).empty());
  CHECK(docs_variant_problem(s, {"3.10", "3.11", "3.12"}) ==
        "suite.yml:11:12: docs.variant: '3.13' is none of the matrix values (3.10, 3.11, 3.12): a documentation-only "
        "change would run the docs tests on no job");
  CHECK(docs_variant_problem(s, {}).empty());  // no values given: nothing to check against
  const auto every_job = load("version: 1\nlegs:\n  cpu: {markers: not gpu}\ndocs: {leg: cpu, markers: docs}\n");
  CHECK(docs_variant_problem(every_job, {"3.10"}).empty());  // no variant: every job runs them
  CHECK(load_error("version: 1\nlegs:\n  cpu: {markers: x}\ndocs: {leg: cpu, variant: \"3.1\\n::error::x\", markers: docs}\n") ==
        "1 error in suite.yml:\nsuite.yml:4:27: docs.variant: must be one line of text, at most 100 characters (a matrix value)");
}
