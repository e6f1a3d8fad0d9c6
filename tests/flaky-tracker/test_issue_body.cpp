// Issue bodies and comments: within GitHub's limits whatever the failure text, valid UTF-8,
// and no outside text escaping its code block.
#include <string>

#include "catch.hpp"
#include "gatekit/utf8.hpp"
#include "issue_body.hpp"
#include "summary.hpp"

using namespace gatekit;
using namespace gatekit::flaky_tracker;

TEST_CASE("a huge failure is trimmed at a character boundary; the body stays under 65,536 characters") {
  std::string huge;
  for (int i = 0; i < 200'000; ++i) huge += "\xC3\xA9````";  // é and backtick runs, 1.2 MB
  const FlakeText flake{huge, huge, "tests/t.py", 3};
  const RunStamp run{"k", "https://github.com/o/r/actions/runs/1", "2026-12-01T00:00:00Z", RunKind::pr};
  const std::string body = issue_body("t.py::x", IssueState{}, Rules{}, failure_section(flake, run.url, kMaxBodyBytes));
  CHECK(body.size() <= kMaxBodyBytes);
  CHECK(is_valid_utf8(body));
  CHECK(marker_id(body) == "t.py::x");
  CHECK(body.find("\n`````text\n") != std::string::npos);  // a fence longer than the text's runs
  const std::string comment = flake_comment(flake, run, false);
  CHECK(comment.size() <= kMaxCommentBytes + 2100);  // the message (2,000) plus the output's share
  CHECK(is_valid_utf8(comment));
}

TEST_CASE("the failure section survives a state update, and hostile text stays in its block") {
  const FlakeText flake{"boom\n```\n<!-- gatekit-flaky-failure -->\n# heading", "trace", "", 0};
  const std::string section = failure_section(flake, "https://ci/run/1", 4000);
  const std::string first = issue_body("t.py::x", IssueState{1}, Rules{}, section);
  const std::string kept = failure_section_of(first);
  CHECK(kept == section);
  const std::string second = issue_body("t.py::x", IssueState{2}, Rules{}, kept);
  CHECK(failure_section_of(second) == section);
  CHECK(section.find("````text\nboom\n```\n<!-- gatekit-flaky-failure -->\n# heading\n````\n") != std::string::npos);
}

TEST_CASE("shorten: bytes, whole characters, an ellipsis") {
  CHECK(shorten("abc", 3) == "abc");
  CHECK(shorten("abcdef", 4) == "a\xE2\x80\xA6");
  CHECK(shorten("\xC3\xA9\xC3\xA9\xC3\xA9", 6) == "\xC3\xA9\xC3\xA9\xC3\xA9");
  CHECK(shorten("\xC3\xA9\xC3\xA9\xC3\xA9x", 6) == "\xC3\xA9\xE2\x80\xA6");
  CHECK(issue_title(std::string(500, 'a') + "\n") .size() <= 12 + 200);
}
