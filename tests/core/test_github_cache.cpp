// Conditional requests: the client sends If-None-Match for a URL its ResponseCache holds,
// answers a 304 with the kept body and Link header, keeps every 200 with an ETag; the cache
// file's lines, its errors, and what is written back.
#include <deque>
#include <string>
#include <vector>

#include "catch.hpp"
#include "gatekit/clock.hpp"
#include "gatekit/github_cache.hpp"

using namespace gatekit;
using namespace gatekit::github;

namespace {

class Scripted final : public HttpTransport {
 public:
  std::variant<HttpResponse, TransportError> send(const HttpRequest& request) override {
    requests.push_back(request);
    if (answers.empty()) return TransportError{TransportErrorKind::other, "script exhausted"};
    auto a = answers.front();
    answers.pop_front();
    return a;
  }
  void add(int status, std::string body, std::vector<std::pair<std::string, std::string>> headers) {
    HttpResponse r{status, std::move(headers), std::move(body)};
    if (!r.body.empty()) r.headers.emplace_back("content-type", "application/json; charset=utf-8");
    answers.push_back(r);
  }
  std::string header(std::size_t n, const std::string& name) const {
    for (const auto& [k, v] : requests.at(n).headers)
      if (k == name) return v;
    return "";
  }
  std::deque<HttpResponse> answers;
  std::vector<HttpRequest> requests;
};

const std::string kIssue = R"({"number":1,"title":"t","body":"","state":"open","labels":[],"html_url":"u","user":{"login":"a"}})";

ClientOptions options() {
  ClientOptions o;
  o.base_url = "https://api.example";
  o.token = "tok";
  return o;
}

}  // namespace

TEST_CASE("conditional requests: a 304 reuses the kept body and Link header, and is counted") {
  Scripted t;
  FakeClock clock;
  ResponseCache cache;
  Client client(options(), t, clock);
  use_cache(client, &cache);
  const std::string page2 = "https://api.example/repos/o/r/issues?per_page=100&state=all&page=2";
  // First run: two pages, each with an ETag.
  t.add(200, "[" + kIssue + "]", {{"etag", "W/\"p1\""}, {"link", "<" + page2 + ">; rel=\"next\""}});
  t.add(200, "[]", {{"etag", "W/\"p2\""}});
  auto first = client.list_issues("o/r", "", "all");
  REQUIRE(first);
  CHECK(first->size() == 1);
  CHECK(t.header(0, "If-None-Match").empty());
  CHECK(cache.size() == 2);
  CHECK(cache.not_modified() == 0);
  // Again: both pages answer 304 without a body (and without a Link header, as GitHub's 304s
  // need not carry one); the kept Link still leads to page 2.
  t.add(304, "", {{"etag", "W/\"p1\""}});
  t.add(304, "", {{"etag", "W/\"p2\""}});
  auto again = client.list_issues("o/r", "", "all");
  REQUIRE(again);
  CHECK(again->size() == 1);
  CHECK((*again)[0].title == "t");
  CHECK(t.requests.size() == 4);
  CHECK(t.header(2, "If-None-Match") == "W/\"p1\"");
  CHECK(t.header(3, "If-None-Match") == "W/\"p2\"");
  CHECK(cache.not_modified() == 2);
}

TEST_CASE("conditional requests: a changed answer replaces the kept one; no ETag, nothing kept") {
  Scripted t;
  FakeClock clock;
  ResponseCache cache;
  Client client(options(), t, clock);
  use_cache(client, &cache);
  t.add(200, "[" + kIssue + "]", {{"etag", "\"a\""}});
  t.add(200, "[]", {{"etag", "\"b\""}});
  t.add(304, "", {});
  REQUIRE(client.list_issues("o/r", "", "all"));
  REQUIRE(client.list_issues("o/r", "", "all"));
  auto third = client.list_issues("o/r", "", "all");
  REQUIRE(third);
  CHECK(third->empty());  // the body of "b", not of "a"
  CHECK(t.header(1, "If-None-Match") == "\"a\"");
  CHECK(t.header(2, "If-None-Match") == "\"b\"");

  ResponseCache none;
  Client plain(options(), t, clock);
  use_cache(plain, &none);
  t.add(200, "[]", {});
  REQUIRE(plain.list_issues("o/r", "", "all"));
  CHECK(none.size() == 0);
}

TEST_CASE("conditional requests: without a cache no If-None-Match is sent, and a 304 is not a body") {
  Scripted t;
  FakeClock clock;
  Client client(options(), t, clock);
  t.add(200, "[]", {{"etag", "\"a\""}});
  REQUIRE(client.list_issues("o/r", "", "all"));
  CHECK(t.header(0, "If-None-Match").empty());
}

TEST_CASE("the cache file: written back with the entries used, read again, errors name line and field") {
  ResponseCache cache;
  REQUIRE(cache.add_line(R"({"gatekit_api_cache": 1})", "c:1: "));
  REQUIRE(cache.add_line(R"({"url": "https://x/a", "etag": "\"1\"", "link": "", "body": "[1]"})", "c:2: "));
  REQUIRE(cache.add_line(R"({"url": "https://x/b", "etag": "\"2\"", "link": "<n>", "body": "[2]"})", "c:3: "));
  REQUIRE(cache.add_line("", "c:4: "));
  CHECK(cache.size() == 2);
  CHECK(cache.to_lines() == "{\"gatekit_api_cache\":1}\n");  // nothing used yet
  const auto b = cache.find("https://x/b");
  REQUIRE(b);
  CHECK(b->link == "<n>");
  cache.store("https://x/c", {"\"3\"", "", "[3]"});
  const auto lines = cache.to_lines();
  CHECK(lines == "{\"gatekit_api_cache\":1}\n"
                 "{\"url\":\"https://x/b\",\"etag\":\"\\\"2\\\"\",\"link\":\"<n>\",\"body\":\"[2]\"}\n"
                 "{\"url\":\"https://x/c\",\"etag\":\"\\\"3\\\"\",\"link\":\"\",\"body\":\"[3]\"}\n");

  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"[1]"}, "c:1: expected the header {\"gatekit_api_cache\": 1}"},
      {{R"({"gatekit_api_cache": 2})"}, "c:1: expected the header {\"gatekit_api_cache\": 1}"},
      {{"{"}, "c:1: not JSON: "},
      {{R"({"gatekit_api_cache": 1})", "[]"}, "c:2: expected an object {\"url\", \"etag\", \"link\", \"body\"}"},
      {{R"({"gatekit_api_cache": 1})", R"({"etag": "e", "link": "", "body": ""})"}, "c:2: url: missing"},
      {{R"({"gatekit_api_cache": 1})", R"({"url": "u", "etag": 1, "link": "", "body": ""})"},
       "c:2: etag: expected a string"},
      {{R"({"gatekit_api_cache": 1})", R"({"url": "u", "etag": "", "link": "", "body": ""})"}, "c:2: etag: empty"},
      {{R"({"gatekit_api_cache": 1})", R"({"url": "u", "etag": "e", "link": "", "body": ""})",
        R"({"url": "u", "etag": "f", "link": "", "body": ""})"},
       "c:3: url: a second entry for u"},
  };
  for (const auto& [file, message] : cases) {
    INFO(message);
    ResponseCache c;
    std::string got;
    for (std::size_t i = 0; i < file.size() && got.empty(); ++i)
      if (auto st = c.add_line(file[i], "c:" + std::to_string(i + 1) + ": "); !st) got = st.error().message;
    CHECK(got.rfind(message, 0) == 0);
    CHECK_FALSE(got.empty());
  }
}

TEST_CASE("the cache keeps at most its byte budget of bodies") {
  ResponseCache cache(10);
  cache.store("u1", {"e", "", "123456"});
  cache.store("u2", {"e", "", "123456"});  // over 10 bytes: not kept
  CHECK(cache.size() == 1);
  cache.store("u1", {"f", "", "1234567890"});  // replaces within the budget
  CHECK(cache.find("u1")->etag == "f");
  cache.store("u1", {"g", "", "12345678901"});  // too big: the stale one goes too
  CHECK_FALSE(cache.find("u1"));
  REQUIRE(cache.add_line(R"({"gatekit_api_cache": 1})", "c:1: "));
  REQUIRE(cache.add_line(R"({"url": "u3", "etag": "e", "link": "", "body": "12345678901"})", "c:2: "));
  CHECK(cache.size() == 0);  // read past the budget: skipped, not an error
}
