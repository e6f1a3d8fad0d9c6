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

namespace {

// The rules for a job gated by two outputs, stated directly (docs/actions/matrix-aggregator.md,
// "Rules"): `tests=cpu|docs` is needed when either output is 'true', `tests=cpu&gpu` only
// when both are; a skip passes only when the gate succeeded and said the job was not needed.
Expect two_output_oracle(const std::string& gate, const std::string& first, const std::string& second, bool all,
                         const std::string& job, bool allow_fail, bool allow_skip) {
  if (gate == "success" && (first == "missing" || second == "missing")) return Expect::error;
  const bool needed = all ? (first == "true" && second == "true") : (first == "true" || second == "true");
  bool ok = gate == "success";
  if (job == "failure" || job == "cancelled") ok = ok && allow_fail;
  if (job == "skipped") ok = ok && ((gate == "success" && !needed) || allow_skip);
  return ok ? Expect::pass : Expect::fail;
}

}  // namespace

TEST_CASE("truth table: a job gated by two outputs, any (a|b) and all (a&b)") {
  const std::vector<std::string> results = {"success", "failure", "cancelled", "skipped"};
  const std::vector<std::string> outputs = {"true", "false", "missing"};
  int cases = 0;
  int passes = 0;
  int skips_passed = 0;
  for (const bool all : {false, true})
    for (const auto& gate : results)
      for (const auto& first : outputs)
        for (const auto& second : outputs)
          for (const auto& job : results)
            for (int allowances = 0; allowances < 4; ++allowances) {
              const bool allow_fail = (allowances & 1) != 0;
              const bool allow_skip = (allowances & 2) != 0;
              Policy policy;
              policy.gate = "changes";
              auto parsed = parse_gated(all ? "tests=cpu&docs" : "tests=cpu|docs");
              REQUIRE(parsed);
              policy.gated = *parsed;
              if (allow_fail) policy.allowed_failures.insert("tests");
              if (allow_skip) policy.allowed_skips.insert("tests");
              Needs needs;
              NeededJob g{"changes", *parse_job_result(gate), {{"gpu", "true"}}};
              if (first != "missing") g.outputs["cpu"] = first;
              if (second != "missing") g.outputs["docs"] = second;
              needs.jobs.push_back(g);
              needs.jobs.push_back({"tests", *parse_job_result(job), {}});
              const Expect want = two_output_oracle(gate, first, second, all, job, allow_fail, allow_skip);
              auto got = decide(needs, policy, LegView{});
              const Expect have = !got ? Expect::error : got->passed ? Expect::pass : Expect::fail;
              INFO((all ? "tests=cpu&docs" : "tests=cpu|docs")
                   << " gate=" << gate << " cpu=" << first << " docs=" << second << " job=" << job
                   << " allowed-failures=" << allow_fail << " allowed-skips=" << allow_skip << " expected "
                   << name(want) << ", got " << name(have) << (got ? "" : ": " + got.error().message));
              CHECK(have == want);
              ++cases;
              if (want == Expect::pass) ++passes;
              if (want == Expect::pass && job == "skipped" && !allow_skip) ++skips_passed;
              if (!got) {
                CHECK(got.error().message.rfind("gate job 'changes' succeeded but has no output '", 0) == 0);
                CHECK(exit_code_of(got.error()) == ExitCode::could_not_evaluate);
                continue;
              }
              const auto& v = got->jobs[1];
              CHECK(v.role == Role::gated);
              if (gate == "success") CHECK(v.gate_said == "cpu=" + first + " docs=" + second);
            }
  CHECK(cases == 2 * 4 * 3 * 3 * 4 * 4);
  CHECK(passes > 0);
  // Skips the gate excused (without allowed-skips, either allowed-failures): any, only both
  // 'false'; all, every pair but both 'true'.
  CHECK(skips_passed == 2 * 1 + 2 * 3);
}

// The case issue 43 found: a docs-only change (cpu 'false', docs 'true') whose docs tests
// were skipped by a wrong if: passed `CPU tests` under `tests=cpu`; under `tests=cpu|docs`
// it fails, naming the output that asked for the job.
TEST_CASE("a docs-only change whose docs job was skipped fails under tests=cpu|docs") {
  Needs needs;
  needs.jobs.push_back({"changes", JobResult::success, {{"cpu", "false"}, {"docs", "true"}}});
  needs.jobs.push_back({"tests", JobResult::skipped, {}});
  Policy policy;
  policy.gate = "changes";
  policy.gated = {{"tests", "cpu"}};
  auto one = decide(needs, policy, LegView{});
  REQUIRE(one);
  CHECK(one->passed);  // the old wiring: the gate's cpu 'false' excuses the skip
  policy.gated = *parse_gated("tests=cpu|docs");
  auto both = decide(needs, policy, LegView{});
  REQUIRE(both);
  CHECK_FALSE(both->passed);
  CHECK(both->jobs[1].reason == "did not pass (skipped)");
  CHECK(both->jobs[1].detail ==
        "matrix skipped but the gate asked for it: check the job's if: (changes.outputs.docs is 'true')");
  CHECK(both->jobs[1].gate_said == "cpu=false docs=true");
  needs.jobs[0].outputs["docs"] = "false";
  auto neither = decide(needs, policy, LegView{});
  REQUIRE(neither);
  CHECK(neither->passed);
  CHECK(neither->jobs[1].detail == "changes.outputs.cpu and changes.outputs.docs are 'false'");
  policy.gated = *parse_gated("tests=cpu&docs");
  needs.jobs[0].outputs["docs"] = "true";
  auto all = decide(needs, policy, LegView{});
  REQUIRE(all);
  CHECK(all->passed);
  CHECK(all->jobs[1].detail == "changes.outputs.cpu is 'false'");
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
  CHECK((*a)[1] == GatedJob{"gpu-tests", "gpu"});
  for (const char* bad : {"tests", "=cpu", "tests=", "a=b=c", "tests=cpu|", "tests=|cpu", "tests=cpu||docs",
                          "tests=&", "tests=cpu&&gpu"}) {
    auto r = parse_gated(bad);
    REQUIRE_FALSE(r);
    CHECK(r.error().message == "--gated: '" + std::string(bad) + "' is not JOB=OUTPUT (e.g. tests=cpu)");
    CHECK(r.error().kind == ErrorKind::bad_input);
  }
}

TEST_CASE("gated option: several outputs joined by | (any) or & (all), never both") {
  struct Row {
    const char* text;
    std::vector<GatedJob> items;
  };
  const std::vector<Row> rows = {
      {"tests=cpu|docs", {{"tests", {"cpu", "docs"}, Combine::any}}},
      {"tests=cpu&gpu", {{"tests", {"cpu", "gpu"}, Combine::all}}},
      {"partition=cpu, tests=cpu|docs", {{"partition", "cpu"}, {"tests", {"cpu", "docs"}, Combine::any}}},
      {"a=x|y|z\nb=x&y", {{"a", {"x", "y", "z"}, Combine::any}, {"b", {"x", "y"}, Combine::all}}},
  };
  for (const auto& row : rows) {
    INFO(row.text);
    auto items = parse_gated(row.text);
    REQUIRE(items);
    CHECK(*items == row.items);
  }
  CHECK((*parse_gated("tests=cpu|docs"))[0].spelled() == "cpu|docs");
  CHECK((*parse_gated("tests=cpu&gpu"))[0].spelled() == "cpu&gpu");
  auto mixed = parse_gated("tests=cpu|docs&gpu");
  REQUIRE_FALSE(mixed);
  CHECK(mixed.error().message == "--gated: 'tests=cpu|docs&gpu' joins outputs with both '|' and '&': the job is needed "
                                 "when any of them is 'true' (a|b) or only when all are (a&b), never a mix");
  CHECK(mixed.error().kind == ErrorKind::bad_input);
  Policy twice;
  twice.gate = "changes";
  twice.gated = *parse_gated("tests=cpu|docs|cpu");
  auto st = check_policy(twice);
  REQUIRE_FALSE(st);
  CHECK(st.error().message == "--gated: tests=cpu|docs|cpu names output 'cpu' twice");
  CHECK(exit_code_of(st.error()) == ExitCode::usage_error);
}
