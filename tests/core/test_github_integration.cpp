// The real CurlTransport against tests/github_api/server.py: connection reuse, pagination,
// the 3000-file cap, every fault kind, and the stateful typed calls. Backoff and rate-limit
// waits run on a FakeClock, so no test sleeps for them (only the timeout fault takes real
// time: a 300 ms request timeout).
#include <string>

#include "catch.hpp"
#include "gatekit/github.hpp"
#include "github_server.hpp"

using namespace gatekit;
using namespace gatekit::github;
using gatekit::testing::GitHubServer;
using namespace std::chrono_literals;
namespace json = boost::json;

namespace {

const char* kState = R"js({"repos": {"o/r": {
  "pulls": [{"number": 1, "files": {"count": 3500, "pattern": "src/f{i}.cpp"}, "head_sha": "1111111111111111111111111111111111111111"},
            {"number": 2, "files": ["a.txt", {"filename": "b.txt", "status": "renamed", "previous_filename": "c.txt"}]}],
  "issues": [{"title": "flaky: test_a", "labels": ["flaky"]}, {"title": "a PR", "pull_request": true, "labels": ["flaky"]},
             {"title": "other", "labels": ["bug"]}],
  "refs": {"heads/main": "2222222222222222222222222222222222222222"},
  "activity": [{"ref": "refs/heads/main", "after": "3333333333333333333333333333333333333333"},
               {"ref": "refs/heads/dev", "after": "4444444444444444444444444444444444444444"},
               {"ref": "refs/heads/main", "before": "3333333333333333333333333333333333333333",
                "after": "2222222222222222222222222222222222222222", "activity_type": "pr_merge"}],
  "runs": [{"id": 500, "head_sha": "3333333333333333333333333333333333333333",
            "jobs": [{"name": "build"}, {"name": "test (gpu)", "conclusion": "failure"}],
            "artifacts": [{"name": "junit", "size_in_bytes": 2048}]}]
}}})js";

struct Setup {
  explicit Setup(const std::string& token = "t0ken") : server(kState, token) {
    options.base_url = server.url();
    options.token = token;
    options.budget = 60s;
    options.request_timeout = 5s;
  }
  Client client(std::uint64_t seed = 7) { return Client(options, *transport, clock, &workflow, seed); }
  GitHubServer server;
  ClientOptions options;
  std::unique_ptr<HttpTransport> transport = make_curl_transport(SystemEnvironment{});
  FakeClock clock;
  RecordingWorkflow workflow;
};

template <class T>
Error error_of(const Result<T>& r) {
  REQUIRE(!r.ok());
  return r.error();
}

template <class T>
const T& value_of(const Result<T>& r) {
  if (!r) FAIL(r.error().message);
  return *r;
}

void value_of(const Status& r) {
  if (!r) FAIL(r.error().message);
}

std::int64_t fault_fired(json::object& stats, std::size_t index) {
  return stats["faults"].as_array().at(index).as_object()["fired"].as_int64();
}

}  // namespace

TEST_CASE("github integration: a 30-page listing reuses one connection; 3000 of 3500 files") {
  Setup s;
  auto c = s.client();
  auto pr = c.get_pull_request("o/r", 1);
  CHECK(value_of(pr).changed_files == 3500);
  auto files = c.list_pull_request_files("o/r", 1);
  const auto& list = value_of(files);
  CHECK(list.size() == 3000);
  CHECK(list.back().filename == "src/f2999.cpp");
  CHECK(c.requests_sent() == 31);
  auto stats = s.server.stats();
  CHECK(stats["connection_count"].as_int64() == 1);
  auto& requests = stats["requests"].as_array();
  REQUIRE(requests.size() == 31);
  auto& first_page = requests[1].as_object();
  CHECK(first_page["query"].as_object()["per_page"].as_string() == "100");
  auto& headers = requests[0].as_object()["headers"].as_object();
  CHECK(headers["authorization"].as_string() == "Bearer [redacted]");
  CHECK(headers["accept"].as_string() == "application/vnd.github+json");
  CHECK(headers["x-github-api-version"].as_string() == "2022-11-28");
  CHECK(std::string(headers["user-agent"].as_string()).rfind("gatekit/", 0) == 0);
  CHECK(s.workflow.masked == std::vector<std::string>{"t0ken"});
}

TEST_CASE("github integration: fault status 500 on page 7 is retried and the listing completes") {
  Setup s;
  s.server.add_faults(R"([{"method": "GET", "path": "/pulls/1/files$", "kind": "status", "status": 500, "nth": 7}])");
  auto c = s.client();
  CHECK(value_of(c.list_pull_request_files("o/r", 1)).size() == 3000);
  CHECK(c.requests_sent() == 31);
  auto stats = s.server.stats();
  CHECK(fault_fired(stats, 0) == 1);
  CHECK(s.clock.total_slept() >= 500ms);
  CHECK(s.clock.total_slept() <= 1000ms);
}

TEST_CASE("github integration: fault drop (connection closed) is retried on a new connection") {
  Setup s;
  s.server.add_faults(R"([{"method": "GET", "path": "/pulls/2/files$", "kind": "drop"}])");
  auto c = s.client();
  CHECK(value_of(c.list_pull_request_files("o/r", 2)).size() == 2);
  CHECK(c.requests_sent() == 2);
  CHECK(s.server.stats()["connection_count"].as_int64() == 2);
}

TEST_CASE("github integration: fault truncate (half a body, then EOF) is retried") {
  Setup s;
  s.server.add_faults(R"([{"method": "GET", "path": "/pulls/2/files$", "kind": "truncate"}])");
  auto c = s.client();
  CHECK(value_of(c.list_pull_request_files("o/r", 2)).at(1).previous_filename == "c.txt");
  CHECK(c.requests_sent() == 2);
}

TEST_CASE("github integration: fault delay beyond the request timeout is retried") {
  Setup s;
  s.options.request_timeout = 300ms;
  s.server.add_faults(R"([{"method": "GET", "path": "/pulls/2$", "kind": "delay", "seconds": 1.5}])");
  auto c = s.client();
  CHECK(value_of(c.get_pull_request("o/r", 2)).changed_files == 2);
  CHECK(c.requests_sent() == 2);
}

TEST_CASE("github integration: fault delay within the request timeout is just slow") {
  Setup s;
  s.server.add_faults(R"([{"method": "GET", "path": "/pulls/2$", "kind": "delay", "seconds": 0.2}])");
  auto c = s.client();
  CHECK(value_of(c.get_pull_request("o/r", 2)).number == 2);
  CHECK(c.requests_sent() == 1);
}

TEST_CASE("github integration: fault invalid_json is a typed decode error, not retried") {
  Setup s;
  s.server.add_faults(R"([{"method": "GET", "path": "/pulls/2$", "kind": "invalid_json"}])");
  auto c = s.client();
  auto e = error_of(c.get_pull_request("o/r", 2));
  CHECK(e.http_status == 0);
  CHECK(e.message.rfind("GET /repos/o/r/pulls/2: invalid JSON in a 22-byte body", 0) == 0);
  CHECK(c.requests_sent() == 1);
}

TEST_CASE("github integration: fault wrong_content_type is a typed decode error") {
  Setup s;
  s.server.add_faults(R"([{"method": "GET", "path": "/issues$", "kind": "wrong_content_type"}])");
  auto c = s.client();
  auto e = error_of(c.list_issues("o/r", "flaky", "open"));
  CHECK(e.http_status == 0);
  CHECK(e.message ==
        "GET /repos/o/r/issues?state=open&labels=flaky&per_page=100: expected a JSON body, got content type "
        "'text/html' (44 bytes: <html><body>Login to the proxy</body></html>)");
}

TEST_CASE("github integration: fault rate_limit within the budget is waited out on the clock") {
  Setup s;
  // FakeClock starts at 1'700'000'000 s; the limit resets 20 s later.
  s.server.add_faults(R"([{"method": "GET", "path": "/pulls/2$", "kind": "rate_limit", "reset": 1700000020}])");
  auto c = s.client();
  CHECK(value_of(c.get_pull_request("o/r", 2)).number == 2);
  CHECK(s.clock.total_slept() == 21s);
}

TEST_CASE("github integration: fault rate_limit beyond the budget fails saying when it resets") {
  Setup s;
  s.server.add_faults(R"([{"method": "GET", "path": "/pulls/2$", "kind": "rate_limit", "reset": 1700003600}])");
  auto c = s.client();
  auto e = error_of(c.get_pull_request("o/r", 2));
  CHECK(e.http_status == 403);
  CHECK(e.message ==
        "GET /repos/o/r/pulls/2: HTTP 403: rate limit exceeded (x-ratelimit-remaining: 0); waiting 3601 s more would "
        "exceed the time budget of 60 s; the rate limit resets at 2023-11-14T23:13:20Z");
  CHECK(s.clock.total_slept() == 0ms);
}

TEST_CASE("github integration: fault secondary_rate_limit waits Retry-After, or fails within the budget") {
  Setup s;
  s.server.add_faults(R"([{"method": "POST", "path": "/statuses/", "kind": "secondary_rate_limit", "retry_after": 5}])");
  auto c = s.client();
  CommitStatus status;
  status.state = "pending";
  status.context = "gatekit/gpu";
  CHECK(value_of(c.create_status("o/r", "1111111111111111111111111111111111111111", status)).state == "pending");
  CHECK(s.clock.total_slept() == 5s);

  // Without Retry-After GitHub asks for at least a minute: more than this 30 s budget.
  s.options.budget = 30s;
  s.server.add_faults(R"([{"method": "POST", "path": "/statuses/", "kind": "secondary_rate_limit", "times": null}])");
  auto c2 = s.client();
  auto e = error_of(c2.create_status("o/r", "1111111111111111111111111111111111111111", status));
  CHECK(e.http_status == 403);
  CHECK(e.message.rfind("POST /repos/o/r/statuses/1111111111111111111111111111111111111111: HTTP 403: secondary rate "
                        "limit exceeded; waiting 60 s more", 0) == 0);
}

TEST_CASE("github integration: fault retry_after (429) is waited out") {
  Setup s;
  s.server.add_faults(R"([{"method": "GET", "path": "/git/ref/", "kind": "retry_after", "seconds": 3, "times": 2}])");
  auto c = s.client();
  auto ref = c.get_ref("o/r", "heads/main");
  CHECK(value_of(ref).sha == "2222222222222222222222222222222222222222");
  CHECK(value_of(ref).ref == "refs/heads/main");
  CHECK(s.clock.total_slept() == 6s);
  CHECK(c.requests_sent() == 3);
}

TEST_CASE("github integration: a persistent 502 gives up after max_attempts within the budget") {
  Setup s;
  s.options.max_attempts = 4;
  s.server.add_faults(R"([{"method": "*", "path": "/pulls/", "kind": "status", "status": 502, "times": null,
                           "raw": "<html>Bad Gateway</html>"}])");
  auto c = s.client();
  auto e = error_of(c.get_pull_request("o/r", 2));
  CHECK(e.http_status == 502);
  CHECK(e.message == "GET /repos/o/r/pulls/2: HTTP 502: <html>Bad Gateway</html> (gave up after 4 attempts)");
  CHECK(c.requests_sent() == 4);
  CHECK(s.clock.total_slept() <= s.options.budget);
}

TEST_CASE("github integration: fault status 404 / 422 are typed errors with GitHub's message, not retried") {
  Setup s;
  auto c = s.client();
  auto e = error_of(c.get_pull_request("o/r", 99));
  CHECK(e.http_status == 404);
  CHECK(e.message == "GET /repos/o/r/pulls/99: HTTP 404: Not Found (https://docs.github.com/rest)");
  CommitStatus bad;
  bad.state = "bogus";
  bad.context = "x";
  auto v = error_of(c.create_status("o/r", "1111111111111111111111111111111111111111", bad));
  CHECK(v.http_status == 422);
  CHECK(v.message ==
        "POST /repos/o/r/statuses/1111111111111111111111111111111111111111: HTTP 422: Validation Failed "
        "(Status.state invalid) (https://docs.github.com/rest)");
  CHECK(c.requests_sent() == 2);
}

TEST_CASE("github integration: a wrong token is a 401 error and the token is never logged") {
  Setup s;
  s.options.token = "wrong-token";
  auto c = s.client();
  auto e = error_of(c.get_pull_request("o/r", 2));
  CHECK(e.http_status == 401);
  CHECK(e.message == "GET /repos/o/r/pulls/2: HTTP 401: Bad credentials (https://docs.github.com/rest)");
  CHECK(e.message.find("wrong-token") == std::string::npos);
  CHECK(json::serialize(s.server.stats()).find("wrong-token") == std::string::npos);
}

TEST_CASE("github integration: connection refused is a network error after bounded retries") {
  FakeClock clock;
  auto transport = make_curl_transport(SystemEnvironment{});
  ClientOptions o;
  o.base_url = "http://127.0.0.1:9";  // discard port: nothing listens
  o.max_attempts = 3;
  Client c(o, *transport, clock, nullptr, 1);
  auto e = error_of(c.get_pull_request("o/r", 1));
  CHECK(e.http_status == 0);
  CHECK(e.message.rfind("GET /repos/o/r/pulls/1: could not connect: ", 0) == 0);
  CHECK(e.message.find("(gave up after 3 attempts)") != std::string::npos);
  CHECK(c.requests_sent() == 3);
}

TEST_CASE("github integration: issues, comments, labels, statuses, runs, jobs, artifacts, dispatch") {
  Setup s;
  auto c = s.client();
  auto flaky = value_of(c.list_issues("o/r", "flaky", "open"));
  REQUIRE(flaky.size() == 1);  // the PR with the label is left out
  CHECK(flaky[0].title == "flaky: test_a");

  auto created = value_of(c.create_issue("o/r", "flaky: test_b", "seen on run 5", {"flaky"}));
  CHECK(created.number == 4);
  CHECK(value_of(c.list_issues("o/r", "flaky", "")).size() == 2);
  CHECK(value_of(c.add_issue_comment("o/r", created.number, "again")).body == "again");
  CHECK(value_of(c.add_labels("o/r", created.number, {"gpu"})) == std::vector<std::string>{"flaky", "gpu"});
  IssueUpdate close;
  close.state = "closed";
  auto closed = value_of(c.update_issue("o/r", created.number, close));
  CHECK(closed.state == "closed");
  CHECK(closed.labels == std::vector<std::string>{"flaky", "gpu"});
  CHECK(value_of(c.list_issues("o/r", "flaky", "closed")).size() == 1);

  CommitStatus st;
  st.state = "success";
  st.context = "gatekit/gpu";
  st.description = "12 passed";
  value_of(c.create_status("o/r", "1111111111111111111111111111111111111111", st));
  st.state = "failure";
  value_of(c.create_status("o/r", "1111111111111111111111111111111111111111", st));
  auto statuses = value_of(c.list_statuses("o/r", "1111111111111111111111111111111111111111"));
  REQUIRE(statuses.size() == 2);
  CHECK(statuses[0].state == "failure");  // newest first

  auto runs = value_of(c.list_workflow_runs("o/r", "ci.yml", "main", "success", 1));
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].id == 500);
  auto jobs = value_of(c.list_run_jobs("o/r", 500));
  REQUIRE(jobs.size() == 2);
  CHECK(jobs[1].conclusion == "failure");
  auto artifacts = value_of(c.list_run_artifacts("o/r", 500));
  REQUIRE(artifacts.size() == 1);
  CHECK(artifacts[0].size_in_bytes == 2048);
  auto updates = value_of(c.list_ref_activity("o/r", "refs/heads/main"));
  REQUIRE(updates.size() == 2);  // newest first, refs/heads/main's alone
  CHECK(updates[0].after == "2222222222222222222222222222222222222222");
  CHECK(updates[0].before == "3333333333333333333333333333333333333333");
  CHECK(updates[0].activity_type == "pr_merge");
  CHECK(updates[1].ref == "refs/heads/main");
  CHECK(updates[1].activity_type == "push");

  value_of(c.dispatch_workflow("o/r", "ci.yml", "main", {{"sha", "abc"}}));
  auto stats = s.server.stats();
  auto& dispatch = stats["dispatches"].as_array().at(0).as_object();
  CHECK(dispatch["ref"].as_string() == "main");
  CHECK(dispatch["inputs"].as_object()["sha"].as_string() == "abc");
  CHECK(stats["connection_count"].as_int64() == 1);
}

TEST_CASE("github integration: the doctor's calls: rules, protection, environments, variables, files") {
  const char* state = R"js({"repos": {"o/r": {
    "default_branch": "trunk",
    "rules": {"trunk": [{"type": "required_status_checks", "ruleset_id": 9,
                         "checks": [{"context": "CPU tests", "integration_id": 15368}]},
                        {"type": "merge_queue", "ruleset_id": 9}]},
    "protection": {"trunk": {"checks": [{"context": "gate/gpu", "app_id": 4242}]}},
    "environments": {"gatekit-gate": {"branches": "custom", "policies": [{"name": "trunk"}, {"name": "v*", "type": "tag"}],
                                      "variables": {"GATEKIT_GATE_APP_CLIENT_ID": "Iv1"},
                                      "secrets": ["GATEKIT_GATE_APP_KEY"]}},
    "variables": {"GATEKIT_GATE_MODE": "pull-request"},
    "files": {".github/workflows/ci.yml": "name: CI\non: pull_request\njobs: {}\n"}
  }}})js";
  GitHubServer server(state, "t0ken");
  ClientOptions options;
  options.base_url = server.url();
  options.token = "t0ken";
  auto transport = make_curl_transport(SystemEnvironment{});
  FakeClock clock;
  Client c(options, *transport, clock, nullptr, 7);

  CHECK(value_of(c.get_repository("o/r")).default_branch == "trunk");
  const auto rules = value_of(c.list_branch_rules("o/r", "trunk"));
  REQUIRE(rules.size() == 2);
  CHECK(rules[0].checks.at(0).context == "CPU tests");
  CHECK(rules[1].type == "merge_queue");
  CHECK(value_of(c.list_branch_rules("o/r", "feature/x")).empty());

  const auto protection = value_of(c.get_branch_protection("o/r", "trunk"));
  REQUIRE(protection.has_value());
  CHECK(protection->checks.at(0).app_id == 4242);
  CHECK_FALSE(value_of(c.get_branch_protection("o/r", "other")).has_value());  // 404 Branch not protected

  const auto environment = value_of(c.get_environment("o/r", "gatekit-gate"));
  REQUIRE(environment.has_value());
  CHECK(environment->branches == DeploymentBranches::custom);
  CHECK_FALSE(value_of(c.get_environment("o/r", "missing")).has_value());
  const auto policies = value_of(c.list_deployment_branch_policies("o/r", "gatekit-gate"));
  REQUIRE(policies.size() == 2);
  CHECK(policies[1].name == "v*");
  CHECK(policies[1].type == "tag");
  CHECK(value_of(c.list_environment_variable_names("o/r", "gatekit-gate")) ==
        std::vector<std::string>{"GATEKIT_GATE_APP_CLIENT_ID"});
  CHECK(value_of(c.list_environment_secret_names("o/r", "gatekit-gate")) ==
        std::vector<std::string>{"GATEKIT_GATE_APP_KEY"});
  CHECK(value_of(c.get_repository_variable("o/r", "GATEKIT_GATE_MODE")) == std::optional<std::string>("pull-request"));
  CHECK_FALSE(value_of(c.get_repository_variable("o/r", "UNSET")).has_value());

  const auto folder = value_of(c.list_directory("o/r", ".github/workflows", "trunk"));
  REQUIRE(folder.has_value());
  REQUIRE(folder->size() == 1);
  CHECK((*folder)[0].path == ".github/workflows/ci.yml");
  CHECK_FALSE(value_of(c.list_directory("o/r", ".github/nothing", "trunk")).has_value());
  CHECK(value_of(c.get_file_text("o/r", ".github/workflows/ci.yml", "trunk")) ==
        "name: CI\non: pull_request\njobs: {}\n");

  // A token without admin rights: GitHub's 403 stays an error, never "not protected".
  server.add_faults(R"([{"method": "GET", "path": "/protection$", "kind": "status", "status": 403,
                         "message": "Resource not accessible by integration"}])");
  const auto refused = error_of(c.get_branch_protection("o/r", "trunk"));
  CHECK(refused.http_status == 403);
  CHECK(refused.message ==
        "GET /repos/o/r/branches/trunk/protection: HTTP 403: Resource not accessible by integration "
        "(https://docs.github.com/rest)");
  CHECK_FALSE(is_not_protected(refused));
}
