// Rules loading (src/glob/path_rules.cpp): every error located (file:line:col and the field), collected
// from every filter and reported together; shorthand lists, categories and overrides.
#include <string>

#include "catch.hpp"
#include "gatekit/path_rules.hpp"

using namespace gatekit;
using namespace gatekit::path_rules;

namespace {

Rules rules_of(const std::string& yaml) {
  auto r = load_rules_text(yaml, "rules.yml", std::nullopt);
  if (!r) FAIL(r.error().message);
  return std::move(*r);
}

std::string rules_error(const std::string& yaml) {
  auto r = load_rules_text(yaml, "rules.yml", std::nullopt);
  if (r) FAIL("rules were accepted");
  CHECK(r.error().kind == ErrorKind::bad_input);
  return r.error().message;
}

}  // namespace

TEST_CASE("rules: errors are located, complete and hinted") {
  CHECK(rules_error("filters:\n  cpu:\n    mode: deny\n    pathz: [a]\n") ==
        "2 errors in rules.yml:\n"
        "rules.yml:2:3: filters.cpu: missing `paths:` (or `category:`)\n"
        "rules.yml:4:5: filters.cpu.pathz: unknown key 'pathz' (did you mean 'paths'?)");
  CHECK(rules_error("filters:\n  changes: [a]\n") ==
        "1 error in rules.yml:\nrules.yml:2:3: filters.changes: 'changes' is reserved for an output of its own; "
        "choose another name");
  CHECK(rules_error("filters:\n  x: ['!a', '!b']\n") ==
        "1 error in rules.yml:\nrules.yml:2:3: filters.x.paths: every pattern is negative ('!'), so the list can "
        "never match: start with a positive pattern such as '**'");
  CHECK(rules_error("filters:\n  d:\n    category: docs\n    paths: [a]\n") ==
        "1 error in rules.yml:\nrules.yml:3:15: filters.d.category: give either `category` or `paths`, not both");
  CHECK(rules_error("dialect: glob\nfilters:\n  x: [a]\n") ==
        "1 error in rules.yml:\nrules.yml:1:10: dialect: unknown dialect 'glob' (expected github or picomatch)");
  CHECK(rules_error("filters:\n  x:\n    - \"a/[b\"\n") ==
        "1 error in rules.yml:\nrules.yml:3:10: filters.x[0]: invalid pattern 'a/[b': '[' is not closed by ']' "
        "(hint: write '\\[' for a literal '[')");
  CHECK(rules_error("[a, b]\n") == "1 error in rules.yml:\nrules.yml:1:1: expected a map with a `filters:` key, got a list");
  CHECK(rules_error("filters: {}\n") ==
        "1 error in rules.yml:\nrules.yml:1:10: filters: no filters: give at least one, e.g. `cpu: ['src/**']`");
  CHECK(rules_error("filters: [a]\n") ==
        "1 error in rules.yml:\nrules.yml:1:10: filters: expected a map of filter name to rules, got a list");
  CHECK(rules_error("self-protect: 'false'\nfilters:\n  x: [a]\n") ==
        "1 error in rules.yml:\nrules.yml:1:15: self-protect: expected true or false, got the string \"false\" "
        "(remove the quotes)");
}

TEST_CASE("rules: a filter or category given twice is an error, never last-one-wins") {
  // yaml-cpp keeps both entries: each would become a step output of the same name, and the
  // runner would keep the last value (cpu=false), skipping a needed suite.
  CHECK(rules_error("filters: {cpu: ['src/**'], gpu: ['k/**'], cpu: ['.none']}\n") ==
        "1 error in rules.yml:\nrules.yml:1:43: filters.cpu: duplicate key 'cpu' (first at line 1, column 11): "
        "give each key once");
  CHECK(rules_error("categories:\n  docs: ['a/**']\n  docs: ['b/**']\nfilters:\n  d:\n    category: docs\n"
                    "    category: docs\n") ==
        "2 errors in rules.yml:\n"
        "rules.yml:3:3: categories.docs: duplicate key 'docs' (first at line 2, column 3): give each key once\n"
        "rules.yml:7:5: filters.d.category: duplicate key 'category' (first at line 6, column 5): give each key once");
}

TEST_CASE("rules: shorthand lists, categories and the dialect override") {
  auto r = rules_of("filters:\n  web: ['*.{js,ts}']\n  docs:\n    category: docs\n");
  REQUIRE(r.filters.size() == 2);
  CHECK(r.filters[0].mode == Mode::allow);
  CHECK(r.filters[1].category == "docs");
  REQUIRE(r.warnings.size() == 1);  // braces are literal in the github dialect
  CHECK(r.warnings[0].line == 2);
  CHECK(r.warnings[0].column == 12);

  auto custom = rules_of("categories:\n  docs: ['manual/**']\nfilters:\n  docs:\n    category: docs\n");
  CHECK(custom.filters[0].paths.size() == 1);
  CHECK(custom.filters[0].paths[0].text == "manual/**");

  auto pico = load_rules_text("filters:\n  web: ['*.{js,ts}']\n", "x", glob::Dialect::picomatch);
  REQUIRE(pico);
  CHECK(pico->dialect == glob::Dialect::picomatch);
}

TEST_CASE("rules: the errors of every filter are collected together") {
  // cpu: an unknown key is reported, and cpu still claims its `cpu_count` output; gpu: both
  // its mode and its pattern are wrong; docs: fine, and kept out of the message.
  CHECK(rules_error("filters:\n"
                    "  cpu:\n"
                    "    pathz: [a]\n"
                    "    paths: ['src/**']\n"
                    "  cpu_count: ['x/**']\n"
                    "  gpu:\n"
                    "    mode: sideways\n"
                    "    paths: ['[']\n"
                    "  docs:\n"
                    "    category: docs\n") ==
        "4 errors in rules.yml:\n"
        "rules.yml:3:5: filters.cpu.pathz: unknown key 'pathz' (did you mean 'paths'?)\n"
        "rules.yml:5:3: filters.cpu_count: 'cpu_count' is the output 'cpu_count' of filter 'cpu'; choose another name\n"
        "rules.yml:7:11: filters.gpu.mode: expected 'allow' or 'deny', got 'sideways'\n"
        "rules.yml:8:14: filters.gpu.paths[0]: invalid pattern '[': '[' is not closed by ']' (hint: write '\\[' for a "
        "literal '[')");
}

TEST_CASE("rules: a pattern text listed by several filters compiles once, its copies sharing one program") {
  // Matching pattern by pattern keeps a pattern's prefilter and automaton with its program
  // (glob_sieve.hpp): filters that list the same text then work them out once.
  auto r = rules_of("filters:\n  a: ['**/*.md', 'src/**']\n  b: ['docs/**', '**/*.md']\n  c: ['**', '!**/*.md']\n");
  REQUIRE(r.filters.size() == 3);
  const auto& a = r.filters[0].list.patterns();
  const auto& b = r.filters[1].list.patterns();
  const auto& c = r.filters[2].list.patterns();
  CHECK(a[0].program() == b[1].program());
  CHECK(a[0].program() != a[1].program());
  CHECK(b[0].program() != b[1].program());
  CHECK(c[1].program() != a[0].program());  // `!**/*.md` is another text
  CHECK(c[1].negated());
  CHECK(b[1].text() == "**/*.md");
}
