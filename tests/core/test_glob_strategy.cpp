// The pattern shapes a string test decides in place of an automaton (glob_strategy.hpp):
// which shapes get which test (github dialect). Their verdicts are checked against the
// automaton in test_glob_batch.cpp, where lists go pattern by pattern.
#include <string>
#include <vector>

#include "catch.hpp"
#include "gatekit/glob.hpp"

using namespace gatekit::glob;

namespace {

Pattern github(const std::string& text) {
  auto r = Pattern::compile(text, Dialect::github);
  if (auto* e = std::get_if<PatternError>(&r)) FAIL("pattern '" << text << "' rejected: " << e->message);
  return std::get<Pattern>(std::move(r));
}

}  // namespace

TEST_CASE("strategy: the shapes a string test decides, and the ones left to the automaton") {
  struct Row {
    std::string pattern, strategy;
  };
  const std::vector<Row> rows{
      {"src/a.cpp", "literal"},         {"!docs/x.md", "literal"},        {"docs/**", "prefix"},
      {"**", "any"},                    {"**.md", "suffix"},              {"**/README.md", "basename"},
      {"**/*.py", "extension"},         {"src/**/*.py", "extension"},     {"src/*.py", "extension"},
      {"*.md", "extension"},            {"a*/b.c", "name"},               {"src/**/test_*.py", "components"},
      {"**/x*/**/*.txt", "components"}, {"*/ap*/*", "components"},        {"a?.md", ""},
      {"a+.md", ""},                    {"[ab].md", ""},                  {"**/docs/**", "components"},
      {"a/**/", ""},                    {"*", "components"},              {"\\*.md", "literal"},
      {"**/*a*b*", "components"},       {"!**/co*/**/*da*", "components"}, {"a/**/b/**/c*", "components"},
      {"a**b/c", ""},                   {"**/**", ""},                    {"a/b?/c", ""},
      {"a//b*", ""},                    {"**/a/**/", ""},                 {"*/**", "components"},
  };
  for (const auto& r : rows) {
    INFO(r.pattern);
    CHECK(github(r.pattern).strategy() == r.strategy);
  }
  auto picomatch = Pattern::compile("**/*.py", Dialect::picomatch);
  CHECK(std::get<Pattern>(picomatch).strategy() == "");  // (its own regex: the automaton)
}
