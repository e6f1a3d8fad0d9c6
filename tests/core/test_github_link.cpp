// Link header parsing and URL building (table-driven).
#include <string>
#include <vector>

#include "catch.hpp"
#include "gatekit/github_detail.hpp"

using namespace gatekit::github::detail;

TEST_CASE("github: next link is found in GitHub's Link headers") {
  struct Row {
    std::string header;
    std::optional<std::string> next;
  };
  const std::vector<Row> rows = {
      {R"(<https://api.github.com/repositories/1/issues?page=2>; rel="next", <https://api.github.com/repositories/1/issues?page=5>; rel="last")",
       "https://api.github.com/repositories/1/issues?page=2"},
      {R"(<https://x/a?page=1>; rel="prev", <https://x/a?page=3>; rel="next", <https://x/a?page=1>; rel="first")",
       "https://x/a?page=3"},
      {R"(<https://x/a?page=4>; rel="prev", <https://x/a?page=1>; rel="first")", std::nullopt},  // last page
      {"", std::nullopt},
      {R"(<https://x/a?q=a,b&page=2>; rel="next")", "https://x/a?q=a,b&page=2"},  // comma inside <>
      {R"(<https://x/b>; rel=next)", "https://x/b"},                               // unquoted rel
      {R"(<https://x/c>; REL="Next")", "https://x/c"},                             // case-insensitive
      {R"(<https://x/d>; title="a, b"; rel="next")", "https://x/d"},               // comma in a quoted param
      {R"(<https://x/e>; rel="last next")", "https://x/e"},                        // several rels
      {R"(https://x/f; rel="next")", std::nullopt},                                // no angle brackets
      {R"(<>; rel="next")", std::nullopt},
      {R"(<https://x/g>)", std::nullopt},
  };
  for (const auto& row : rows) {
    INFO(row.header);
    CHECK(next_link(row.header) == row.next);
  }
}

TEST_CASE("github: all rels of a Link header are listed") {
  auto links = parse_link_header(R"(<u1>; rel="prev", <u2>; rel="next last")");
  REQUIRE(links.size() == 3);
  CHECK(links[0].url == "u1");
  CHECK(links[0].rel == "prev");
  CHECK(links[1].rel == "next");
  CHECK(links[2].rel == "last");
  CHECK(links[2].url == "u2");
}

TEST_CASE("github: URLs are joined and encoded") {
  CHECK(join_url("https://api.github.com", "/repos/o/r") == "https://api.github.com/repos/o/r");
  CHECK(join_url("https://ghe.example/api/v3/", "/repos/o/r") == "https://ghe.example/api/v3/repos/o/r");
  CHECK(join_url("https://ghe.example/api/v3", "repos/o/r") == "https://ghe.example/api/v3/repos/o/r");
  CHECK(join_url("https://a", "https://b/x") == "https://b/x");
  CHECK(percent_encode("a b/c?d&e=f~._-") == "a%20b%2Fc%3Fd%26e%3Df~._-");
  CHECK(encode_segments("heads/feature x") == "heads/feature%20x");
  CHECK(encode_segments("o/r?x") == "o/r%3Fx");
  CHECK(add_query("https://a/x", "labels", "flaky test") == "https://a/x?labels=flaky%20test");
  CHECK(add_query("https://a/x?state=open", "per_page", "100") == "https://a/x?state=open&per_page=100");
  CHECK(has_query_param("https://a/x?per_page=3&page=2", "per_page"));
  CHECK_FALSE(has_query_param("https://a/x?xper_page=3", "per_page"));
  CHECK_FALSE(has_query_param("https://a/x", "per_page"));
  CHECK(origin_of("https://h:8080/x?y") == "https://h:8080");
  CHECK(origin_of("http://127.0.0.1:5/") == "http://127.0.0.1:5");
  CHECK(origin_of("/relative") == "");
  CHECK(path_of("https://h/api/v3/repos/x?y") == "/api/v3/repos/x?y");
  CHECK(path_of("https://h") == "/");
}
