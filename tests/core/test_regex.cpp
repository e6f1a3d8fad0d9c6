// gatekit::Regex: std::regex's ECMAScript matching behind a class compiled once in the core,
// over the patterns the tools use.
#include <stdexcept>
#include <string>
#include <vector>

#include "catch.hpp"
#include "gatekit/regex.hpp"

using gatekit::Regex;

TEST_CASE("regex: matches takes the whole text, found_in any part of it") {
  struct Row {
    const char* pattern;
    std::string text;
    bool matches;
    bool found_in;
  };
  const Row rows[] = {
      {"[A-Za-z_][A-Za-z0-9_]*", "gpu_only", true, true},
      {"[A-Za-z_][A-Za-z0-9_]*", "9lives", false, true},
      {"[A-Za-z_][A-Za-z0-9_]*", "", false, false},
      {"[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]+", "octo-org/repo.js", true, true},
      {"[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]+", "octo org/repo", false, true},
      {"[A-Za-z0-9][A-Za-z0-9._-]{0,99}", std::string(100, 'a'), true, true},
      {"[A-Za-z0-9][A-Za-z0-9._-]{0,99}", std::string(101, 'a'), false, true},
      {R"( \[\.\.\. [0-9]+ bytes left out\]$)", "t::a [... 12 bytes left out]", false, true},
      {R"( \[\.\.\. [0-9]+ bytes left out\]$)", "t::a [... 12 bytes left out] then", false, false},
      {"[-+]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)", "-1.5", true, true},
      {"[-+]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)", "1.5s", false, true},
      // A NUL inside the text is a character like any other (string_view, not a C string).
      {"a.b", std::string("a\0b", 3), true, true},
  };
  for (const auto& row : rows) {
    INFO(row.pattern << " on '" << row.text << "'");
    const Regex re(row.pattern);
    CHECK(re.matches(row.text) == row.matches);
    CHECK(re.found_in(row.text) == row.found_in);
  }
}

TEST_CASE("regex: all_matches lists every match with its groups, an unmatched group empty") {
  const Regex part("([0-9]+(\\.[0-9]+)?)(ms|s|m|h)");
  using Groups = std::vector<std::vector<std::string>>;
  CHECK(part.all_matches("1h30m2.5s") ==
        Groups{{"1h", "1", "", "h"}, {"30m", "30", "", "m"}, {"2.5s", "2.5", ".5", "s"}});
  CHECK(part.all_matches("x 10ms y") == Groups{{"10ms", "10", "", "ms"}});
  CHECK(part.all_matches("none").empty());
  CHECK(part.all_matches("").empty());
}

TEST_CASE("regex: a moved-from pattern's new owner matches; an invalid pattern throws") {
  Regex first("a+");
  Regex second(std::move(first));
  CHECK(second.matches("aaa"));
  CHECK_THROWS_AS(Regex("(unclosed"), std::runtime_error);  // std::regex_error
}
