// The client over a scripted fake transport and a FakeClock: headers, retries, rate-limit
// waits, budgets, pagination and typed errors, without a network or real sleeps.
#include <deque>
#include <string>
#include <vector>

#include "catch.hpp"
#include "gatekit/fake_context.hpp"
#include "gatekit/github_json.hpp"
#include "gatekit/version.hpp"

using namespace gatekit;
using namespace gatekit::github;
using namespace std::chrono_literals;

namespace {

// Answers requests from a script, in order, and records every request it saw.
class ScriptedTransport final : public HttpTransport {
 public:
  using Answer = std::variant<HttpResponse, TransportError>;
  std::variant<HttpResponse, TransportError> send(const HttpRequest& request) override {
    requests.push_back(request);
    if (answers.empty()) return TransportError{TransportErrorKind::other, "script exhausted"};
    auto a = answers.front();
    answers.pop_front();
    return a;
  }
  void add(int status, std::string body = "[]", std::vector<std::pair<std::string, std::string>> headers = {}) {
    HttpResponse r;
    r.status = status;
    r.body = std::move(body);
    r.headers = std::move(headers);
    r.headers.emplace_back("content-type", "application/json; charset=utf-8");
    answers.emplace_back(r);
  }
  void fail(TransportErrorKind kind, std::string message = "boom") {
    answers.emplace_back(TransportError{kind, std::move(message)});
  }
  std::deque<Answer> answers;
  std::vector<HttpRequest> requests;
};

ClientOptions test_options() {
  ClientOptions o;
  o.base_url = "https://ghe.example/api/v3";
  o.token = "s3cret-token";
  return o;
}

std::string header(const HttpRequest& r, const std::string& name) {
  for (const auto& [k, v] : r.headers)
    if (k == name) return v;
  return "";
}

template <class T>
Error error_of(const Result<T>& r) {
  REQUIRE(!r.ok());
  return r.error();
}

const char* kPull = R"({"number": 1, "state": "open", "changed_files": 2,
    "head": {"sha": "h", "ref": "f"}, "base": {"sha": "b", "ref": "main"}})";

template <class T>
bool ok(const Result<T>& r) {
  if (!r.ok()) UNSCOPED_INFO(r.error().message);
  return r.ok();
}

}  // namespace

TEST_CASE("github client: requests carry auth, API version, Accept and a gatekit User-Agent") {
  ScriptedTransport t;
  FakeClock clock;
  RecordingWorkflow wf;
  t.add(200, kPull);
  Client client(test_options(), t, clock, &wf, 1);
  auto pr = client.get_pull_request("o/r", 1);
  REQUIRE(ok(pr));
  REQUIRE(t.requests.size() == 1);
  const auto& r = t.requests[0];
  CHECK(r.url == "https://ghe.example/api/v3/repos/o/r/pulls/1");
  CHECK(header(r, "Authorization") == "Bearer s3cret-token");
  CHECK(header(r, "Accept") == "application/vnd.github+json");
  CHECK(header(r, "X-GitHub-Api-Version") == "2022-11-28");
  CHECK(header(r, "User-Agent") == std::string("gatekit/") + kVersion);
  CHECK(wf.masked == std::vector<std::string>{"s3cret-token"});
  CHECK(client.requests_sent() == 1);
}

TEST_CASE("github client: the API from the run, the token from the environment; an explicit token wins") {
  RunInfo run;
  run.api_url = "https://ghe.example/api/v3/";
  MapEnvironment env({{"GH_TOKEN", "gh"}, {"GITHUB_API_URL", "https://not.read.from.env"}});
  auto o = options_for(run, env);
  CHECK(o.base_url == "https://ghe.example/api/v3");
  CHECK(o.token == "gh");
  env.set("GITHUB_TOKEN", "gt");
  CHECK(options_for(run, env).token == "gt");
  CHECK(options_for(run, env, "explicit").token == "explicit");
  CHECK(options_for(RunInfo{}, env).base_url == "https://api.github.com");
}

TEST_CASE("github client: 5xx and connection errors are retried with backoff on the clock") {
  ScriptedTransport t;
  FakeClock clock;
  t.add(502, "<html>bad gateway</html>");
  t.fail(TransportErrorKind::dropped);
  t.fail(TransportErrorKind::timeout);
  t.add(200, kPull);
  Client client(test_options(), t, clock, nullptr, 42);
  auto pr = client.get_pull_request("o/r", 1);
  REQUIRE(ok(pr));
  CHECK(client.requests_sent() == 4);
  // three backoffs: each within [d/2, d] for d = 1 s, 2 s, 4 s
  CHECK(clock.total_slept() >= 3500ms);
  CHECK(clock.total_slept() <= 7000ms);
}

TEST_CASE("github client: retries stop after max_attempts with the last error") {
  ScriptedTransport t;
  FakeClock clock;
  for (int i = 0; i < 3; ++i) t.add(503, R"({"message": "Service Unavailable"})");
  auto o = test_options();
  o.max_attempts = 3;
  Client client(o, t, clock, nullptr, 1);
  const auto e = error_of(client.get_pull_request("o/r", 1));
  CHECK(e.kind == ErrorKind::could_not_evaluate);
  CHECK(e.http_status == 503);
  CHECK(e.message == "GET /api/v3/repos/o/r/pulls/1: HTTP 503: Service Unavailable (gave up after 3 attempts)");
  CHECK(t.requests.size() == 3);
}

TEST_CASE("github client: a wait that does not fit the budget is a budget error") {
  ScriptedTransport t;
  FakeClock clock;
  // the primary limit resets in an hour; the budget is 2 minutes
  auto reset = std::chrono::duration_cast<std::chrono::seconds>(clock.now().time_since_epoch()).count() + 3600;
  t.add(403, R"({"message": "API rate limit exceeded"})",
        {{"x-ratelimit-remaining", "0"}, {"x-ratelimit-reset", std::to_string(reset)}});
  Client client(test_options(), t, clock, nullptr, 1);
  const auto e = error_of(client.list_pull_request_files("o/r", 1));
  CHECK(e.http_status == 403);
  CHECK(e.message ==
        "GET /api/v3/repos/o/r/pulls/1/files?per_page=100: HTTP 403: rate limit exceeded (x-ratelimit-remaining: 0); waiting 3601 s more would exceed the time "
        "budget of 120 s; the rate limit resets at 2023-11-14T23:13:20Z");
  CHECK(clock.total_slept() == 0ms);
  CHECK(t.requests.size() == 1);
}

TEST_CASE("github client: rate-limit waits within the budget are waited out") {
  ScriptedTransport t;
  FakeClock clock;
  auto reset = std::chrono::duration_cast<std::chrono::seconds>(clock.now().time_since_epoch()).count() + 20;
  t.add(403, R"({"message": "API rate limit exceeded"})",
        {{"x-ratelimit-remaining", "0"}, {"x-ratelimit-reset", std::to_string(reset)}});
  t.add(403, R"({"message": "You have exceeded a secondary rate limit"})", {{"retry-after", "5"}});
  t.add(429, R"({"message": "slow down"})", {{"retry-after", "3"}});
  t.add(200, R"([{"filename": "a", "status": "added"}])");
  Client client(test_options(), t, clock, nullptr, 1);
  auto files = client.list_pull_request_files("o/r", 1);
  REQUIRE(ok(files));
  CHECK(clock.total_slept() == 21000ms + 5000ms + 3000ms);
}

TEST_CASE("github client: the budget spans all pages of a listing") {
  ScriptedTransport t;
  FakeClock clock;
  auto o = test_options();
  o.budget = 10s;
  t.add(200, R"([{"filename": "a", "status": "added"}])", {{"link", "<https://ghe.example/api/v3/p2>; rel=\"next\""}});
  t.add(429, "{}", {{"retry-after", "6"}});
  t.add(200, R"([{"filename": "b", "status": "added"}])", {{"link", "<https://ghe.example/api/v3/p3>; rel=\"next\""}});
  t.add(429, "{}", {{"retry-after", "6"}});  // 6 s waited already: 6 more exceed 10
  Client client(o, t, clock, nullptr, 1);
  const auto e = error_of(client.list_pull_request_files("o/r", 1));
  CHECK(e.message == "GET /api/v3/p3: HTTP 429: rate limit (Retry-After: 6 s); waiting 6 s more would exceed the "
                     "time budget of 10 s");
  CHECK(e.http_status == 429);
  CHECK(clock.total_slept() == 6s);
}

TEST_CASE("github client: pagination follows Link rel=next only, from per_page=100") {
  ScriptedTransport t;
  FakeClock clock;
  t.add(200, R"([{"filename": "a", "status": "added"}])",
        {{"link", R"(<https://ghe.example/api/v3/repositories/9/pulls/1/files?per_page=100&page=2>; rel="next")"}});
  t.add(200, R"([{"filename": "b", "status": "removed"}])", {{"link", R"(<https://ghe.example/api/v3/x?page=1>; rel="first")"}});
  Client client(test_options(), t, clock, nullptr, 1);
  auto files = client.list_pull_request_files("o/r", 1);
  REQUIRE(ok(files));
  const auto& list = (*files);
  REQUIRE(list.size() == 2);
  CHECK(list[1].filename == "b");
  REQUIRE(t.requests.size() == 2);
  CHECK(t.requests[0].url == "https://ghe.example/api/v3/repos/o/r/pulls/1/files?per_page=100");
  CHECK(t.requests[1].url == "https://ghe.example/api/v3/repositories/9/pulls/1/files?per_page=100&page=2");
}

TEST_CASE("github client: a listing of several pages shows progress, one line per further page") {
  ScriptedTransport t;
  FakeClock clock;
  t.add(200, R"([{"filename": "a", "status": "added"}, {"filename": "b", "status": "added"}])",
        {{"link", R"(<https://ghe.example/api/v3/repos/o/r/pulls/1/files?page=2>; rel="next")"}});
  t.add(200, R"([{"filename": "c", "status": "added"}])",
        {{"link", R"(<https://ghe.example/api/v3/repos/o/r/pulls/1/files?page=3>; rel="next")"}});
  t.add(200, R"([{"filename": "d", "status": "added"}])");
  RecordingWorkflow wf;
  Client client(test_options(), t, clock, &wf, 1);
  REQUIRE(ok(client.list_pull_request_files("o/r", 1)));
  CHECK(wf.masked == std::vector<std::string>{"s3cret-token"});
  CHECK(wf.lines == std::vector<std::string>{"  GET /api/v3/repos/o/r/pulls/1/files: page 2 (2 items so far)",
                                             "  GET /api/v3/repos/o/r/pulls/1/files: page 3 (3 items so far)"});
}

// GitHub pages by offset: a listing that changes while it is read repeats items on the next
// page (a proxy can repeat whole pages). Each item is kept once, by the listing's id field.
TEST_CASE("github client: a listing holds each item once, by its id field, and says it repeated some") {
  ScriptedTransport t;
  FakeClock clock;
  const std::string page1 = R"([{"id": 101, "number": 1, "title": "a", "state": "open"},
                                {"id": 102, "number": 2, "title": "b", "state": "open"}])";
  // Issues: the second page repeats the first (#1 and #2 again), then #3.
  t.add(200, page1, {{"link", R"(<https://ghe.example/api/v3/repos/o/r/issues?page=2>; rel="next")"}});
  t.add(200, page1, {{"link", R"(<https://ghe.example/api/v3/repos/o/r/issues?page=3>; rel="next")"}});
  t.add(200, R"([{"id": 102, "number": 2, "title": "b", "state": "open"},
                 {"id": 103, "number": 3, "title": "c", "state": "closed"}])");
  // A run listing whose every page is the first (140 runs read as 14 would be 10 pages of one).
  const std::string runs = R"({"total_count": 2, "workflow_runs": [{"id": 7, "head_sha": "s", "status": "completed"},
                                                                    {"id": 8, "head_sha": "t", "status": "completed"}]})";
  t.add(200, runs, {{"link", R"(<https://ghe.example/api/v3/repos/o/r/actions/workflows/ci.yml/runs?page=2>; rel="next")"}});
  t.add(200, runs);
  // A pull request's files have no id: the file name is the key.
  t.add(200, R"([{"filename": "a.py", "status": "added"}])",
        {{"link", R"(<https://ghe.example/api/v3/repos/o/r/pulls/1/files?page=2>; rel="next")"}});
  t.add(200, R"([{"filename": "a.py", "status": "added"}, {"filename": "b.py", "status": "added"}])");
  // Annotations have no id at all: one listed again is the same content again.
  const std::string note = R"({"path": "a.py", "start_line": 1, "end_line": 1, "annotation_level": "warning", "message": "fail-open: x"})";
  t.add(200, "[" + note + "]", {{"link", R"(<https://ghe.example/api/v3/repos/o/r/check-runs/5/annotations?page=2>; rel="next")"}});
  t.add(200, "[" + note + "]");
  // The raw call: by `id` too.
  t.add(200, R"({"total_count": 2, "jobs": [{"id": 1}, {"id": 2}]})",
        {{"link", R"(<https://ghe.example/api/v3/repos/o/r/actions/runs/1/jobs?page=2>; rel="next")"}});
  t.add(200, R"({"total_count": 2, "jobs": [{"id": 2}]})");
  RecordingWorkflow wf;
  Client client(test_options(), t, clock, &wf, 1);

  auto issues = client.list_issues("o/r", "flaky", "all");
  REQUIRE(ok(issues));
  std::vector<std::int64_t> numbers;
  for (const auto& issue : *issues) numbers.push_back(issue.number);
  CHECK(numbers == std::vector<std::int64_t>{1, 2, 3});
  auto listed = client.list_workflow_runs_created("o/r", "ci.yml", "2026-11-01..2026-11-02");
  REQUIRE(ok(listed));
  CHECK(listed->runs.size() == 2);
  CHECK(listed->total_count == 2);
  auto files = client.list_pull_request_files("o/r", 1);
  REQUIRE(ok(files));
  CHECK(files->size() == 2);
  auto notes = client.list_check_run_annotations("o/r", 5);
  REQUIRE(ok(notes));
  CHECK(notes->size() == 1);
  auto raw = request(client, "GET", "/repos/o/r/actions/runs/1/jobs", std::nullopt, true);
  REQUIRE(ok(raw));
  CHECK(boost::json::serialize(*raw) == R"({"total_count":2,"jobs":[{"id":1},{"id":2}]})");

  std::vector<std::string> warnings;
  for (const auto& a : wf.annotations) {
    CHECK(a.severity == Severity::warning);
    CHECK(a.title == "GitHub listing repeated items");
    warnings.push_back(a.message);
  }
  CHECK(warnings == std::vector<std::string>{
      "GET /api/v3/repos/o/r/issues: GitHub listed 3 item(s) again on a later page (the same id; the listing "
      "changed while it was read); each is counted once",
      "GET /api/v3/repos/o/r/actions/workflows/ci.yml/runs: GitHub listed 2 item(s) again on a later page (the same "
      "id; the listing changed while it was read); each is counted once",
      "GET /api/v3/repos/o/r/pulls/1/files: GitHub listed 1 item(s) again on a later page (the same filename; the "
      "listing changed while it was read); each is counted once",
      "GET /api/v3/repos/o/r/check-runs/5/annotations: GitHub listed 1 item(s) again on a later page (the same "
      "content; the listing changed while it was read); each is counted once",
      "GET /api/v3/repos/o/r/actions/runs/1/jobs: GitHub listed 1 item(s) again on a later page (the same id; the "
      "listing changed while it was read); each is counted once"});
}

TEST_CASE("github client: a Link to another host is refused (the token stays home)") {
  ScriptedTransport t;
  FakeClock clock;
  t.add(200, "[]", {{"link", R"(<https://evil.example/steal?page=2>; rel="next")"}});
  Client client(test_options(), t, clock, nullptr, 1);
  const auto e = error_of(request(client, "GET", "/repos/o/r/issues", std::nullopt, true));
  CHECK(e.http_status == 0);
  CHECK(e.message == "GET /api/v3/repos/o/r/issues?per_page=100: refusing to follow a Link rel=next to another host: https://evil.example");
  CHECK(t.requests.size() == 1);
}

TEST_CASE("github client: 4xx is not retried and carries GitHub's message") {
  ScriptedTransport t;
  FakeClock clock;
  t.add(404, R"({"message": "Not Found", "documentation_url": "https://docs.github.com/rest/pulls/pulls#get-a-pull-request"})");
  Client client(test_options(), t, clock, nullptr, 1);
  const auto e = error_of(client.get_pull_request("o/r", 99));
  CHECK(e.http_status == 404);
  CHECK(e.message ==
        "GET /api/v3/repos/o/r/pulls/99: HTTP 404: Not Found (https://docs.github.com/rest/pulls/pulls#get-a-pull-request)");
  CHECK(client.requests_sent() == 1);
}

TEST_CASE("github client: TLS-like transport errors fail at once as network errors") {
  ScriptedTransport t;
  FakeClock clock;
  t.fail(TransportErrorKind::other, "SSL certificate problem: self-signed certificate");
  Client client(test_options(), t, clock, nullptr, 1);
  const auto e = error_of(client.get_ref("o/r", "heads/main"));
  CHECK(e.kind == ErrorKind::could_not_evaluate);
  CHECK(e.http_status == 0);
  CHECK(e.message == "GET /api/v3/repos/o/r/git/ref/heads/main: SSL certificate problem: self-signed certificate");
  CHECK(t.requests.size() == 1);
}

TEST_CASE("github client: typed calls build the documented URLs and bodies") {
  ScriptedTransport t;
  FakeClock clock;
  t.add(200, R"([{"number": 1, "title": "t", "state": "open", "labels": []},
                 {"number": 2, "title": "pr", "state": "open", "pull_request": {}}])");
  t.add(201, R"({"state": "success", "context": "gatekit/gpu"})");
  t.add(204, "");
  t.add(200, R"({"total_count": 1, "workflow_runs": [{"id": 5, "head_sha": "s", "status": "completed"}]})");
  Client client(test_options(), t, clock, nullptr, 1);

  auto issues = client.list_issues("o/r", "flaky test", "");
  REQUIRE(ok(issues));
  CHECK((*issues).size() == 1);  // the PR is left out
  CHECK(t.requests[0].url == "https://ghe.example/api/v3/repos/o/r/issues?state=open&labels=flaky%20test&per_page=100");

  CommitStatus s;
  s.state = "success";
  s.context = "gatekit/gpu";
  REQUIRE(ok(client.create_status("o/r", "abc", s)));
  CHECK(t.requests[1].method == "POST");
  CHECK(t.requests[1].url == "https://ghe.example/api/v3/repos/o/r/statuses/abc");
  CHECK(t.requests[1].body == R"({"state":"success","context":"gatekit/gpu"})");
  CHECK(header(t.requests[1], "Content-Type") == "application/json");

  REQUIRE(client.dispatch_workflow("o/r", "gpu.yml", "main", {{"sha", "abc"}}).ok());
  CHECK(t.requests[2].url == "https://ghe.example/api/v3/repos/o/r/actions/workflows/gpu.yml/dispatches");
  CHECK(t.requests[2].body == R"({"ref":"main","inputs":{"sha":"abc"}})");

  auto runs = client.list_workflow_runs("o/r", "ci.yml", "main", "success", 1);
  REQUIRE(ok(runs));
  CHECK((*runs).at(0).id == 5);
  CHECK(t.requests[3].url ==
        "https://ghe.example/api/v3/repos/o/r/actions/workflows/ci.yml/runs?branch=main&status=success&per_page=1");
}

TEST_CASE("github client: an unexpected shape is a decode error naming the field") {
  ScriptedTransport t;
  FakeClock clock;
  t.add(200, R"([{"filename": "a"}])");
  Client client(test_options(), t, clock, nullptr, 1);
  const auto e = error_of(client.list_pull_request_files("o/r", 1));
  CHECK(e.http_status == 0);
  CHECK(e.message == "GET /api/v3/repos/o/r/pulls/1/files: unexpected response: item 0: field `status`: missing");
}

TEST_CASE("github client: no request starts once the budget is spent (slow pages)") {
  // A transport that takes 40 s per answer on the clock.
  class SlowTransport final : public HttpTransport {
   public:
    explicit SlowTransport(FakeClock& c) : clock(c) {}
    std::variant<HttpResponse, TransportError> send(const HttpRequest&) override {
      clock.advance(40s);
      HttpResponse r;
      r.status = 200;
      r.headers = {{"content-type", "application/json"}, {"link", "<https://ghe.example/api/v3/next?page=" +
                                                                   std::to_string(++pages) + ">; rel=\"next\""}};
      r.body = "[]";
      return r;
    }
    FakeClock& clock;
    int pages = 0;
  };
  FakeClock clock;
  SlowTransport t(clock);
  auto o = test_options();
  o.budget = 100s;
  Client client(o, t, clock, nullptr, 1);
  const auto e = error_of(request(client, "GET", "/repos/o/r/issues", std::nullopt, true));
  CHECK(e.message == "GET /api/v3/next?page=3: the time budget of 100 s is spent");
  CHECK(t.pages == 3);
}

namespace {

// Takes `delay` on the clock per answer, honouring the request's timeout as curl does: a
// request whose timeout is shorter than the delay times out after the timeout.
class DelayedTransport final : public HttpTransport {
 public:
  DelayedTransport(FakeClock& c, std::chrono::milliseconds d) : clock(c), delay(d) {}
  std::variant<HttpResponse, TransportError> send(const HttpRequest& request) override {
    timeouts.push_back(request.timeout);
    if (request.timeout < delay) {
      clock.advance(request.timeout);
      return TransportError{TransportErrorKind::timeout,
                            "Operation timed out after " + std::to_string(request.timeout.count()) + " milliseconds"};
    }
    clock.advance(delay);
    HttpResponse r;
    r.status = 200;
    const bool files = request.url.find("/files") != std::string::npos;
    r.headers = {{"content-type", "application/json"}};
    if (files) r.headers.emplace_back("link", "<https://ghe.example/api/v3/repos/o/r/pulls/1/files?page=" +
                                                  std::to_string(++pages + 1) + ">; rel=\"next\"");
    r.body = files ? R"([{"filename": "a", "status": "added"}])" : kPull;
    return r;
  }
  FakeClock& clock;
  std::chrono::milliseconds delay;
  std::vector<std::chrono::milliseconds> timeouts;
  int pages = 0;
};

}  // namespace

TEST_CASE("github client: a total budget is one deadline for every call, cutting a request in flight") {
  FakeClock clock;
  const auto start = clock.now();
  DelayedTransport t(clock, 1500ms);
  auto o = test_options();
  o.budget = 2s;
  o.total_budget = 2s;
  Client client(o, t, clock, nullptr, 1);
  REQUIRE(ok(client.get_pull_request("o/r", 1)));
  const auto e = error_of(client.list_pull_request_files("o/r", 1));
  CHECK(e.http_status == 0);
  CHECK(e.message == "GET /api/v3/repos/o/r/pulls/1/files?per_page=100: the time budget of 2 s for all calls is spent (last attempt: timed out: Operation timed out "
                     "after 500 milliseconds)");
  CHECK(clock.now() - start == 2s);  // not 2 s per call, nor a page's full delay past the deadline
  CHECK(t.timeouts == std::vector<std::chrono::milliseconds>{2000ms, 500ms});
}

// The wall clock set back an hour during every request (NTP, a person): the budget is a
// deadline on the monotonic clock, so it is spent as before, not stretched by the hour.
class SetBackTransport final : public HttpTransport {
 public:
  explicit SetBackTransport(DelayedTransport& inner) : inner_(inner) {}
  std::variant<HttpResponse, TransportError> send(const HttpRequest& request) override {
    // A client whose budget the set-back stretched would page on without end: stop it.
    if (++sent_ > 10) return TransportError{TransportErrorKind::other, "the budget was not kept"};
    inner_.clock.set_wall_clock(inner_.clock.now() - 1h);
    return inner_.send(request);
  }

 private:
  DelayedTransport& inner_;
  int sent_ = 0;
};

TEST_CASE("github client: the budget is measured on the monotonic clock, whatever the wall clock does") {
  FakeClock clock;
  const auto start = clock.monotonic();
  DelayedTransport delayed(clock, 1500ms);
  SetBackTransport t(delayed);
  auto o = test_options();
  o.budget = 2s;
  o.total_budget = 2s;
  Client client(o, t, clock, nullptr, 1);
  REQUIRE(ok(client.get_pull_request("o/r", 1)));
  const auto e = error_of(client.list_pull_request_files("o/r", 1));
  CHECK(e.message == "GET /api/v3/repos/o/r/pulls/1/files?per_page=100: the time budget of 2 s for all calls is spent (last attempt: timed out: Operation timed out "
                     "after 500 milliseconds)");
  CHECK(clock.monotonic() - start == 2s);
  CHECK(delayed.timeouts == std::vector<std::chrono::milliseconds>{2000ms, 500ms});
}

TEST_CASE("github client: without a total budget each call has its own") {
  FakeClock clock;
  const auto start = clock.now();
  DelayedTransport t(clock, 1500ms);
  auto o = test_options();
  o.budget = 2s;
  Client client(o, t, clock, nullptr, 1);
  REQUIRE(ok(client.get_pull_request("o/r", 1)));
  const auto e = error_of(client.list_pull_request_files("o/r", 1));
  CHECK(e.message == "GET /api/v3/repos/o/r/pulls/1/files?page=2: the time budget of 2 s is spent (last attempt: timed out: Operation timed out after 500 "
                     "milliseconds)");
  CHECK(clock.now() - start == 1500ms + 2s);
  CHECK(t.timeouts == std::vector<std::chrono::milliseconds>{2000ms, 2000ms, 500ms});
}

TEST_CASE("github client: a request's timeout is the smaller of its own and the time left") {
  ScriptedTransport t;
  FakeClock clock;
  auto o = test_options();
  o.budget = 10s;
  o.request_timeout = 30s;
  t.add(200, kPull);
  Client client(o, t, clock, nullptr, 1);
  REQUIRE(ok(client.get_pull_request("o/r", 1)));
  o.budget = 100s;
  t.add(200, kPull);
  Client roomy(o, t, clock, nullptr, 1);
  REQUIRE(ok(roomy.get_pull_request("o/r", 1)));
  REQUIRE(t.requests.size() == 2);
  CHECK(t.requests[0].timeout == 10s);
  CHECK(t.requests[1].timeout == 30s);
}

TEST_CASE("github client: a token echoed by the server is redacted where the answer enters") {
  ScriptedTransport t;
  FakeClock clock;
  // base64("x-access-token:s3cret-token"), as in a Basic auth header
  const std::string basic = "eC1hY2Nlc3MtdG9rZW46czNjcmV0LXRva2Vu";
  t.add(200, R"([{"filename": "src/s3cret-token.cu", "status": "added"},
                 {"filename": ")" + basic + R"(", "status": "added"}])",
        {{"link", "<https://ghe.example/api/v3/repos/o/r/pulls/1/files?t=s3cret-token>; rel=\"next\""}});
  t.add(422, R"({"message": "Validation failed for s3cret-token", "errors": ["token s3cret-token is bad"]})");
  t.fail(TransportErrorKind::other, "proxy said: s3cret-token");
  Client client(test_options(), t, clock, nullptr, 1);
  const auto e = error_of(client.list_pull_request_files("o/r", 1));
  CHECK(e.message == "GET /api/v3/repos/o/r/pulls/1/files?t=***: HTTP 422: Validation failed for *** (token *** is bad)");
  CHECK(t.requests[1].url == "https://ghe.example/api/v3/repos/o/r/pulls/1/files?t=***");
  const auto raw = error_of(request(client, "GET", "/x"));
  CHECK(raw.message == "GET /api/v3/x: proxy said: ***");

  t.add(200, R"([{"filename": "src/s3cret-token.cu", "status": "added"}, {"filename": ")" + basic + R"(", "status": "added"}])");
  auto files = client.list_pull_request_files("o/r", 1);
  REQUIRE(ok(files));
  CHECK((*files)[0].filename == "src/***.cu");
  CHECK((*files)[1].filename == "eC1hY2Nlc3MtdG9rZW46***");
}

TEST_CASE("github client: issue updates, comments, labels and refs are typed both ways") {
  ScriptedTransport t;
  FakeClock clock;
  t.add(200, R"({"number": 7, "title": "t", "state": "closed", "labels": [{"name": "flaky"}]})");
  t.add(201, R"({"id": 11, "body": "seen again", "html_url": "https://ghe.example/o/r/issues/7#c11"})");
  t.add(200, R"([{"name": "flaky"}, {"name": "gpu"}])");
  t.add(200, R"({"ref": "refs/heads/main", "object": {"sha": "abc", "type": "commit"}})");
  t.add(200, R"({"ref": "refs/heads/main", "object": {"type": "commit"}})");
  Client client(test_options(), t, clock, nullptr, 1);

  IssueUpdate update;
  update.state = "closed";
  update.labels = std::vector<std::string>{"flaky"};
  auto issue = client.update_issue("o/r", 7, update);
  REQUIRE(ok(issue));
  CHECK(issue->state == "closed");
  CHECK(t.requests[0].method == "PATCH");
  CHECK(t.requests[0].body == R"({"state":"closed","labels":["flaky"]})");  // unset fields are not sent

  auto comment = client.add_issue_comment("o/r", 7, "seen again");
  REQUIRE(ok(comment));
  CHECK(comment->id == 11);
  CHECK(comment->html_url == "https://ghe.example/o/r/issues/7#c11");
  CHECK(t.requests[1].url == "https://ghe.example/api/v3/repos/o/r/issues/7/comments");

  auto labels = client.add_labels("o/r", 7, {"gpu"});
  REQUIRE(ok(labels));
  CHECK(*labels == std::vector<std::string>{"flaky", "gpu"});
  CHECK(t.requests[2].body == R"({"labels":["gpu"]})");

  auto ref = client.get_ref("o/r", "heads/main");
  REQUIRE(ok(ref));
  CHECK(ref->sha == "abc");
  CHECK(ref->type == "commit");
  CHECK(error_of(client.get_ref("o/r", "heads/main")).message ==
        "GET /api/v3/repos/o/r/git/ref/heads/main: unexpected response: field `object.sha`: missing");
}

TEST_CASE("github client: one issue, and the token's own account (GET /user)") {
  ScriptedTransport t;
  FakeClock clock;
  t.add(200, R"({"number": 7, "title": "t", "state": "open", "user": {"login": "octocat", "type": "User"}})");
  t.add(200, R"({"login": "octocat", "id": 1, "type": "User"})");
  t.add(403, R"({"message": "Resource not accessible by integration",
      "documentation_url": "https://docs.github.com/rest/users/users#get-the-authenticated-user", "status": "403"})");
  t.add(403, R"({"message": "Must have admin rights to Repository.", "documentation_url": "https://docs.github.com/rest"})");
  Client client(test_options(), t, clock, nullptr, 1);

  auto issue = client.get_issue("o/r", 7);
  REQUIRE(ok(issue));
  CHECK(issue->author == "octocat");
  CHECK(t.requests[0].method == "GET");
  CHECK(t.requests[0].url == "https://ghe.example/api/v3/repos/o/r/issues/7");

  auto me = client.get_authenticated_user();
  REQUIRE(ok(me));
  CHECK(me->login == "octocat");
  CHECK(t.requests[1].url == "https://ghe.example/api/v3/user");

  const Error refused = error_of(client.get_authenticated_user());
  CHECK(refused.message ==
        "GET /api/v3/user: HTTP 403: Resource not accessible by integration "
        "(https://docs.github.com/rest/users/users#get-the-authenticated-user)");
  CHECK(is_integration_refusal(refused));
  CHECK_FALSE(is_integration_refusal(error_of(client.get_authenticated_user())));  // another 403
}

TEST_CASE("github client: the raw call keeps a wrapped listing's other fields across pages") {
  ScriptedTransport t;
  FakeClock clock;
  t.add(200, R"({"total_count": 3, "jobs": [{"id": 1}, {"id": 2}]})",
        {{"link", R"(<https://ghe.example/api/v3/repos/o/r/actions/runs/1/jobs?page=2>; rel="next")"}});
  t.add(200, R"({"total_count": 3, "jobs": [{"id": 3}]})");
  Client client(test_options(), t, clock, nullptr, 1);
  auto value = request(client, "GET", "/repos/o/r/actions/runs/1/jobs", std::nullopt, true);
  REQUIRE(ok(value));
  CHECK(boost::json::serialize(*value) == R"({"total_count":3,"jobs":[{"id":1},{"id":2},{"id":3}]})");
}

TEST_CASE("github client: the libcurl to load comes from the given environment") {
  MapEnvironment env{{"GATEKIT_LIBCURL", "/nonexistent/libcurl-for-test.so"}};
  auto transport = make_curl_transport(env);
  HttpRequest request;
  request.url = "http://127.0.0.1:9/";
  auto answer = transport->send(request);
  REQUIRE(std::holds_alternative<TransportError>(answer));
  const auto& error = std::get<TransportError>(answer);
  CHECK(error.kind == TransportErrorKind::other);
  CHECK(error.message.rfind("/nonexistent/libcurl-for-test.so could not be loaded: ", 0) == 0);
}

namespace {

// A connection the client owns: what it sent is kept where the test can read it.
class SharedLogTransport final : public HttpTransport {
 public:
  explicit SharedLogTransport(std::shared_ptr<std::vector<HttpRequest>> seen) : seen_(std::move(seen)) {}
  std::variant<HttpResponse, TransportError> send(const HttpRequest& request) override {
    seen_->push_back(request);
    HttpResponse r;
    r.status = 200;
    r.body = "[]";
    r.headers = {{"content-type", "application/json"}};
    return r;
  }

 private:
  std::shared_ptr<std::vector<HttpRequest>> seen_;
};

}  // namespace

TEST_CASE("github connect: the client from the Context's run, environment, transport, clock and workflow") {
  FakeSeams seams;
  seams.run.api_url = "https://ghe.example/api/v3/";
  seams.env.set("GITHUB_TOKEN", "s3cret-token");
  auto seen = std::make_shared<std::vector<HttpRequest>>();
  int connections = 0;
  seams.make_transport = [&] {
    ++connections;
    return std::make_unique<SharedLogTransport>(seen);
  };
  auto context = seams.context();
  auto client = connect(context);
  REQUIRE(client.ok());
  CHECK(connections == 1);
  CHECK(seams.workflow.masked == std::vector<std::string>{"s3cret-token"});
  // The client owns its connection: it outlives the Result it came in.
  Client kept = std::move(client).value();
  REQUIRE(kept.list_statuses("o/r", std::string(40, 'a')).ok());
  REQUIRE(seen->size() == 1);
  CHECK((*seen)[0].url.starts_with("https://ghe.example/api/v3/repos/o/r/commits/"));
  CHECK(header((*seen)[0], "Authorization") == "Bearer s3cret-token");
  // Options the caller adjusted are the ones used.
  auto options = options_for(context, "explicit-token");
  auto adjusted = connect(context, options);
  REQUIRE(adjusted.ok());
  REQUIRE(adjusted->list_statuses("o/r", std::string(40, 'b')).ok());
  CHECK(header((*seen)[1], "Authorization") == "Bearer explicit-token");
}

TEST_CASE("github connect refuses a Context without a transport: could not evaluate, never a crash") {
  FakeSeams seams;
  seams.env.set("GITHUB_TOKEN", "t");
  auto context = seams.context();
  auto client = connect(context);
  REQUIRE_FALSE(client.ok());
  CHECK(client.error().kind == ErrorKind::could_not_evaluate);
  CHECK(client.error().message == "no HTTP transport to reach GitHub");
  seams.make_transport = [] { return std::unique_ptr<HttpTransport>(); };
  auto none = seams.context();
  CHECK(connect(none).error().message == "no HTTP transport to reach GitHub");
}
