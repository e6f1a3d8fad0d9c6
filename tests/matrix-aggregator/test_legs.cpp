// Per-leg view: the excuse rule for allowed leg failures, the jobs API listing through a fake
// transport, and the whole command over FakeSeams with a fake jobs API.
#include <memory>

#include "aggregate_fakes.hpp"
#include "catch.hpp"
#include "legs_api.hpp"
#include "report.hpp"

using namespace gatekit;
using namespace gatekit::matrix_aggregator;
using gatekit::testing::aggregate;
using gatekit::testing::JobsApi;
using gatekit::testing::serve_legs;

namespace {

Leg done(const std::string& name, const std::string& conclusion) { return {name, "completed", conclusion, "https://github.test/job/" + name}; }

const char* kFailedMatrix =
    R"J({"changes":{"result":"success","outputs":{"cpu":"true"}},"tests":{"result":"failure","outputs":{}}})J";

}  // namespace

TEST_CASE("legs: a failed job is excused only when every failed leg of the run is allowed") {
  const std::vector<std::string> allowed = {"pytest (CPU, py3.13)"};
  struct Row {
    std::vector<Leg> legs;
    bool excused;
    std::string why_not;
  };
  const std::vector<Row> rows = {
      {{done("pytest (CPU, py3.12)", "success"), done("pytest (CPU, py3.13)", "failure"),
        {"CPU tests", "in_progress", "", ""}},
       true, ""},
      {{done("pytest (CPU, py3.12)", "failure"), done("pytest (CPU, py3.13)", "failure")},
       false, "legs not covered by allowed-leg-failures: pytest (CPU, py3.12) (failure)"},
      {{done("pytest (CPU, py3.12)", "cancelled"), done("pytest (CPU, py3.13)", "failure")},
       false, "legs not covered by allowed-leg-failures: pytest (CPU, py3.12) (cancelled)"},
      {{done("pytest (CPU, py3.13)", "timed_out")},
       false, "legs not covered by allowed-leg-failures: pytest (CPU, py3.13) (timed_out)"},
      {{done("pytest (CPU, py3.12)", "success"), done("pytest (CPU, py3.13)", "skipped")},
       false, "the jobs API shows no failed leg to excuse"},
  };
  for (const auto& row : rows) {
    auto e = excuse_by_legs(row.legs, allowed);
    CHECK(e.excused == row.excused);
    CHECK(e.why_not == row.why_not);
  }
}

TEST_CASE("legs: allowed leg failures turn a failed matrix into a pass, with the legs in the summary") {
  FakeSeams seams;
  seams.env.set("GATEKIT_NEEDS", kFailedMatrix);
  JobsApi api;
  api.legs = {done("pytest (CPU, py3.12)", "success"), done("pytest (CPU, py3.13)", "failure")};
  serve_legs(seams, api);
  Options options;
  options.gate = "changes";
  options.gated = {"tests=cpu"};
  options.allowed_leg_failures = {"pytest (CPU, py3.13)"};
  options.title = "CPU tests";
  CHECK(aggregate(options, seams).code == ExitCode::pass);
  CHECK(api.requests.size() == 1);
  auto& wf = seams.workflow;
  CHECK(wf.masked == std::vector<std::string>{"t0ken"});
  CHECK(wf.outputs.at("result") == "success");
  CHECK(wf.summary.find("failed only in allowed legs: pytest (CPU, py3.13)") != std::string::npos);
  // The link destination is percent-encoded: spaces and parentheses would end it.
  CHECK(wf.summary.find("| [pytest (CPU, py3.13)](https://github.test/job/pytest%20%28CPU,%20py3.13%29) | ❌ failure |") !=
        std::string::npos);
}

TEST_CASE("legs: when the verdict depends on legs that cannot be listed, the result is an error") {
  FakeSeams seams;  // no token: the legs cannot be listed
  seams.env.set("GATEKIT_NEEDS", kFailedMatrix);
  Options options;
  options.gate = "changes";
  options.gated = {"tests=cpu"};
  options.allowed_leg_failures = {"pytest (CPU, py3.13)"};
  auto ran = aggregate(options, seams);
  CHECK(ran.code == ExitCode::could_not_evaluate);
  REQUIRE(ran.error);
  CHECK(ran.error->kind == ErrorKind::could_not_evaluate);
  CHECK(ran.error->message ==
        "job 'tests' failed and allowed-leg-failures is set, but the legs could not be listed: no token (set the "
        "action's token input, or GITHUB_TOKEN)");
  CHECK(seams.workflow.outputs.at("result") == "error");
  CHECK(seams.workflow.outputs.at("error") == ran.error->message);
}

TEST_CASE("legs: unavailable legs do not matter when no verdict depends on them") {
  FakeSeams seams;
  seams.env.set("GATEKIT_NEEDS", R"J({"changes":{"result":"success","outputs":{"cpu":"true"}},"tests":{"result":"success"}})J");
  JobsApi api;
  api.status = 404;
  serve_legs(seams, api);
  Options options;
  options.gate = "changes";
  options.gated = {"tests=cpu"};
  options.legs = true;
  CHECK(aggregate(options, seams).code == ExitCode::pass);
  CHECK(seams.workflow.summary.find("Per-leg view not shown: jobs API: GET /repos/o/r/actions/runs/42/jobs") !=
        std::string::npos);
}

TEST_CASE("legs: without --legs or leg allowances the jobs API is not asked") {
  FakeSeams seams;
  seams.env.set("GATEKIT_NEEDS", kFailedMatrix);
  JobsApi api;
  serve_legs(seams, api);
  Options options;
  options.gate = "changes";
  options.gated = {"tests=cpu"};
  CHECK(aggregate(options, seams).code == ExitCode::verdict_fail);
  CHECK(api.requests.empty());
  REQUIRE_FALSE(seams.workflow.annotations.empty());
  CHECK(seams.workflow.annotations.back().message == "tests: did not pass (failure)");
}

TEST_CASE("legs: the jobs API listing for the current run") {
  FakeSeams seams;
  JobsApi api;
  api.body =
      R"J({"total_count":2,"jobs":[{"id":1,"name":"pytest (CPU, py3.12)","status":"completed","conclusion":"success","html_url":"https://github.com/o/r/actions/runs/42/job/1"},)J"
      R"J({"id":2,"name":"CPU tests","status":"in_progress","conclusion":null,"html_url":"https://github.com/o/r/actions/runs/42/job/2"}]})J";
  serve_legs(seams, api);
  auto context = seams.context();
  auto view = list_legs(context);
  REQUIRE(view.available);
  REQUIRE(view.legs.size() == 2);
  CHECK(view.legs[0].name == "pytest (CPU, py3.12)");
  CHECK(view.legs[0].conclusion == "success");
  CHECK(view.legs[1].status == "in_progress");
  REQUIRE(api.requests.size() == 1);
  CHECK(api.requests[0].url.find("/repos/o/r/actions/runs/42/jobs") != std::string::npos);

  api.status = 404;
  auto failed = list_legs(context);
  CHECK_FALSE(failed.available);
  CHECK(failed.unavailable_reason.rfind("jobs API: GET /repos/o/r/actions/runs/42/jobs", 0) == 0);
}

TEST_CASE("legs: without a token or a run id no connection is made") {
  struct Row {
    std::string token, repository, run_id;
    std::string reason;
  };
  const std::vector<Row> rows = {
      {"", "o/r", "42", "no token (set the action's token input, or GITHUB_TOKEN)"},
      {"t", "o/r", "", "GITHUB_REPOSITORY or GITHUB_RUN_ID is not set (not running in GitHub Actions?)"},
      {"t", "", "42", "GITHUB_REPOSITORY or GITHUB_RUN_ID is not set (not running in GitHub Actions?)"},
      {"t", "o/r", "4x", "GITHUB_RUN_ID '4x' is not a run id"},
  };
  for (const auto& row : rows) {
    INFO(row.reason);
    FakeSeams seams;  // no transport: a connection would throw
    if (!row.token.empty()) seams.env.set("GITHUB_TOKEN", row.token);
    seams.run.repository = row.repository;
    seams.run.run_id = row.run_id;
    auto context = seams.context();
    auto view = list_legs(context);
    CHECK_FALSE(view.available);
    CHECK(view.unavailable_reason == row.reason);
  }
}

TEST_CASE("report: the reasons output is JSON with every job") {
  FakeSeams seams;
  seams.env.set("NEEDS", R"J({"changes":{"result":"success","outputs":{"cpu":"false"}},"tests":{"result":"skipped"}})J");
  Options options;
  options.needs_env = "NEEDS";
  options.gate = "changes";
  options.gated = {"tests=cpu"};
  CHECK(aggregate(options, seams).code == ExitCode::pass);
  CHECK(seams.workflow.outputs.at("reasons") ==
        R"J({"changes":{"result":"success","verdict":"pass","reason":"passed"},"tests":{"result":"skipped","verdict":"pass","reason":"skipped (no relevant change)","detail":"changes.outputs.cpu is 'false'"}})J");
}
