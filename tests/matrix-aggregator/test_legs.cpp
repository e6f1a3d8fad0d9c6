// Per-leg view: the excuse rule for allowed leg failures, the jobs API listing through a fake
// transport, and the whole command with fakes (RecordingWorkflow, a fixed LegSource).
#include <memory>

#include "aggregate.hpp"
#include "catch.hpp"
#include "legs_api.hpp"
#include "report.hpp"

using namespace gatekit;
using namespace gatekit::aggregator;

namespace {

MapEnvironment make_env(std::initializer_list<std::pair<std::string, std::string>> values) {
  MapEnvironment env;
  for (const auto& [k, v] : values) env.set(k, v);
  return env;
}

Leg done(const std::string& name, const std::string& conclusion) { return {name, "completed", conclusion, "https://github.test/job/" + name}; }

class FixedLegs final : public LegSource {
 public:
  explicit FixedLegs(LegView view) : view_(std::move(view)) {}
  LegView list(const Environment&, Workflow&) override {
    ++calls;
    return view_;
  }
  int calls = 0;

 private:
  LegView view_;
};

class FakeTransport final : public github::HttpTransport {
 public:
  std::variant<github::HttpResponse, github::TransportError> send(const github::HttpRequest& request) override {
    requests.push_back(request);
    return response;
  }
  github::HttpResponse response;
  std::vector<github::HttpRequest> requests;
};

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
  MapEnvironment env = make_env({{"GATEKIT_NEEDS", kFailedMatrix}});
  RecordingWorkflow wf;
  LegView view;
  view.available = true;
  view.legs = {done("pytest (CPU, py3.12)", "success"), done("pytest (CPU, py3.13)", "failure")};
  FixedLegs legs(view);
  Options options;
  options.gate = "changes";
  options.gated = {"tests=cpu"};
  options.allowed_leg_failures = {"pytest (CPU, py3.13)"};
  options.title = "CPU tests";
  auto outcome = run_aggregate(options, env, wf, legs);
  CHECK(outcome.code == ExitCode::pass);
  CHECK(legs.calls == 1);
  CHECK(wf.outputs.at("result") == "success");
  CHECK(wf.summary.find("failed only in allowed legs: pytest (CPU, py3.13)") != std::string::npos);
  // The link destination is percent-encoded: spaces and parentheses would end it.
  CHECK(wf.summary.find("| [pytest (CPU, py3.13)](https://github.test/job/pytest%20%28CPU,%20py3.13%29) | ❌ failure |") !=
        std::string::npos);
}

TEST_CASE("legs: when the verdict depends on legs that cannot be listed, the result is an error") {
  MapEnvironment env = make_env({{"GATEKIT_NEEDS", kFailedMatrix}});
  RecordingWorkflow wf;
  LegView view;
  view.unavailable_reason = "no token (set the action's token input, or GITHUB_TOKEN)";
  FixedLegs legs(view);
  Options options;
  options.gate = "changes";
  options.gated = {"tests=cpu"};
  options.allowed_leg_failures = {"pytest (CPU, py3.13)"};
  auto outcome = run_aggregate(options, env, wf, legs);
  CHECK(outcome.code == ExitCode::could_not_evaluate);
  CHECK(outcome.error ==
        "job 'tests' failed and allowed-leg-failures is set, but the legs could not be listed: no token (set the "
        "action's token input, or GITHUB_TOKEN)");
  CHECK(wf.outputs.at("result") == "error");
}

TEST_CASE("legs: unavailable legs do not matter when no verdict depends on them") {
  MapEnvironment env = make_env({{"GATEKIT_NEEDS", R"J({"changes":{"result":"success","outputs":{"cpu":"true"}},"tests":{"result":"success"}})J"}});
  RecordingWorkflow wf;
  LegView view;
  view.unavailable_reason = "jobs API: down";
  FixedLegs legs(view);
  Options options;
  options.gate = "changes";
  options.gated = {"tests=cpu"};
  options.legs = true;
  CHECK(run_aggregate(options, env, wf, legs).code == ExitCode::pass);
  CHECK(wf.summary.find("Per-leg view not shown: jobs API: down") != std::string::npos);
}

TEST_CASE("legs: without --legs or leg allowances the jobs API is not asked") {
  MapEnvironment env = make_env({{"GATEKIT_NEEDS", kFailedMatrix}});
  RecordingWorkflow wf;
  FixedLegs legs(LegView{});
  Options options;
  options.gate = "changes";
  options.gated = {"tests=cpu"};
  CHECK(run_aggregate(options, env, wf, legs).code == ExitCode::verdict_fail);
  CHECK(legs.calls == 0);
  REQUIRE_FALSE(wf.annotations.empty());
  CHECK(wf.annotations.back().message == "tests: did not pass (failure)");
}

TEST_CASE("legs: the jobs API listing for the current run") {
  FakeTransport transport;
  transport.response.status = 200;
  transport.response.headers = {{"content-type", "application/json"}};
  transport.response.body =
      R"J({"total_count":2,"jobs":[{"id":1,"name":"pytest (CPU, py3.12)","status":"completed","conclusion":"success","html_url":"https://github.com/o/r/actions/runs/42/job/1"},)J"
      R"J({"id":2,"name":"CPU tests","status":"in_progress","conclusion":null,"html_url":"https://github.com/o/r/actions/runs/42/job/2"}]})J";
  FakeClock clock;
  RecordingWorkflow wf;
  MapEnvironment env = make_env({{"GITHUB_TOKEN", "t0ken"}, {"GITHUB_REPOSITORY", "o/r"}, {"GITHUB_RUN_ID", "42"}});
  auto view = list_legs(env, wf, transport, clock);
  REQUIRE(view.available);
  REQUIRE(view.legs.size() == 2);
  CHECK(view.legs[0].name == "pytest (CPU, py3.12)");
  CHECK(view.legs[0].conclusion == "success");
  CHECK(view.legs[1].status == "in_progress");
  REQUIRE(transport.requests.size() == 1);
  CHECK(transport.requests[0].url.find("/repos/o/r/actions/runs/42/jobs") != std::string::npos);

  MapEnvironment no_token = make_env({{"GITHUB_REPOSITORY", "o/r"}, {"GITHUB_RUN_ID", "42"}});
  CHECK(list_legs(no_token, wf, transport, clock).unavailable_reason ==
        "no token (set the action's token input, or GITHUB_TOKEN)");
  MapEnvironment bad_run = make_env({{"GITHUB_TOKEN", "t"}, {"GITHUB_REPOSITORY", "o/r"}, {"GITHUB_RUN_ID", "4x"}});
  CHECK(list_legs(bad_run, wf, transport, clock).unavailable_reason == "GITHUB_RUN_ID '4x' is not a run id");
  transport.response.status = 404;
  transport.response.body = R"J({"message":"Not Found"})J";
  auto failed = list_legs(env, wf, transport, clock);
  CHECK_FALSE(failed.available);
  CHECK(failed.unavailable_reason.rfind("jobs API: ", 0) == 0);
}

TEST_CASE("report: the reasons output is JSON with every job") {
  MapEnvironment env = make_env({{"NEEDS", R"J({"changes":{"result":"success","outputs":{"cpu":"false"}},"tests":{"result":"skipped"}})J"}});
  RecordingWorkflow wf;
  FixedLegs legs(LegView{});
  Options options;
  options.needs_env = "NEEDS";
  options.gate = "changes";
  options.gated = {"tests=cpu"};
  CHECK(run_aggregate(options, env, wf, legs).code == ExitCode::pass);
  CHECK(wf.outputs.at("reasons") ==
        R"J({"changes":{"result":"success","verdict":"pass","reason":"passed"},"tests":{"result":"skipped","verdict":"pass","reason":"skipped (no relevant change)","detail":"changes.outputs.cpu is 'false'"}})J");
}
