// The typed decoders on recorded real GitHub responses (npm @octokit/fixtures): what the
// client turns GitHub's own bodies into, not bodies we wrote ourselves.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "catch.hpp"
#include "gatekit/github_decode.hpp"

using namespace gatekit;
using namespace gatekit::github;
using namespace gatekit::github::detail;
namespace json = boost::json;

namespace {

// The recorded exchanges of one scenario: [{method, path, status, response, headers}, ...].
json::array scenario(const std::string& name) {
  // The npm test packages (scripts/install-deps.sh: `npm ci --prefix tests/node`).
  const auto modules = std::filesystem::path(GATEKIT_SOURCE_DIR) / "tests" / "node" / "node_modules";
  const auto file = modules / "@octokit" / "fixtures" / "scenarios" / "api.github.com" /
                    name / "normalized-fixture.json";
  std::ifstream in(file);
  INFO(file.string());
  REQUIRE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  return json::parse(text.str()).as_array();
}

HttpResponse response_of(const json::object& exchange) {
  HttpResponse r;
  r.status = static_cast<int>(exchange.at("status").as_int64());
  r.body = json::serialize(exchange.at("response"));
  r.headers.emplace_back("content-type", "application/json; charset=utf-8");
  return r;
}

}  // namespace

TEST_CASE("github recorded: every issue of the paginate-issues pages decodes, with the Link chain") {
  std::size_t issues = 0;
  std::int64_t previous = 0;
  for (const auto& exchange : scenario("paginate-issues")) {
    const auto& e = exchange.as_object();
    auto decoded = decode_array<Issue>(e.at("response"), decode_issue);
    REQUIRE(decoded.ok());
    for (const auto& issue : *decoded) {
      CHECK(issue.number > 0);
      CHECK_FALSE(issue.title.empty());
      CHECK((issue.state == "open" || issue.state == "closed"));
      CHECK(issue.html_url.rfind("https://github.com/octokit-fixture-org/paginate-issues/issues/", 0) == 0);
      if (previous != 0) CHECK(issue.number < previous);  // newest first, across pages
      previous = issue.number;
      ++issues;
    }
  }
  CHECK(issues == 13);
}

TEST_CASE("github recorded: a created commit status decodes as GitHub returned it") {
  const auto exchanges = scenario("create-status");
  REQUIRE(exchanges.size() >= 1);
  const auto& first = exchanges[0].as_object();
  auto status = decode_status(first.at("response"));
  REQUIRE(status.ok());
  CHECK(status->state == "failure");
  CHECK(status->context == "example/1");
  CHECK(status->description == "create-status failure test");
  CHECK(status->target_url == "https://example.com");
  CHECK(status->created_at == "2017-10-10T16:00:00Z");
  CHECK(status->creator == "octokit-fixture-user-a");  // who posted it: gpu-gate trusts only its own poster's
}

TEST_CASE("github recorded: GitHub's 422 validation error becomes a typed error with its message") {
  const auto exchanges = scenario("errors");
  const auto& exchange = exchanges.at(0).as_object();
  const auto error = error_from_response(response_of(exchange), "POST", "/repos/octokit-fixture-org/errors/labels");
  CHECK(error.kind == ErrorKind::could_not_evaluate);
  CHECK(error.http_status == 422);
  CHECK(error.message.find(std::string(exchange.at("response").at("message").as_string())) != std::string::npos);
  CHECK(error.message.find("(" + std::string(exchange.at("response").at("documentation_url").as_string()) + ")") !=
        std::string::npos);
}

TEST_CASE("github recorded: search results decode as issues from the wrapped items list") {
  const auto exchanges = scenario("search-issues");
  const auto& exchange = exchanges.at(0).as_object();
  const auto& body = exchange.at("response").as_object();
  auto issues = decode_array<Issue>(body.at("items"), decode_issue);
  REQUIRE(issues.ok());
  CHECK(static_cast<std::int64_t>(issues->size()) == body.at("total_count").as_int64());
  for (const auto& issue : *issues) CHECK_FALSE(issue.title.empty());
}

TEST_CASE("github recorded: a branch without protection is GitHub's 404 'Branch not protected'") {
  // branch-protection: GET protection of an unprotected branch, then PUT (which answers the
  // protection as GET does) twice: without status checks, then requiring "foo/bar" from any source.
  const auto exchanges = scenario("branch-protection");
  const auto& missing = exchanges.at(0).as_object();
  REQUIRE(missing.at("status").as_int64() == 404);
  const auto error = error_from_response(response_of(missing), "GET",
                                         "https://api.github.com/repos/o/r/branches/main/protection");
  CHECK(is_not_protected(error));
  // Any other 404 (how GitHub hides protection from a token without admin rights) is no such answer.
  HttpResponse hidden = response_of(missing);
  hidden.body = R"({"message": "Not Found", "documentation_url": "https://docs.github.com/rest"})";
  CHECK_FALSE(is_not_protected(error_from_response(hidden, "GET", "https://api.github.com/x")));

  const auto without_checks = decode_branch_protection(exchanges.at(1).as_object().at("response"));
  REQUIRE(without_checks.ok());
  CHECK(without_checks->checks.empty());
  const auto with_checks = decode_branch_protection(exchanges.at(2).as_object().at("response"));
  REQUIRE(with_checks.ok());
  REQUIRE(with_checks->checks.size() == 1);
  CHECK(with_checks->checks[0].context == "foo/bar");
  CHECK_FALSE(with_checks->checks[0].app_id.has_value());
}

TEST_CASE("github recorded: a repository's default branch, a folder's entries and a raw file") {
  const auto repository = decode_repository(scenario("get-repository").at(0).as_object().at("response"));
  REQUIRE(repository.ok());
  CHECK(repository->full_name == "octokit-fixture-org/hello-world");
  CHECK(repository->default_branch == "master");
  const auto content = scenario("get-content");
  const auto entries = decode_array<ContentEntry>(content.at(0).as_object().at("response"), decode_content_entry);
  REQUIRE(entries.ok());
  REQUIRE_FALSE(entries->empty());
  CHECK((*entries)[0].name == "README.md");
  CHECK((*entries)[0].type == "file");
  // The second exchange asked for the raw media type: a string, never a file object.
  const auto raw = decode_file_content(content.at(1).as_object().at("response"));
  REQUIRE_FALSE(raw.ok());
  CHECK(raw.error().message == "expected a JSON object");
}
