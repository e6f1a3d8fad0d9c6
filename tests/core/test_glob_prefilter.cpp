// The facts a PatternList uses to rule a pattern out before running it (Pattern::body_facts):
// what they are for the usual shapes in both dialects, and that they never rule out a path
// the pattern matches.
#include <random>

#include "catch.hpp"
#include "random_globs.hpp"
#include "gatekit/glob.hpp"

using namespace gatekit::glob;

namespace {

Pattern compiled(const std::string& text, Dialect d) {
  auto r = Pattern::compile(text, d);
  if (auto* e = std::get_if<PatternError>(&r)) FAIL("pattern '" << text << "' rejected: " << e->message);
  return std::get<Pattern>(std::move(r));
}

struct Row {
  std::string pattern;
  Dialect dialect;
  std::string prefix, suffix, required, required_in_name;
  std::uint32_t min_slashes;
  std::optional<std::uint32_t> max_slashes;
};

}  // namespace

TEST_CASE("body facts of the usual shapes") {
  const auto g = Dialect::github;
  const auto p = Dialect::picomatch;
  // `*/` n times, then `*`: exactly n slashes (the most '/' is counted up to 32).
  const auto levels = [](int n) {
    std::string text;
    for (int k = 0; k < n; ++k) text += "*/";
    return text + "*";
  };
  const std::vector<Row> rows{
      // literal path: everything is known
      {"src/a.py", g, "src/a.py", "src/a.py", "./acprsy", ".apy", 1, 1},
      // a folder and everything under it
      {"docs/**", g, "docs/", "", "/cdos", "", 1, std::nullopt},
      // an extension anywhere
      {"**/*.md", g, "", ".md", ".dm", ".dm", 0, std::nullopt},
      // a name anywhere, with two required letters in it (any order of other bytes)
      {"**/*q*m*", g, "", "", "mq", "mq", 0, std::nullopt},
      // a fixed depth: exactly two slashes
      {"*/nn*/*", g, "", "", "/n", "", 2, 2},
      // a folder prefix, a name prefix and an extension
      {"x/**/test_*y*.py", g, "x/", ".py", "./_epstxy", "._epsty", 1, std::nullopt},
      // a negated pattern: the facts are the body's
      {"!**/api*/**/*te*", g, "", "", "/aeipt", "et", 1, std::nullopt},
      // github's `?` makes the character before it optional (here a '/')
      {"a/?/b", g, "a/", "/b", "/ab", "b", 1, 2},
      // picomatch: braces make alternatives, whose common parts remain
      {"src/*.{js,ts}", p, "src/", "s", "./crs", ".s", 1, 1},
      // picomatch: an extension anywhere; picomatch also takes one trailing '/' ("a.md/"),
      // so nothing is known of the end or of the name
      {"**/*.md", p, "", "", ".dm", "", 0, std::nullopt},
      // the most '/' is known up to 32; above it, or through a '/' that can repeat, no bound
      {levels(32), g, "", "", "/", "", 32, 32},
      {levels(33), g, "", "", "/", "", 33, std::nullopt},
      {"a/**/b/*", g, "a/", "", "/ab", "", 2, std::nullopt},
      // picomatch's optional trailing '/' makes 33 possible: beyond the bound
      {levels(32), p, "", "", "/", "", 32, std::nullopt},
  };
  for (const auto& row : rows) {
    INFO(row.pattern << " (" << to_string(row.dialect) << ")");
    const auto facts = compiled(row.pattern, row.dialect).body_facts();
    CHECK(facts.prefix == row.prefix);
    CHECK(facts.suffix == row.suffix);
    CHECK(facts.required == row.required);
    CHECK(facts.required_in_name == row.required_in_name);
    CHECK(facts.min_slashes == row.min_slashes);
    CHECK(facts.max_slashes == row.max_slashes);
  }
}

TEST_CASE("body facts rule out only paths the body cannot match") {
  // A path the body matches must always get through: on random patterns and paths over a
  // small alphabet (so that matches are frequent), in both dialects.
  std::mt19937 rng(20261201);
  std::size_t matched = 0, ruled_out = 0;
  for (int round = 0; round < 3000; ++round) {
    const auto texts = gatekit::testing::random_pattern_texts(rng);
    for (const auto& text : texts) {
      for (const auto dialect : {Dialect::github, Dialect::picomatch}) {
        auto r = Pattern::compile(text, dialect);
        if (!std::holds_alternative<Pattern>(r)) continue;
        const auto& pattern = std::get<Pattern>(r);
        for (int q = 0; q < 8; ++q) {
          const auto path = gatekit::testing::random_glob_path(rng, 10);
          const bool may = pattern.body_may_match(path);
          if (pattern.body_matches(path)) {
            ++matched;
            INFO("pattern '" << text << "' (" << to_string(dialect) << ") path '" << path << "'");
            REQUIRE(may);
          } else if (!may) {
            ++ruled_out;
          }
        }
      }
    }
  }
  // The property was exercised both ways.
  CHECK(matched > 1000);
  CHECK(ruled_out > 1000);
}
