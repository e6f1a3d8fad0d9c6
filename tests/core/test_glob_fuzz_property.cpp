// The glob fuzz property (fuzz/glob_property.hpp) over the corpus in fuzz/corpus/glob
// plus seeded random patterns and paths: deterministic, so g++
// builds exercise what the libFuzzer target explores further under clang. The super-
// linearity check counts matcher steps; nothing here is timed.
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "../../fuzz/glob_property.hpp"
#include "catch.hpp"
#include "fuzz_corpus.hpp"

namespace {

std::string random_input(std::mt19937& rng) {
  static const std::vector<std::string> tokens{
      "a", "b", "/", ".", "*", "**", "**/", "?", "+", "!", "[", "]", "[a-c]", "[^a]", "[!a]", "{", "}", ",",
      "{a,b}", "{1..3}", "(", ")", "|", "@(", "+(", "*(", "?(", "!(", "\\", "-", "^", "$", "x", "src", "md"};
  std::string pattern;
  const int n = 1 + static_cast<int>(rng() % 10);
  for (int i = 0; i < n; ++i) pattern += tokens[rng() % tokens.size()];
  if (rng() % 4 == 0) return pattern;  // matched against the property's fixed paths
  static const std::string alphabet = "ab/.x!*[]()";
  std::string path;
  const int len = static_cast<int>(rng() % 40);
  for (int i = 0; i < len; ++i) path += alphabet[rng() % alphabet.size()];
  return pattern + "\n" + path;
}

}  // namespace

TEST_CASE("glob fuzz property holds on the corpus and 5000 seeded inputs") {
  const auto inputs = gatekit::testing::read_corpus("glob");
  REQUIRE(inputs.size() >= 8);
  for (const auto& input : inputs) {
    INFO(input);
    CHECK(gatekit::fuzzing::glob_property_violation(input).empty());
  }
  std::mt19937 rng(4242);
  for (int i = 0; i < 5000; ++i) {
    const auto input = random_input(rng);
    const auto violation = gatekit::fuzzing::glob_property_violation(input);
    if (!violation.empty()) {
      INFO("input: " << input);
      FAIL(violation);
    }
  }
}

TEST_CASE("matching cost stays linear on patterns that make backtracking matchers explode") {
  using namespace gatekit::glob;
  // a*a*...a*b against a long run of 'a': exponential for a naive backtracker.
  std::string pattern;
  for (int i = 0; i < 20; ++i) pattern += "a*";
  pattern += "b";
  auto p = std::get<Pattern>(Pattern::compile(pattern, Dialect::github));
  std::uint64_t previous = 0;
  for (std::size_t len : {100u, 200u, 400u}) {
    MatchStats stats;
    CHECK_FALSE(p.body_matches(std::string(len, 'a'), &stats));
    CHECK(stats.steps <= 2 * p.size() * (len + 1));
    if (previous != 0) CHECK(stats.steps * 10 <= previous * 22);  // doubling the input about doubles the work
    previous = stats.steps;
  }
}
