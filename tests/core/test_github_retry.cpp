// The retry / rate-limit policy (table-driven): which answers are retried, waits, budgets.
#include <string>
#include <vector>

#include "catch.hpp"
#include "gatekit/github_detail.hpp"

using namespace gatekit;
using namespace gatekit::github;
using namespace gatekit::github::detail;
using namespace std::chrono_literals;

namespace {
HttpResponse response(int status, std::vector<std::pair<std::string, std::string>> headers = {},
                      std::string body = "") {
  HttpResponse r;
  r.status = status;
  r.headers = std::move(headers);
  r.body = std::move(body);
  return r;
}
const Clock::time_point kNow{std::chrono::milliseconds(1'700'000'000'000)};
}  // namespace

TEST_CASE("github: answers are classified for retry") {
  struct Row {
    HttpResponse r;
    Verdict verdict;
    std::chrono::milliseconds wait;
  };
  const std::string secondary = R"({"message":"You have exceeded a secondary rate limit."})";
  const std::vector<Row> rows = {
      {response(200), Verdict::deliver, 0ms},
      {response(204), Verdict::deliver, 0ms},
      {response(404), Verdict::deliver, 0ms},
      {response(422), Verdict::deliver, 0ms},
      {response(401), Verdict::deliver, 0ms},
      {response(403, {}, R"({"message":"Resource not accessible by integration"})"), Verdict::deliver, 0ms},
      {response(500), Verdict::retry_backoff, 0ms},
      {response(502), Verdict::retry_backoff, 0ms},
      {response(503), Verdict::retry_backoff, 0ms},
      {response(403, {{"retry-after", "7"}}), Verdict::retry_wait, 7000ms},
      {response(429, {{"retry-after", "2"}}), Verdict::retry_wait, 2000ms},
      {response(429), Verdict::retry_wait, 60000ms},
      {response(403, {}, secondary), Verdict::retry_wait, 60000ms},
      {response(403, {{"retry-after", "30"}}, secondary), Verdict::retry_wait, 30000ms},
      // primary limit: reset 10 s after kNow, plus the 1 s margin
      {response(403, {{"x-ratelimit-remaining", "0"}, {"x-ratelimit-reset", "1700000010"}}), Verdict::retry_wait, 11000ms},
      // reset already passed: only the margin
      {response(403, {{"x-ratelimit-remaining", "0"}, {"x-ratelimit-reset", "1699999990"}}), Verdict::retry_wait, 1000ms},
      // remaining not 0: a permission 403
      {response(403, {{"x-ratelimit-remaining", "12"}, {"x-ratelimit-reset", "1700000010"}}), Verdict::deliver, 0ms},
      // unparsable Retry-After falls through to the other signals
      {response(403, {{"retry-after", "soon"}}), Verdict::deliver, 0ms},
  };
  int index = 0;
  for (const auto& row : rows) {
    INFO("row " << index++ << " status " << row.r.status);
    auto a = assess_response(row.r, kNow);
    CHECK(a.verdict == row.verdict);
    CHECK(a.wait == row.wait);
  }
}

TEST_CASE("github: primary rate limits report when they reset") {
  auto a = assess_response(response(403, {{"x-ratelimit-remaining", "0"}, {"x-ratelimit-reset", "1700003600"}}), kNow);
  REQUIRE(a.reset_epoch);
  CHECK(*a.reset_epoch == 1700003600);
  CHECK(format_utc(*a.reset_epoch) == "2023-11-14T23:13:20Z");
  CHECK(a.reason == "HTTP 403: rate limit exceeded (x-ratelimit-remaining: 0)");
}

TEST_CASE("github: transport errors are retried except configuration-like ones") {
  CHECK(assess_transport_error({TransportErrorKind::connect, "refused"}).verdict == Verdict::retry_backoff);
  CHECK(assess_transport_error({TransportErrorKind::timeout, "30 s"}).verdict == Verdict::retry_backoff);
  CHECK(assess_transport_error({TransportErrorKind::dropped, "eof"}).verdict == Verdict::retry_backoff);
  CHECK(assess_transport_error({TransportErrorKind::other, "SSL certificate problem"}).verdict == Verdict::fail);
  CHECK(assess_transport_error({TransportErrorKind::dropped, "eof"}).reason == "connection dropped: eof");
}

TEST_CASE("github: backoff doubles, is capped and jittered within [d/2, d]") {
  struct Row {
    int attempt;
    double jitter;
    std::chrono::milliseconds expected;
  };
  const std::vector<Row> rows = {
      {1, 0.0, 500ms}, {1, 0.999, 999ms}, {2, 0.0, 1000ms}, {3, 0.5, 3000ms},
      {5, 1.0, 16000ms}, {6, 1.0, 30000ms}, {40, 0.0, 15000ms}, {0, 0.0, 500ms},
  };
  for (const auto& row : rows) {
    INFO("attempt " << row.attempt << " jitter " << row.jitter);
    CHECK(backoff_delay(row.attempt, row.jitter) == row.expected);
  }
}

TEST_CASE("github: the next step respects attempts and the budget") {
  Assessment backoff{Verdict::retry_backoff, 0ms, std::nullopt, "HTTP 502"};
  Assessment wait{Verdict::retry_wait, 60000ms, std::nullopt, "secondary"};
  CHECK(next_step({Verdict::deliver, 0ms, std::nullopt, ""}, 1, 6, 1000ms, 0).action == StepAction::deliver);
  CHECK(next_step({Verdict::fail, 0ms, std::nullopt, ""}, 1, 6, 1000ms, 0).action == StepAction::fail);
  auto s = next_step(backoff, 1, 6, 120000ms, 0.0);
  CHECK(s.action == StepAction::wait_and_retry);
  CHECK(s.wait == 500ms);
  CHECK(next_step(backoff, 6, 6, 120000ms, 0.0).action == StepAction::give_up_attempts);
  CHECK(next_step(backoff, 3, 6, 1000ms, 0.0).action == StepAction::give_up_budget);  // needs 2000 ms
  CHECK(next_step(wait, 1, 6, 120000ms, 0.0).action == StepAction::wait_and_retry);
  CHECK(next_step(wait, 1, 6, 59999ms, 0.0).action == StepAction::give_up_budget);
}
