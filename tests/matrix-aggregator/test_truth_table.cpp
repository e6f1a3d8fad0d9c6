// The full truth table of the aggregator's rules for one gated job: gate result x gate
// output x job result x allowances, each checked against a small oracle written from the
// rules in docs/actions/matrix-aggregator.md, not from the implementation.
#include <string>
#include <vector>

#include "catch.hpp"
#include "decide.hpp"

using namespace gatekit::matrix_aggregator;
using gatekit::ErrorKind;
using gatekit::ExitCode;

namespace {

enum class Expect { pass, fail, error };

const char* name(Expect e) { return e == Expect::pass ? "pass" : e == Expect::fail ? "fail" : "error"; }

// The rules, stated directly:
// - "could not evaluate" when the gate succeeded but the output it must decide with is missing;
// - the gate must succeed;
// - the job passes on success; on failure/cancelled only when it is in allowed-failures; on
//   skipped only when the (successful) gate said 'false' or it is in allowed-skips.
Expect oracle(const std::string& gate, const std::string& output, const std::string& job, bool allow_fail,
              bool allow_skip) {
  if (gate == "success" && output == "missing") return Expect::error;
  bool ok = gate == "success";
  if (job == "failure" || job == "cancelled") ok = ok && allow_fail;
  if (job == "skipped") ok = ok && ((gate == "success" && output == "false") || allow_skip);
  return ok ? Expect::pass : Expect::fail;
}

// The reason must start with the documented words (docs/actions/matrix-aggregator.md, "Rules").
std::string expected_reason_start(const std::string& gate, const std::string& output, const std::string& job,
                                  bool allow_fail, bool allow_skip) {
  if (job == "success") return "passed";
  if (job == "skipped") {
    if (gate == "success" && output == "false") return "skipped (no relevant change)";
    return allow_skip ? "skipped (allowed" : "did not pass (skipped)";
  }
  return allow_fail ? (job == "failure" ? std::string("failed") : job) + " (allowed" : "did not pass (" + job + ")";
}

Needs make_needs(const std::string& gate, const std::string& output, const std::string& job) {
  Needs needs;
  NeededJob g{"changes", *parse_job_result(gate), {{"docs", "false"}}};
  if (output != "missing") g.outputs["cpu"] = output;
  needs.jobs.push_back(g);
  needs.jobs.push_back({"tests", *parse_job_result(job), {}});
  return needs;
}

}  // namespace

TEST_CASE("truth table: gate result x gate output x job result x allowances") {
  const std::vector<std::string> results = {"success", "failure", "cancelled", "skipped"};
  const std::vector<std::string> outputs = {"true", "false", "missing"};
  int cases = 0;
  int passes = 0;
  for (const auto& gate : results)
    for (const auto& output : outputs)
      for (const auto& job : results)
        for (int allowances = 0; allowances < 4; ++allowances) {
          const bool allow_fail = (allowances & 1) != 0;
          const bool allow_skip = (allowances & 2) != 0;
          Policy policy;
          policy.gate = "changes";
          policy.gated = {{"tests", "cpu"}};
          if (allow_fail) policy.allowed_failures.insert("tests");
          if (allow_skip) policy.allowed_skips.insert("tests");
          const Expect want = oracle(gate, output, job, allow_fail, allow_skip);
          auto got = decide(make_needs(gate, output, job), policy, LegView{});
          const Expect have = !got ? Expect::error : got->passed ? Expect::pass : Expect::fail;
          INFO("gate=" << gate << " output=" << output << " job=" << job << " allowed-failures=" << allow_fail
                       << " allowed-skips=" << allow_skip << " expected " << name(want) << ", got " << name(have)
                       << (got ? "" : ": " + got.error().message));
          CHECK(have == want);
          ++cases;
          if (want == Expect::pass) ++passes;
          if (!got) continue;
          REQUIRE(got->jobs.size() == 2);
          const auto& gate_verdict = got->jobs[0];
          const auto& job_verdict = got->jobs[1];
          CHECK(gate_verdict.role == Role::gate);
          CHECK(gate_verdict.passed == (gate == "success"));
          CHECK(gate_verdict.reason == (gate == "success" ? "passed" : "did not pass (" + gate + ")"));
          CHECK(job_verdict.role == Role::gated);
          const auto start = expected_reason_start(gate, output, job, allow_fail, allow_skip);
          CHECK(job_verdict.reason.rfind(start, 0) == 0);
          if (gate == "success" && output == "true" && job == "skipped" && !allow_skip)
            CHECK(job_verdict.detail.find("matrix skipped but the gate asked for it: check the job's if:") == 0);
        }
  CHECK(cases == 4 * 3 * 4 * 4);
  CHECK(passes > 0);  // the table is not all failures
}

TEST_CASE("an ungated job passes on success, fails on skipped unless allowed") {
  struct Row {
    std::string result;
    bool allow_fail, allow_skip, pass;
  };
  const std::vector<Row> rows = {
      {"success", false, false, true},   {"failure", false, false, false}, {"cancelled", false, false, false},
      {"skipped", false, false, false},  {"failure", true, false, true},    {"cancelled", true, false, true},
      {"skipped", true, false, false},   {"skipped", false, true, true},   {"failure", false, true, false},
  };
  for (const auto& row : rows) {
    Needs needs;
    needs.jobs.push_back({"lint", *parse_job_result(row.result), {}});
    Policy policy;
    if (row.allow_fail) policy.allowed_failures.insert("lint");
    if (row.allow_skip) policy.allowed_skips.insert("lint");
    auto d = decide(needs, policy, LegView{});
    REQUIRE(d);
    INFO(row.result << " af=" << row.allow_fail << " as=" << row.allow_skip);
    CHECK(d->passed == row.pass);
  }
}

TEST_CASE("inputs that cannot be evaluated are errors, never verdicts; a bad policy is a usage error") {
  Needs needs;
  needs.jobs.push_back({"changes", JobResult::success, {{"cpu", "maybe"}}});
  needs.jobs.push_back({"tests", JobResult::success, {}});
  struct Row {
    Policy policy;
    std::string message;
    ExitCode code;  // usage_error: the options alone are wrong (docs/exit-codes.md)
  };
  constexpr auto usage = ExitCode::usage_error;
  constexpr auto cannot = ExitCode::could_not_evaluate;
  Policy bad_value;
  bad_value.gate = "changes";
  bad_value.gated = {{"tests", "cpu"}};
  Policy unknown_gate;
  unknown_gate.gate = "change";
  Policy unknown_gated;
  unknown_gated.gate = "changes";
  unknown_gated.gated = {{"test", "cpu"}};
  Policy no_gate;
  no_gate.gated = {{"tests", "cpu"}};
  Policy gate_allowed;
  gate_allowed.gate = "changes";
  gate_allowed.allowed_skips = {"changes"};
  Policy unknown_allowed;
  unknown_allowed.allowed_failures = {"docs"};
  Policy gated_twice;
  gated_twice.gate = "changes";
  gated_twice.gated = {{"tests", "docs"}, {"tests", "cpu"}};
  const std::vector<Row> rows = {
      {bad_value, "gate job 'changes' output 'cpu' is 'maybe', expected 'true' or 'false'", cannot},
      {unknown_gate, "--gate-job names job 'change', which is not in needs (changes, tests); did you mean 'changes'?",
       cannot},
      {unknown_gated, "--gated names job 'test', which is not in needs (changes, tests); did you mean 'tests'?",
       cannot},
      {no_gate, "--gated needs --gate-job: a gated job is judged by the gate's outputs", usage},
      {gate_allowed, "allowed-skips names the gate job 'changes': the gate must always succeed, or nothing says "
                     "which suites were needed", usage},
      {unknown_allowed,
       "allowed-failures names job 'docs', which is not in needs (changes, tests); add it to the aggregator job's "
       "needs:", cannot},
      {gated_twice, "--gated names job 'tests' twice", usage},
  };
  for (const auto& row : rows) {
    auto d = decide(needs, row.policy, LegView{});
    REQUIRE_FALSE(d);
    CHECK(d.error().message == row.message);
    CHECK(exit_code_of(d.error()) == row.code);
    CHECK(check_policy(row.policy).ok() == (row.code != usage));
  }
}

TEST_CASE("a failed gate is a verdict even when its outputs are missing") {
  Needs needs;
  needs.jobs.push_back({"changes", JobResult::failure, {}});
  needs.jobs.push_back({"tests", JobResult::skipped, {}});
  Policy policy;
  policy.gate = "changes";
  policy.gated = {{"tests", "cpu"}};
  auto d = decide(needs, policy, LegView{});
  REQUIRE(d);
  CHECK_FALSE(d->passed);
  CHECK(d->jobs[1].detail == "skipped because the gate job did not succeed");
}

TEST_CASE("an allowed skip against the gate's word passes with a warning") {
  Needs needs;
  needs.jobs.push_back({"changes", JobResult::success, {{"cpu", "true"}}});
  needs.jobs.push_back({"tests", JobResult::skipped, {}});
  Policy policy;
  policy.gate = "changes";
  policy.gated = {{"tests", "cpu"}};
  policy.allowed_skips = {"tests"};
  auto d = decide(needs, policy, LegView{});
  REQUIRE(d);
  CHECK(d->passed);
  REQUIRE(d->warnings.size() == 1);
  CHECK(d->warnings[0].find("skipped although the gate asked for it") != std::string::npos);
}

TEST_CASE("everything skipped passes only when allowed, and then warns") {
  Needs needs;
  needs.jobs.push_back({"a", JobResult::skipped, {}});
  needs.jobs.push_back({"b", JobResult::skipped, {}});
  Policy policy;
  auto d = decide(needs, policy, LegView{});
  REQUIRE(d);
  CHECK_FALSE(d->passed);
  policy.allowed_skips = {"a", "b"};
  d = decide(needs, policy, LegView{});
  REQUIRE(d);
  CHECK(d->passed);
  REQUIRE(d->warnings.size() == 1);
  CHECK(d->warnings[0] == "every needed job was skipped: nothing was tested in this run");
}

// The shapes alls-green's own tests and README pass (JSON arrays as json.dumps writes them,
// a bare comma list, an empty string, `[]`), and what its action's heredoc and a YAML block
// make of them (leading spaces, newlines, a trailing newline).
TEST_CASE("list options accept alls-green's comma and JSON forms") {
  struct Row {
    const char* text;
    std::vector<std::string> names;
  };
  const std::vector<Row> rows = {
      {R"(["failing-job", "skipped-job"])", {"failing-job", "skipped-job"}},
      {"check-links-markdown, nightly", {"check-links-markdown", "nightly"}},
      {"succeeding-job", {"succeeding-job"}},
      {"", {}},
      {"[]", {}},
      {"  []\n", {}},
      {"   \n", {}},
      {"  [\"failing-job\", \"skipped-job\"]\n", {"failing-job", "skipped-job"}},
      {"[\n  \"docs\",\n  \"linters\"\n]\n", {"docs", "linters"}},
      {"[\"docs\",\"linters\"]", {"docs", "linters"}},
      {"[\"docs\", \"\", \" \"]", {"docs"}},
      {" docs, linters ,,", {"docs", "linters"}},
      {"docs\nlinters\n", {"docs", "linters"}},
      {"docs,\r\nlinters\r\n", {"docs", "linters"}},
      {"_private, Job-2", {"_private", "Job-2"}},
  };
  for (const auto& row : rows) {
    INFO(row.text);
    auto names = parse_name_list(row.text, "allowed-failures");
    REQUIRE(names);
    CHECK(*names == row.names);
  }
}

TEST_CASE("list options refuse what is not clearly a list of job names") {
  const std::string json_hint = R"(: write ["a", "b"] with double quotes, or a plain list a, b)";
  const std::string id_hint =
      " is not a job id (a letter or '_', then letters, digits, '-' and '_'); separate names with commas or newlines";
  struct Row {
    const char* text;
    std::string message;
  };
  const std::vector<Row> rows = {
      {"[docs, lint]", "allowed-skips: starts with '[' but is not a JSON array (syntax error)" + json_hint},
      {"['docs', 'lint']", "allowed-skips: starts with '[' but is not a JSON array (syntax error)" + json_hint},
      {"[docs", "allowed-skips: starts with '[' but is not a JSON array (syntax error)" + json_hint},
      {R"(["docs")", "allowed-skips: starts with '[' but is not a JSON array (incomplete JSON)" + json_hint},
      {"[] docs", "allowed-skips: starts with '[' but is not a JSON array (extra data)" + json_hint},
      {"[1, 2]", "allowed-skips: item 1 of the JSON array is a number, not a job name (a string)"},
      {R"(["docs", null])", "allowed-skips: item 2 of the JSON array is null, not a job name (a string)"},
      {R"([["docs"]])", "allowed-skips: item 1 of the JSON array is an array, not a job name (a string)"},
      {R"([[]])", "allowed-skips: item 1 of the JSON array is an array, not a job name (a string)"},
      {R"([{"docs": true}])", "allowed-skips: item 1 of the JSON array is an object, not a job name (a string)"},
      {R"("docs", "lint")",
       R"(allowed-skips: '"docs"' has quotes left over: write a JSON array ["a", "b"] or a plain list a, b)"},
      {"docs, 'lint'",
       R"(allowed-skips: ''lint'' has quotes left over: write a JSON array ["a", "b"] or a plain list a, b)"},
      {R"(["\"docs\""])",
       R"(allowed-skips: '"docs"' has quotes left over: write a JSON array ["a", "b"] or a plain list a, b)"},
      {"docs lint", "allowed-skips: 'docs lint'" + id_hint},
      {R"(["docs lint"])", "allowed-skips: 'docs lint'" + id_hint},
      {"docs]", "allowed-skips: 'docs]'" + id_hint},
      {"2nd-job", "allowed-skips: '2nd-job'" + id_hint},
      {"docs\x1b[31m", "allowed-skips: 'docs\\x1b[31m'" + id_hint},
  };
  for (const auto& row : rows) {
    INFO(row.text);
    auto names = parse_name_list(row.text, "allowed-skips");
    REQUIRE_FALSE(names);
    CHECK(names.error().message == row.message);
    CHECK(names.error().kind == ErrorKind::bad_input);
  }
}

TEST_CASE("gated option takes JOB=OUTPUT pairs separated by commas, spaces or newlines") {
  auto a = parse_gated("tests=cpu, gpu-tests=gpu\ndocs=docs");
  REQUIRE(a);
  CHECK(a->size() == 3);
  CHECK((*a)[1] == std::pair<std::string, std::string>{"gpu-tests", "gpu"});
  for (const char* bad : {"tests", "=cpu", "tests=", "a=b=c"}) {
    auto r = parse_gated(bad);
    REQUIRE_FALSE(r);
    CHECK(r.error().message == "--gated: '" + std::string(bad) + "' is not JOB=OUTPUT (e.g. tests=cpu)");
    CHECK(r.error().kind == ErrorKind::bad_input);
  }
}
