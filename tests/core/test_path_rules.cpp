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

// relevance (src/glob/path_relevance.cpp): the one rule both gates ask of a filter, path by
// path. The path gate's end-to-end decisions on the same lists are in
// tests/gpu-gate/test_gpu_rule_agreement.py.
TEST_CASE("rules: whether one changed path makes a filter relevant (always, allow, deny, change types)") {
  const auto rules = rules_of(
      "filters:\n"
      "  gpu:\n"
      "    paths: ['src/model/kernels/**', 'tests/gpu/**', '!tests/gpu/data/**']\n"
      "    always: [Dockerfile, 'requirements*.txt', pytest.ini, '**/conftest.py']\n"
      "  cpu:\n"
      "    mode: deny\n"
      "    paths: ['docs/**', '*.md', 'analysis/**']\n"
      "  added:\n"
      "    - added|modified: 'src/**'\n");
  const Filter& gpu = *rules.find("gpu");
  const Filter& cpu = *rules.find("cpu");
  const Filter& added = *rules.find("added");
  CHECK(rules.find("none") == nullptr);
  struct Case {
    const Filter* filter;
    std::string path, type;
    bool relevant, from_always;
    int pattern;
  };
  const std::vector<Case> cases{
      {&gpu, "analysis/plot_loss.py", "modified", false, false, -1},
      {&gpu, "notebooks/eval.ipynb", "", false, false, -1},
      {&gpu, "src/model/train.py", "modified", false, false, -1},
      {&gpu, "src/model/kernels/attn.py", "modified", true, false, 0},
      {&gpu, "tests/gpu/test_attn.py", "added", true, false, 1},
      {&gpu, "tests/gpu/data/golden.bin", "modified", false, false, 2},  // the negation wins
      {&gpu, "Dockerfile", "modified", true, true, 0},
      {&gpu, "requirements-dev.txt", "modified", true, true, 1},
      {&gpu, "pytest.ini", "modified", true, true, 2},
      {&gpu, "analysis/conftest.py", "added", true, true, 3},
      {&cpu, "analysis/plot_loss.py", "modified", false, false, 2},
      {&cpu, "README.md", "modified", false, false, 1},
      {&cpu, "src/model/train.py", "modified", true, false, -1},  // matches no deny pattern
      {&added, "src/a.py", "added", true, false, 0},
      {&added, "src/a.py", "deleted", false, false, -1},
      {&added, "src/a.py", "", true, false, 0},  // unknown type: every change-type rule applies
  };
  for (const auto& c : cases) {
    INFO(c.filter->name << " " << c.path << " (" << c.type << ")");
    const auto r = relevance(*c.filter, c.path, c.type);
    CHECK(r.relevant == c.relevant);
    CHECK(r.from_always == c.from_always);
    CHECK(r.pattern == c.pattern);
  }
}

TEST_CASE("rules: change types as dorny/paths-filter names them, from API words and git letters") {
  const std::vector<std::tuple<std::string, bool, std::string>> cases{
      {"A", false, "added"},       {"added", false, "added"},       {"M", false, "modified"},
      {"modified", false, "modified"}, {"D", false, "deleted"},     {"removed", false, "deleted"},
      {"R", true, "deleted"},      {"R", false, "added"},           {"renamed", true, "deleted"},
      {"C", false, "copied"},      {"T", false, "changed"},         {"U", false, "unmerged"},
      {"unchanged", false, "unchanged"}, {"", false, ""},           {"X", false, ""},
  };
  for (const auto& [status, previous, type] : cases) {
    INFO(status << (previous ? " (old side)" : ""));
    CHECK(change_type(status, previous) == type);
  }
}
