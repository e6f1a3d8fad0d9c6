// The JUnit reader's fuzz property (fuzz/junit_property.hpp) over fuzz/corpus/junit_reader
// plus seeded random mutations: deterministic, any compiler. The libFuzzer target
// fuzz/junit_reader.cpp explores the same property with clang; what it found is pinned here.
#include <random>
#include <string>
#include <vector>

#include "../../fuzz/junit_property.hpp"
#include "catch.hpp"
#include "fuzz_corpus.hpp"

using namespace gatekit;

namespace {

constexpr std::string_view kXmlTokens[] = {"<testsuite>", "</testsuite>", "<testcase name=\"t\">", "</testcase>",
                                           "<failure message=\"m\">", "</failure>", "<skipped/>", "<![CDATA[",
                                           "]]>", "&amp;", "&#0;", "\xff", "\xc3\xa9", "<a/>", "\"", "<", ">",
                                           "<system-out>", "<flakyFailure/>", "<!DOCTYPE x>"};

std::vector<junit::TestCase> read_cases(std::string_view text, junit::ReadOptions options,
                                       Result<junit::ReadStats>& out) {
  std::vector<junit::TestCase> cases;
  out = junit::read_text(text, "r.xml", [&](const junit::TestCase& c) { cases.push_back(c); }, options);
  return cases;
}

std::string repeat(std::string_view s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

}  // namespace

TEST_CASE("JUnit fuzz property holds on the corpus and 5000 seeded mutations") {
  const auto inputs = gatekit::testing::read_corpus("junit_reader");
  REQUIRE(inputs.size() >= 6);
  for (const auto& input : inputs) {
    CAPTURE(input);
    CHECK(gatekit::fuzzing::junit_property_violation(input).empty());
  }
  std::mt19937 rng(20261201);
  for (int i = 0; i < 5000; ++i) {
    const auto input = gatekit::testing::mutate(inputs, kXmlTokens, rng);
    const auto violation = gatekit::fuzzing::junit_property_violation(input);
    if (!violation.empty()) {
      CAPTURE(input, violation);
      FAIL("property violated");
    }
  }
}

// Found by fuzz_junit_reader: expat still reports the end of an empty element whose start the
// reader refused, and the reader popped its empty element stack (a crash under ASan: the
// asan preset runs these).
TEST_CASE("JUnit reader refuses an empty non-JUnit root element without touching its stack") {
  Result<junit::ReadStats> stats = junit::ReadStats{};
  const auto cases = read_cases("<html/>", {}, stats);
  REQUIRE_FALSE(stats.ok());
  CHECK(stats.error().message ==
        "r.xml:1:1: the root element <html> is not a JUnit report (expected <testsuites> or <testsuite>)");
  CHECK(cases.empty());
}

TEST_CASE("JUnit reader refuses an empty element past the depth limit without touching its stack") {
  junit::ReadOptions options;
  options.max_depth = 3;
  Result<junit::ReadStats> stats = junit::ReadStats{};
  read_cases("<testsuites><testsuite><testcase name=\"t\"><x/></testcase></testsuite></testsuites>", options, stats);
  REQUIRE_FALSE(stats.ok());
  CHECK(stats.error().message == "r.xml:1:43: elements nested deeper than 3 levels");
}

// Found by fuzz_junit_reader: a long text arriving in one piece was trimmed to its last
// bytes in the middle of a character, so the excerpt's tail started with a continuation
// byte (invalid UTF-8 in every report and summary built from it) and differed from the same
// report read in smaller pieces.
TEST_CASE("JUnit excerpts keep whole characters when a long text arrives in one piece") {
  junit::ReadOptions options;
  options.excerpt_bytes = 64;
  const std::string text = repeat("\xc3\xa9", 100) + "x";  // 201 bytes: the last 32 start mid-character
  Result<junit::ReadStats> stats = junit::ReadStats{};
  const std::string report = "<testsuite><testcase name=\"t\"><failure>" + text + "</failure></testcase></testsuite>";
  const auto cases = read_cases(report, options, stats);
  REQUIRE(stats.ok());
  REQUIRE(cases.size() == 1);
  CHECK(cases[0].detail == repeat("\xc3\xa9", 16) + "\n[... 138 bytes left out ...]\n" + repeat("\xc3\xa9", 15) + "x");
}
