// The glob engine (core): documented examples, where the dialects disagree, line breaks,
// validation errors verbatim, ordered list evaluation, and the DFA against the reference.
#include <random>

#include "catch.hpp"
#include "random_globs.hpp"
#include "gatekit/glob.hpp"
#include "gatekit/path_categories.hpp"

using namespace gatekit::glob;

namespace {

Pattern compile(const std::string& text, Dialect d = Dialect::github) {
  auto r = Pattern::compile(text, d);
  if (auto* e = std::get_if<PatternError>(&r)) FAIL("pattern '" << text << "' rejected: " << e->message);
  return std::get<Pattern>(std::move(r));
}

PatternError rejected(const std::string& text, Dialect d = Dialect::github) {
  auto r = Pattern::compile(text, d);
  if (std::holds_alternative<Pattern>(r)) FAIL("pattern '" << text << "' was accepted");
  return std::get<PatternError>(r);
}

PatternList list(const std::vector<std::string>& texts, Dialect d = Dialect::github) {
  std::vector<Pattern> ps;
  for (const auto& t : texts) ps.push_back(compile(t, d));
  return PatternList(std::move(ps), d);
}

struct Case {
  const char* pattern;
  const char* path;
  bool match;
};

}  // namespace

TEST_CASE("github dialect: every documented example") {
  const std::vector<Case> cases{
      {"*", "README.md", true},
      {"*", "docs/README.md", false},
      {"*.jsx?", "page.js", true},
      {"*.jsx?", "page.jsx", true},
      {"*.jsx?", "page.jsxx", false},
      {"**", "a/b/c.txt", true},
      {"**", "README.md", true},
      {"**.js", "index.js", true},
      {"**.js", "js/index.js", true},
      {"**.js", "src/js/app.js", true},
      {"**.js", "src/js/app.jsx", false},
      {"docs/*", "docs/README.md", true},
      {"docs/*", "docs/file.txt", true},
      {"docs/*", "docs/sub/file.txt", false},
      {"docs/**", "docs/README.md", true},
      {"docs/**", "docs/mona/octocat.txt", true},
      {"docs/**", "README.md", false},
      {"**/docs/**", "docs/hello.md", true},
      {"**/docs/**", "dir/docs/my-file.txt", true},
      {"**/docs/**", "space/docs/plan/space.doc", true},
      {"**/README.md", "README.md", true},
      {"**/README.md", "js/README.md", true},
      {"**/*src/**", "a/src/app.js", true},
      {"**/*src/**", "my-src/code/js/app.js", true},
      {"**/migrate-*.sql", "migrate-10909.sql", true},
      {"**/migrate-*.sql", "db/migrate-v1.0.sql", true},
      {"**/migrate-*.sql", "db/sept/migrate-v1.sql", true},
      {"*.md", "hello.md", true},
      {"v[12].[0-9]+.[0-9]+", "v1.10.1", true},
      {"v[12].[0-9]+.[0-9]+", "v2.0.0", true},
      {"v[12].[0-9]+.[0-9]+", "v3.0.0", false},
      {"a**b", "a/x/b", true},
      {"x/**.js", "x/a/b.js", true},
      {"a/**/b", "a/b", true},
      {"a/**/b", "a/x/y/b", true},
      {"\\*.md", "*.md", true},
      {"\\*.md", "a.md", false},
      {"a\\b", "a\\b", true},  // '\' before a non-special character is literal
      {"a!b", "a!b", true},     // '!' only negates at the start
      {"\\!x", "!x", true},
      {"{a,b}.js", "{a,b}.js", true},
      {"{a,b}.js", "a.js", false},
      {"[CB]at", "Cat", true},
      {"[CB]at", "Bat", true},
      {"[CB]at", "Rat", false},
      {"[1-2]00", "200", true},
      {"*.MD", "a.md", false},  // case-sensitive
  };
  for (const auto& c : cases) {
    INFO(c.pattern << " vs " << c.path);
    CHECK(compile(c.pattern).body_matches(c.path) == c.match);
  }
}

TEST_CASE("github dialect: documented list examples (ordered negation)") {
  auto a = list({"*.md", "!README.md"});
  CHECK(a.evaluate("hello.md").included);
  CHECK_FALSE(a.evaluate("README.md").included);
  CHECK(a.evaluate("README.md").decisive == 1);
  CHECK_FALSE(a.evaluate("docs/hello.md").included);

  auto b = list({"*.md", "!README.md", "README*"});
  CHECK(b.evaluate("hello.md").included);
  CHECK(b.evaluate("README.md").included);
  CHECK(b.evaluate("README.md").decisive == 2);
  CHECK(b.evaluate("README.doc").included);

  auto c = list({"src/**", "!src/generated/**"});
  CHECK(c.evaluate("src/a.c").included);
  CHECK_FALSE(c.evaluate("src/generated/x.c").included);
  CHECK(c.evaluate("other").decisive == -1);
}

TEST_CASE("where the dialects disagree (the table in docs/actions/path-gate.md)") {
  struct Row {
    const char* pattern;
    const char* path;
    bool github;
    bool picomatch;
  };
  const std::vector<Row> rows{
      {"*.jsx?", "page.js", true, false},
      {"file?.txt", "file.txt", true, false},
      {"file?.txt", "file1.txt", false, true},
      {"a+b", "aab", true, false},
      {"a+b", "a+b", false, true},
      {"x/**.js", "x/a/b.js", true, false},
      {"a**b", "a/x/b", true, false},
      {"*.{js,ts}", "a.ts", false, true},
      {"a.(js|ts)", "a.js", false, true},
      {"./src/**", "src/a", false, true},
  };
  for (const auto& r : rows) {
    INFO(r.pattern << " vs " << r.path);
    CHECK(compile(r.pattern, Dialect::github).matches(r.path) == r.github);
    CHECK(compile(r.pattern, Dialect::picomatch).matches(r.path) == r.picomatch);
  }
}

TEST_CASE("picomatch dialect: documented behaviour") {
  const std::vector<Case> cases{
      {"*", ".github", true},      // dot: true
      {"a/**/b", "a/b", true},     // globstar segment may be empty
      {"src/**", "src", true},
      {"**.js", "a/b/c.js", true},  // at pattern start, ** spans directories
      {"?", "a", true},
      {"?", "ab", false},
      {"[^a]", "b", true},
      {"[^a]", "a", false},
      {"[!a]", "!", true},  // [!...] does not negate
      {"[!a]", "b", false},
      {"{1..3}", "2", true},
      {"{1..3}", "4", false},
      {"@(a|b)", "b", true},
      {"+(a|b)", "abba", true},
      {"*(a)", "", false},
      {"?(a)", "a", true},
      {"a\\*b", "a*b", true},
      {"a\\*b", "axb", false},
  };
  for (const auto& c : cases) {
    INFO(c.pattern << " vs " << c.path);
    CHECK(compile(c.pattern, Dialect::picomatch).matches(c.path) == c.match);
  }
  // Each pattern is judged on its own: '!x' matches what x does not.
  auto neg = compile("!src/**", Dialect::picomatch);
  CHECK(neg.matches("docs/a.md"));
  CHECK_FALSE(neg.matches("src/a.c"));
  auto l = list({"src/**", "!src/x/**"}, Dialect::picomatch);
  CHECK(l.evaluate("src/x/a").included);  // no ordered subtraction: the first pattern decides
  CHECK(l.evaluate("src/x/a").decisive == 0);
  CHECK(l.evaluate("README.md").decisive == 1);
}

TEST_CASE("line breaks: ordinary characters in the github dialect, picomatch's quirks in picomatch") {
  struct Row {
    const char* pattern;
    std::string path;
    bool github;
    bool picomatch;
  };
  // github (GitHub's filter pattern cheat sheet): `*` is zero or more characters but '/',
  // `**` zero or more of any character; a newline or carriage return is a character.
  // picomatch 2.3.1: `*` and `?` are [^/] classes (a line break matches), while `**` and the
  // `.*$` wrapped around a negated glob are JavaScript `.`, which stops at \n, \r, U+2028
  // and U+2029 (test_picomatch_diff.py checks these against the npm package).
  const std::vector<Row> rows{
      {"*", "a\nb", true, true},
      {"*", "a\rb", true, true},
      {"*.md", "x\n.md", true, true},
      {"*", "a/\nb", false, false},
      {"**", "a\nb", true, false},
      {"**", "\n", true, false},
      {"**", "a\r", true, false},
      {"docs/**", "docs/a\nb/c.md", true, false},
      {"**/b", "a\n/b", true, false},
      {"**/b", "x/a\n/b", true, false},
      {"a/**/b", "a/\n/b", true, false},
      {"**.md", "a/x\n.md", true, false},
      {"a\nb", "a\nb", true, true},  // a literal line break in a pattern
      {"a\nb", "a\rb", false, false},
      // U+2028 and U+2029 (UTF-8 E2 80 A8, E2 80 A9) end a line for JavaScript's `.` too.
      {"**", "a\xE2\x80\xA8" "b", true, false},
      {"**", "a\xE2\x80\xA9" "b", true, false},
      {"src/**", "src/a\xE2\x80\xA8" "b.py", true, false},
      {"**/b", "a/\xE2\x80\xA8/b", true, false},
      {"**.js", "a\xE2\x80\xA9.js", true, false},
      {"*", "\xE2\x80\xA8", true, false},  // picomatch's `*` first asks for one `.`: (?=.)
      {"*", "a\xE2\x80\xA8", true, true},  // then [^/]*, which takes any unit
      // Other characters are no line terminators: U+0085, U+202A, U+20A8, a lone E2 or E2 80.
      {"**", "a\xC2\x85" "b", true, true},
      {"**", "a\xE2\x80\xAA" "b", true, true},
      {"**", "a\xE2\x82\xA8" "b", true, true},
      {"**", "a\xE2", true, true},
      {"**", "a\xE2\x80", true, true},
  };
  for (const auto& r : rows) {
    INFO(r.pattern << " vs " << r.path);
    CHECK(compile(r.pattern, Dialect::github).matches(r.path) == r.github);
    CHECK(compile(r.pattern, Dialect::picomatch).matches(r.path) == r.picomatch);
    // The github list DFA agrees with the pattern on its own.
    CHECK(list({r.pattern}).evaluate(r.path).included == r.github);
  }
  // Negation: github subtracts in order (a line break changes nothing); picomatch's `!x`
  // never matches a path holding a line break, whatever x is.
  auto gh = list({"**", "!**.js"});
  CHECK_FALSE(gh.evaluate("a\nb.js").included);
  CHECK(gh.evaluate("a\nb.md").included);
  auto not_js = compile("!*.js", Dialect::picomatch);
  CHECK(not_js.matches("a.md"));
  CHECK_FALSE(not_js.matches("a\n.md"));
  CHECK_FALSE(not_js.matches("a\r.md"));
  CHECK_FALSE(not_js.matches("a\xE2\x80\xA8.md"));  // U+2028
  CHECK(compile("!*.js", Dialect::github).matches("a\n.md"));
}

TEST_CASE("github dialect: invalid patterns are rejected with a column and a hint") {
  struct Bad {
    const char* pattern;
    int column;
    const char* message;
    const char* hint;
  };
  const std::vector<Bad> bad{
      {"", 0, "empty pattern", "remove the entry, or write '**' to match every path"},
      {"!", 1, "'!' must be followed by a pattern", ""},
      {"?abc", 1,
       "'?' must follow a character or a [...] class: it means zero or one of the preceding character",
       "write '\\?' for a literal '?'; to match any one character use a class such as '[a-z0-9]'"},
      {"!?a", 2,
       "'?' must follow a character or a [...] class: it means zero or one of the preceding character",
       "write '\\?' for a literal '?'; to match any one character use a class such as '[a-z0-9]'"},
      {"a*?", 3,
       "'?' must follow a character or a [...] class: it means zero or one of the preceding character",
       "write '\\?' for a literal '?'; to match any one character use a class such as '[a-z0-9]'"},
      {"+x", 1, "'+' must follow a character or a [...] class: it means one or more of the preceding character",
       "write '\\+' for a literal '+'"},
      {"a**+", 4, "'+' must follow a character or a [...] class: it means one or more of the preceding character",
       "write '\\+' for a literal '+'"},
      {"a??", 3,
       "'?' must follow a character or a [...] class: it means zero or one of the preceding character",
       "write '\\?' for a literal '?'; to match any one character use a class such as '[a-z0-9]'"},
      {"src/[abc", 5, "'[' is not closed by ']'", "write '\\[' for a literal '['"},
      {"x[]", 2, "empty brackets '[]'", "list at least one character, e.g. '[abc]'; write '\\[' for a literal '['"},
      {"[z-a]", 2, "reversed range 'z-a' in brackets", "write 'a-z'"},
      {"[+-/]", 2, "a range in brackets can only span a-z, A-Z or 0-9, not '+-/'", "list such characters one by one"},
      {"[0-z]", 2, "a range in brackets can only span a-z, A-Z or 0-9, not '0-z'", "list such characters one by one"},
      {"[a-]", 2, "range 'a-' in brackets has no end", "put a literal '-' first, e.g. '[-a]'"},
  };
  for (const auto& b : bad) {
    INFO("pattern: " << b.pattern);
    auto e = rejected(b.pattern);
    CHECK(e.column == b.column);
    CHECK(e.message == b.message);
    CHECK(e.hint == b.hint);
  }
}

TEST_CASE("picomatch dialect: ambiguous quantified extglobs are refused") {
  auto nested = rejected("+(+(a))", Dialect::picomatch);
  CHECK(nested.column == 3);
  CHECK(nested.message == "nested quantified extglobs change meaning between picomatch versions");
  auto overlap = rejected("x/+(a|aa).js", Dialect::picomatch);
  CHECK(overlap.column == 3);
  CHECK(overlap.message ==
        "overlapping alternatives in a quantified extglob ('a' and 'aa') change meaning between picomatch versions");
  CHECK(compile("+(a|b)", Dialect::picomatch).matches("abab"));
  CHECK(compile("@(a|aa)", Dialect::picomatch).matches("aa"));  // not quantified: no ambiguity
  // picomatch's regex for this is invalid (it never matches): gatekit refuses it loudly.
  CHECK(rejected("?(a)+", Dialect::picomatch).message.rfind("cannot compile this pattern", 0) == 0);
  // Back-references cannot run on an automaton.
  CHECK(rejected("\\1", Dialect::picomatch).message.rfind("cannot compile this pattern", 0) == 0);
}

TEST_CASE("picomatch dialect: a pattern picomatch never finishes reading is refused, not looped on") {
  // picomatch 2.3.1 loops forever (allocating) on a trailing run of 4+ backslashes once its
  // parser runs (a leading '*', or a '/' in the pattern); the port ran out of memory on
  // fuzz/corpus/glob/trailing-backslashes, found by the glob fuzz target.
  struct Row {
    std::string text;
    int column;  // where the trailing run starts
  };
  const std::string run4(4, '\\'), run6(6, '\\');
  for (const auto& row : std::vector<Row>{{"*" + run4, 2}, {"a/" + run4, 3}, {"src/**/" + run6, 8}, {run4 + "/" + run4, 6}}) {
    INFO(row.text);
    auto e = rejected(row.text, Dialect::picomatch);
    CHECK(e.message == "picomatch 2.3.1 never finishes parsing this pattern: it ends in a run of 4 or more backslashes");
    CHECK(e.hint == "a backslash escapes the next character: end the pattern with '\\\\' (one literal backslash), "
                    "or remove the run");
    CHECK(e.column == row.column);
  }
  // Shorter runs at the end, longer ones inside the pattern, and picomatch's fast path (no
  // parser: it finishes, and so does the port) still compile.
  CHECK(compile("*" + std::string(3, '\\'), Dialect::picomatch).size() > 0);
  CHECK(compile("*" + run4 + "x", Dialect::picomatch).size() > 0);
  CHECK(compile("a/" + run6 + "b/**", Dialect::picomatch).size() > 0);
  CHECK(compile("a" + run4, Dialect::picomatch).matches("a\\"));  // picomatch: ^(?:a\\)$, a literal backslash
}

TEST_CASE("github dialect: valid odd patterns") {
  CHECK(compile("[-a]x").body_matches("-x"));
  CHECK(compile("[A-z]").body_matches("Q"));
  CHECK(compile("a/+").body_matches("a//"));  // '+' after a literal '/'
  CHECK(compile("]").body_matches("]"));
  CHECK(compile("\\").body_matches("\\"));
  CHECK(compile("!a").negated());
  CHECK_FALSE(compile("\\!a").negated());
}

TEST_CASE("lint: ported shell and picomatch habits are warned about") {
  auto w = lint(".github/*", Dialect::github);
  REQUIRE(w.size() == 1);
  CHECK(w[0].column == 9);
  CHECK(w[0].message ==
        "'.github/*' matches only files directly in '.github/', not in its subfolders (unlike a shell `case` "
        "pattern); write '.github/**' to cover the whole tree");
  CHECK(lint(".github/**", Dialect::github).empty());
  CHECK(lint("docs/**/*", Dialect::github).empty());
  REQUIRE(lint("*.{js,ts}", Dialect::github).size() == 1);
  CHECK(lint("*.{js,ts}", Dialect::github)[0].column == 3);
  REQUIRE(lint("./src/**", Dialect::github).size() == 1);
  CHECK(lint("./src/**", Dialect::github)[0].message ==
        "changed paths never start with './': this pattern matches nothing; remove the prefix");
  REQUIRE(lint("!src/**", Dialect::picomatch).size() == 1);
}

TEST_CASE("the docs category: docs/, overrides/, mkdocs.yml and Markdown outside code and tests") {
  auto docs = list(default_docs_patterns());
  for (const char* p : {"docs/index.md", "docs/img/a.png", "overrides/main.html", "mkdocs.yml", "README.md",
                        "CHANGELOG.md", "config/notes.md"})
    CHECK(docs.evaluate(p).included);
  for (const char* p : {"src/tinyml/README.md", "tests/fixtures/x.md", "src/a.py", "pyproject.toml", "sub/mkdocs.yml"})
    CHECK_FALSE(docs.evaluate(p).included);
}

TEST_CASE("the list DFA agrees with pattern-by-pattern evaluation on random input") {
  std::mt19937 rng(12345);
  for (int round = 0; round < 300; ++round) {
    const auto texts = gatekit::testing::random_pattern_texts(rng);
    if (texts.empty()) continue;
    auto l = list(texts);
    for (int q = 0; q < 40; ++q) {
      const auto path = gatekit::testing::random_glob_path(rng, 10);
      auto fast = l.evaluate(path);
      auto slow = l.evaluate_slow(path);
      INFO("path " << path << " pattern[0] " << texts[0]);
      CHECK(fast.included == slow.included);
      CHECK(fast.decisive == slow.decisive);
    }
  }
}

TEST_CASE("normalize_path drops ./ and leading slashes only") {
  CHECK(normalize_path("./src/a") == "src/a");
  CHECK(normalize_path("/src/a") == "src/a");
  CHECK(normalize_path("././a/./b") == "a/./b");
  CHECK(normalize_path("a") == "a");
}
