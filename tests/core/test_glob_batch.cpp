// PatternList::evaluate_many (interleaved DFA walks; a PathBatch's facts and folders shared
// by several lists) against evaluate() and the pattern-by-pattern reference: same verdicts
// whatever the batch size, path lengths, dead walks, DFA cache state or dialect.
#include <algorithm>
#include <random>

#include "catch.hpp"
#include "random_globs.hpp"
#include "gatekit/glob.hpp"

using namespace gatekit::glob;

namespace {

PatternList batch_list(const std::vector<std::string>& texts, Dialect d = Dialect::github) {
  std::vector<Pattern> ps;
  for (const auto& t : texts) {
    auto r = Pattern::compile(t, d);
    if (auto* e = std::get_if<PatternError>(&r)) FAIL("pattern '" << t << "' rejected: " << e->message);
    ps.push_back(std::get<Pattern>(std::move(r)));
  }
  return PatternList(std::move(ps), d);
}

void check_against_slow(const PatternList& l, const std::vector<std::string>& paths,
                        const std::vector<ListVerdict>& got) {
  for (std::size_t i = 0; i < paths.size(); ++i) {
    const auto slow = l.evaluate_slow(paths[i]);
    INFO("path '" << paths[i] << "' (#" << i << " of " << paths.size() << ")");
    CHECK(got[i].included == slow.included);
    CHECK(got[i].decisive == slow.decisive);
  }
}

// Both batch forms: the array of paths, then a PathBatch of them.
void check_batch(const PatternList& l, const std::vector<std::string>& paths) {
  std::vector<std::string_view> views(paths.begin(), paths.end());
  std::vector<ListVerdict> got(views.size());
  l.evaluate_many(views.data(), views.size(), got.data());
  check_against_slow(l, paths, got);
  const PathBatch batch(views);
  std::vector<ListVerdict> batched(views.size());
  l.evaluate_many(batch, batched.data());
  check_against_slow(l, paths, batched);
}

void check_path_batch(const PatternList& l, const PathBatch& batch, const std::vector<std::string>& paths) {
  std::vector<ListVerdict> got(batch.size());
  l.evaluate_many(batch, got.data());
  check_against_slow(l, paths, got);
}

}  // namespace

TEST_CASE("evaluate_many: fixed lists, mixed lengths, dead and live walks") {
  auto l = batch_list({"src/**", "!src/**/*.md", "docs/*.md", "**/gen/*.py", "a?b+"});
  const std::vector<std::string> paths{
      "src/a.cpp", "src/x/README.md", "docs/a.md", "docs/x/a.md",  // one full batch
      "", "x", "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz", "deep/er/gen/f.py",  // dead early, long, live
      "ab", "abbb", "b", "src/",  // short ones
      "src/very/long/path/that/keeps/the/walk/alive/for/a/while.md"};
  // Every prefix of the list: batches of 4 plus a tail of 0..3 paths.
  for (std::size_t n = 0; n <= paths.size(); ++n)
    check_batch(l, std::vector<std::string>(paths.begin(), paths.begin() + static_cast<std::ptrdiff_t>(n)));
  // The DFA is warm now: the same answers again.
  check_batch(l, paths);
  // And it agrees with the one-path evaluate.
  std::vector<std::string_view> views(paths.begin(), paths.end());
  std::vector<ListVerdict> got(views.size());
  l.evaluate_many(views.data(), views.size(), got.data());
  for (std::size_t i = 0; i < paths.size(); ++i) CHECK(got[i].decisive == l.evaluate(paths[i]).decisive);
}

TEST_CASE("evaluate_many: every lane dead stops the walk without changing verdicts") {
  auto l = batch_list({"only/this"});
  check_batch(l, {"nope/a/long/path", "xx/also/long/path", "yy/and/this/one/too", "zz/last/one/in/batch",
                  "only/this", "only/thi", "only/this/", "only/this"});
}

TEST_CASE("evaluate_many agrees with the reference on random lists and paths") {
  std::mt19937 rng(20240611);
  for (int round = 0; round < 200; ++round) {
    const auto texts = gatekit::testing::random_pattern_texts(rng);
    if (texts.empty()) continue;
    auto l = batch_list(texts);
    std::vector<std::string> paths;
    const int count = static_cast<int>(rng() % 23);
    for (int q = 0; q < count; ++q) paths.push_back(gatekit::testing::random_glob_path(rng, 12));
    INFO("pattern[0] " << texts[0]);
    check_batch(l, paths);
  }
}

TEST_CASE("evaluate_many: lists without a DFA (picomatch, look-arounds) and with step counts") {
  auto pico = batch_list({"src/**", "!**/*.md", "*.{js,ts}"}, Dialect::picomatch);
  check_batch(pico, {"src/a.js", "a.md", "b.ts", "x/y", "src/README.md", ""});
  auto l = batch_list({"src/**", "!src/**/*.md"});
  const std::vector<std::string> paths{"src/a", "src/b.md", "docs/x", "src/c/d", "q"};
  std::vector<std::string_view> views(paths.begin(), paths.end());
  std::vector<ListVerdict> got(views.size());
  MatchStats batched, single;
  l.evaluate_many(views.data(), views.size(), got.data(), &batched);
  for (const auto& p : paths) (void)l.evaluate(p, &single);
  CHECK(batched.steps == single.steps);
  CHECK(batched.steps > 0);
}

TEST_CASE("evaluate_many: more DFA states than the cache holds falls back to the reference") {
  // "an 'a' 14 characters from the end" needs a DFA state per arrangement of the last 14
  // characters (2^14 > the 4096-state cache): long random paths overflow it, so some walks
  // finish the slow way.
  std::string tail;
  for (int k = 0; k < 13; ++k) tail += "[ab]";
  const std::vector<std::string> texts{"**a" + tail, "!**b" + tail + "b", "**/bb"};
  auto l = batch_list(texts);
  std::mt19937 rng(7);
  std::vector<std::string> paths;
  for (int q = 0; q < 400; ++q) {
    std::string path;
    for (int j = 0; j < 60; ++j) path += "aab"[rng() % 3];
    if (q % 5 == 0) path += "/bb";
    paths.push_back(path);
  }
  check_batch(l, paths);
  INFO("DFA states built: " << l.dfa_states());
  CHECK(l.pattern_by_pattern());  // the list's automaton gave up ...
  CHECK(l.dfa_states() <= PatternList::kListStates);  // ... within its documented bound
}

namespace {

// Patterns shaped like long CODEOWNERS-style lists whose words occur in the paths: each
// pattern matches some paths, each in its own way, so one automaton for the whole list
// would need a new product of positions for nearly every path.
std::vector<std::string> matching_patterns(std::mt19937& rng, int count) {
  static const std::vector<std::string> words{"core", "kernel", "stream", "queue", "model", "data", "test", "util"};
  static const std::vector<std::string> exts{"py", "cu", "md", "yml"};
  std::vector<std::string> texts;
  for (int k = 0; k < count; ++k) {
    const auto& w = words[rng() % words.size()];
    const auto& v = words[rng() % words.size()];
    switch (k % 5) {
      case 0: texts.push_back("**/" + w.substr(0, 2) + "*/**/*." + exts[rng() % exts.size()]); break;
      case 1: texts.push_back("**/*" + w.substr(0, 1) + "*" + v.substr(0, 1) + "*"); break;
      case 2: texts.push_back(w + std::to_string(rng() % 8) + "/**/test_*" + v.substr(0, 2) + "*.py"); break;
      case 3: texts.push_back("*/" + w.substr(0, 2) + "*/*"); break;
      default: texts.push_back("!**/" + w.substr(0, 3) + "*/**/*" + v.substr(0, 2) + "*"); break;
    }
  }
  return texts;
}

std::vector<std::string> matching_paths(std::mt19937& rng, int count) {
  static const std::vector<std::string> words{"core", "kernel", "stream", "queue", "model", "data", "test", "util"};
  static const std::vector<std::string> exts{"py", "cu", "md", "yml", "txt"};
  std::vector<std::string> paths;
  for (int k = 0; k < count; ++k) {
    auto pick = [&] { return words[rng() % words.size()]; };
    paths.push_back(pick() + std::to_string(rng() % 8) + "/" + pick() + "_" + std::to_string(rng() % 4) + "/" +
                    pick() + "/" + (rng() % 3 == 0 ? "test_" : "") + pick() + "_" + pick() +
                    std::to_string(k) + "." + exts[rng() % exts.size()]);
  }
  return paths;
}

}  // namespace

TEST_CASE("a list whose patterns match, each in its own way, goes pattern by pattern at a bounded cost") {
  std::mt19937 rng(27);
  const auto paths = matching_paths(rng, 600);
  for (const int count : {5, 25, 50, 100}) {
    auto l = batch_list(matching_patterns(rng, count));
    check_batch(l, paths);
    INFO(count << " patterns; DFA states built: " << l.dfa_states());
    // From 25 patterns on, the list's automaton gave up early, instead of filling its cache
    // path after path (5 such patterns still share states well enough to keep it).
    if (count >= 25) CHECK(l.pattern_by_pattern());
    CHECK(l.dfa_states() < 512);
    // Work: far below one walk of every path by every pattern (the bound the sieve never
    // exceeds), because most patterns are ruled out before any walk and the walk stops at
    // the first pattern that decides.
    MatchStats stats;
    std::size_t bytes = 0;
    for (const auto& path : paths) {
      (void)l.evaluate(path, &stats);
      bytes += path.size();
    }
    const double per_pattern_byte = static_cast<double>(stats.steps) / (static_cast<double>(bytes) * count);
    INFO("steps per path byte per pattern: " << per_pattern_byte);
    CHECK(per_pattern_byte < 0.35);
  }
}

TEST_CASE("the list's automaton gives up on matching patterns before it costs, and keeps near misses") {
  // Each state of a list of matching patterns holds a position of nearly every pattern, so
  // its cost is counted in positions too: it gives up within a budget fixed by the list's
  // size, long before the 64 states the per-state rule waits for.
  std::mt19937 rng(2727);
  const auto paths = matching_paths(rng, 200);
  for (const int count : {50, 100, 200}) {
    auto l = batch_list(matching_patterns(rng, count));
    check_batch(l, paths);
    INFO(count << " patterns; DFA states built: " << l.dfa_states());
    CHECK(l.pattern_by_pattern());
    CHECK(l.dfa_states() < 32);
  }
  // Patterns that match none of the paths share the list's states: it keeps them.
  std::vector<std::string> near;
  for (int k = 0; k < 200; ++k) {
    near.push_back(k % 2 == 0 ? "area" + std::to_string(k) + "/sub/**" : "**/gen_" + std::to_string(k) + "/*.py");
  }
  auto l = batch_list(near);
  check_batch(l, paths);
  INFO("near misses; DFA states built: " << l.dfa_states());
  CHECK_FALSE(l.pattern_by_pattern());
}

TEST_CASE("pattern by pattern: a name is not walked by a pattern that needs one more folder") {
  // `**/zz*/**/*.py` passes every prefilter on `a/bzz/c/xN.py` (it has the bytes, the '/'
  // count, the suffix), but after `a/bzz/c/` it still needs a `zz*` folder: no name can
  // finish it, so the folder's state is remembered as dead and no name is walked.
  std::mt19937 rng(99);
  auto texts = matching_patterns(rng, 50);
  texts.push_back("**/zz*/**/*.py");
  auto l = batch_list(texts);
  check_batch(l, matching_paths(rng, 50));
  REQUIRE(l.pattern_by_pattern());
  std::vector<std::string> paths;
  std::size_t name_bytes = 0;
  for (int k = 0; k < 100; ++k) {
    paths.push_back("a/bzz/c/x" + std::to_string(k) + ".py");
    name_bytes += paths.back().size() - 8;
  }
  check_batch(l, paths);
  MatchStats stats;
  for (const auto& path : paths) CHECK_FALSE(l.evaluate(path, &stats).included);
  INFO("steps: " << stats.steps << ", name bytes: " << name_bytes);
  CHECK(stats.steps < name_bytes / 4);
  CHECK(l.evaluate("a/bzz/zz/c/x.py").included);  // (and it matches where a zz* folder is)
}

TEST_CASE("pattern by pattern agrees with the reference on random patterns over shared folders") {
  // Random patterns after a list that makes the automaton give up, so the sieve decides;
  // paths drawn from a few folders, so each folder's remembered states (dead ones included)
  // are reused by many names.
  std::mt19937 rng(270027);
  const auto warm = matching_paths(rng, 20);
  for (int round = 0; round < 300; ++round) {
    auto texts = matching_patterns(rng, 30);
    for (const auto& t : gatekit::testing::random_pattern_texts(rng)) texts.push_back(t);
    for (const auto& t : gatekit::testing::random_pattern_texts(rng)) texts.push_back(t);
    auto l = batch_list(texts);
    check_batch(l, warm);
    REQUIRE(l.pattern_by_pattern());
    std::vector<std::string> folders;
    for (int f = 0; f < 4; ++f) folders.push_back(gatekit::testing::random_glob_path(rng, 8) + "/");
    std::vector<std::string> paths;
    for (int q = 0; q < 40; ++q) {
      std::string name = gatekit::testing::random_glob_path(rng, 6);
      std::erase(name, '/');
      paths.push_back((q % 5 == 0 ? std::string() : folders[rng() % folders.size()]) + name);
    }
    INFO("last pattern: " << texts.back());
    check_batch(l, paths);
  }
}

namespace {

// A list of `texts` that has gone pattern by pattern (the matching patterns first make its
// automaton give up), so that its last patterns are decided by the sieve.
PatternList sieve_list(std::mt19937& rng, const std::vector<std::string>& texts) {
  auto all = matching_patterns(rng, 30);
  all.insert(all.end(), texts.begin(), texts.end());
  auto l = batch_list(all);
  check_batch(l, matching_paths(rng, 20));
  REQUIRE(l.pattern_by_pattern());
  return l;
}

}  // namespace

TEST_CASE("strategy shortcuts: the edges of each shape agree with the automaton") {
  std::mt19937 rng(5);
  const std::vector<std::string> paths{"",         "/x.txt",  "x.txt",    "a//x.txt", "a/x.txt", ".txt",    "/.txt",
                                       "name",     "/name",   "a/name",   "aname",    "//name",  "a/x.py",  "a//x.py",
                                       "a/b/x.py", "a/.py",   "ab/x.py",  "a.py",     "docs",    "docs/",   "docs/a",
                                       "x.md",     "a/b.c",   "ab/b.c",   "a/x/b.c",  "x.y",     "x.yz",    "a\nb/x.txt"};
  for (const std::string text : {"**/*.txt", "**/name", "a/**/*.py", "a/*.py", "docs/**", "**.md", "a*/b.c", "x.y",
                                 "!**/*.txt", "**", "a/**/b/*.py"}) {
    INFO(text);
    auto l = sieve_list(rng, {text});
    check_batch(l, paths);
  }
}

TEST_CASE("strategy shortcuts agree with the automaton on random patterns and paths") {
  // Patterns of every shape a string test decides, from literals over a tiny alphabet (so
  // that paths often match, or miss by one byte), in lists that go pattern by pattern.
  std::mt19937 rng(27027);
  auto literal = [&](bool slash) {
    static const std::string bytes = "ab.x", with_slash = "ab.x/";
    std::string s;
    for (std::size_t n = 1 + rng() % 3; n-- > 0;) s += (slash ? with_slash : bytes)[rng() % (slash ? 5 : 4)];
    return s;
  };
  int decided = 0;
  for (int round = 0; round < 200; ++round) {
    std::vector<std::string> texts;
    for (int k = 0; k < 4; ++k) {
      const auto head = rng() % 2 ? literal(true) : std::string();
      std::string t;
      switch (rng() % 8) {
        case 0: t = literal(true); break;
        case 1: t = literal(true) + "/**"; break;
        case 2: t = "**" + literal(true); break;
        case 3: t = "**/" + literal(false); break;
        case 4: t = head + "**/*" + literal(false); break;
        case 5: t = head + "*" + literal(false); break;
        case 6: t = literal(true) + "*" + literal(true); break;
        default: t = "**"; break;
      }
      if (!std::holds_alternative<Pattern>(Pattern::compile(t, Dialect::github))) continue;
      decided += std::get<Pattern>(Pattern::compile(t, Dialect::github)).strategy().empty() ? 0 : 1;
      texts.push_back(rng() % 4 == 0 ? "!" + t : t);
    }
    auto l = sieve_list(rng, texts);
    std::vector<std::string> paths;
    for (int q = 0; q < 40; ++q) paths.push_back(gatekit::testing::random_glob_path(rng, 9));
    INFO("patterns: " << texts.size());
    check_batch(l, paths);
  }
  CHECK(decided > 600);  // (nearly every pattern drawn has a strategy)
}

TEST_CASE("components shortcut: the edges of each part agree with the automaton") {
  // Paths of whole components and paths that are not (empty, leading, trailing or doubled
  // '/'), where the automaton decides; groups at the start, the end, in between and repeated.
  std::mt19937 rng(7);
  const std::vector<std::string> paths{
      "",          "a",         "/a",        "a/",        "a//b",      "a/b",       "b/a",       "a/b/c",
      "x/a/b/c",   "a/x/b/c",   "a/b/x/c",   "a/b/c/x",   "ab/b/c",    "a/bb/cc",   "a/b",       "xa/yb",
      "aa/ab/ba",  "a.x/b.x",   "x/y/z/a.x", "a/a/a/a",   "/a/b/c",    "a/b/c/",    "ab",        "ba",
      "a/b/a/b",   "b/a/b/a/c", "aab/ab/a",  "x/ab.ba/x", "a\nb/c",    "a/b\n/c"};
  for (const std::string text : {"a/*/c*", "**/a/*", "*/a/**", "**/a/**/c", "a/**/b/**/c", "**/*a*b*", "**/a*/**/*.x",
                                 "*", "*/*", "**/b/**", "a*/**/*b", "*a*/**", "**/ab/**/ba", "a/**/a/**/a",
                                 "!**/b/**/c", "*/**"}) {
    INFO(text);
    CHECK(std::get<Pattern>(Pattern::compile(text, Dialect::github)).strategy() == "components");
    auto l = sieve_list(rng, {text});
    check_batch(l, paths);
  }
}

TEST_CASE("components shortcut: patterns alike before the name share a folder's answer, and only they") {
  // One batch, lists evaluated in turn: `**/a*/b/**/*.x` and `**/a*/b/**/*.y` share whether a
  // folder has an a* part then a b part; `a*/b/**/*.x` (those first) and `*/a*/b/**/*.x` (second
  // and third) must not take that answer for theirs.
  std::mt19937 rng(11);
  const std::vector<std::string> paths{"ab/c/ab/b/d.x", "ab/b/c.x",   "ab/b/c.y", "c/ab/b/d.x", "c/ab/b/d.y",
                                       "ab/c/ab/b/d.y", "ab/c.x",     "b/c.x",    "a/b.x",      "c/ab/b/ab/b/d.x",
                                       "ab/b/ab/b/d.y", "ab/ab/b/c.x"};
  std::vector<std::string_view> views(paths.begin(), paths.end());
  const PathBatch batch(views);
  for (const auto& texts : std::vector<std::vector<std::string>>{{"**/a*/b/**/*.x"},
                                                                 {"a*/b/**/*.x"},
                                                                 {"*/a*/b/**/*.x"},
                                                                 {"**/a*/b/**/*.y"},
                                                                 {"**/c/**/a*/b/**/*.x"},
                                                                 {"**/*.x"}}) {
    INFO(texts.front());
    auto l = sieve_list(rng, texts);
    check_path_batch(l, batch, paths);
  }
}

TEST_CASE("components shortcut agrees with the automaton on random patterns and paths") {
  // Component globs over a tiny alphabet (so paths often match, or miss by one byte),
  // joined with `**/` gaps and a trailing `/**`, against paths of whole components and
  // random bytes (empty and doubled components included).
  std::mt19937 rng(720027);
  auto component = [&] {
    static const std::string bytes = "ab.x*";
    std::string s;
    for (std::size_t n = 1 + rng() % 3; n-- > 0;) {
      const char c = bytes[rng() % bytes.size()];
      if (c == '*' && !s.empty() && s.back() == '*') continue;
      s += c;
    }
    return s;
  };
  int decided = 0;
  for (int round = 0; round < 250; ++round) {
    std::vector<std::string> texts;
    for (int k = 0; k < 4; ++k) {
      std::string t = rng() % 3 == 0 ? "**/" : "";
      for (std::size_t parts = 1 + rng() % 3; parts-- > 0;) {
        t += component();
        if (parts > 0) t += rng() % 3 == 0 ? "/**/" : "/";
      }
      if (rng() % 4 == 0) t += "/**";
      if (!std::holds_alternative<Pattern>(Pattern::compile(t, Dialect::github))) continue;
      decided += std::get<Pattern>(Pattern::compile(t, Dialect::github)).strategy() == "components" ? 1 : 0;
      texts.push_back(rng() % 4 == 0 ? "!" + t : t);
    }
    auto l = sieve_list(rng, texts);
    std::vector<std::string> paths;
    for (int q = 0; q < 30; ++q) paths.push_back(gatekit::testing::random_glob_path(rng, 12));
    for (int q = 0; q < 30; ++q) {
      std::string p;
      for (std::size_t parts = 1 + rng() % 5; parts-- > 0;) {
        std::string c = component();
        std::erase(c, '*');
        p += c.empty() ? "a" : c;
        if (parts > 0) p += '/';
      }
      paths.push_back(p);
    }
    INFO("patterns: " << texts.size());
    check_batch(l, paths);
  }
  CHECK(decided > 400);  // (most patterns drawn have the shape)
}

TEST_CASE("a PathBatch shared by several lists, and one list given several batches, agrees with the reference") {
  // Each batch numbers its folders in the order it meets them: the same number is another
  // folder in another batch, so a list's remembered folder states must not carry over.
  std::mt19937 rng(2727027);
  for (int round = 0; round < 60; ++round) {
    std::vector<PatternList> lists;
    for (int k = 0; k < 3; ++k) {
      auto texts = matching_patterns(rng, 30);
      for (const auto& t : gatekit::testing::random_pattern_texts(rng)) texts.push_back(t);
      lists.push_back(batch_list(texts));
    }
    std::vector<std::string> folders;
    for (int f = 0; f < 5; ++f) folders.push_back(gatekit::testing::random_glob_path(rng, 8) + "/");
    auto draw = [&] {
      std::vector<std::string> paths = matching_paths(rng, 10);
      for (int q = 0; q < 40; ++q) {
        std::string name = gatekit::testing::random_glob_path(rng, 6);
        std::erase(name, '/');
        paths.push_back((q % 7 == 0 ? std::string() : folders[rng() % folders.size()]) + name);
      }
      return paths;
    };
    const auto first = draw();
    auto second = first;
    std::reverse(second.begin(), second.end());  // the same folders, numbered the other way round
    const auto third = draw();
    const PathBatch one(std::vector<std::string_view>(first.begin(), first.end()));
    const PathBatch two(std::vector<std::string_view>(second.begin(), second.end()));
    const PathBatch three(std::vector<std::string_view>(third.begin(), third.end()));
    for (const auto& l : lists) check_path_batch(l, one, first);
    for (const auto& l : lists) check_path_batch(l, two, second);
    for (const auto& l : lists) check_path_batch(l, three, third);
    for (const auto& l : lists) check_path_batch(l, one, first);
    for (const auto& l : lists) CHECK(l.pattern_by_pattern());
  }
}

TEST_CASE("a PathBatch with more folders than a list remembers forgets them and agrees with the reference") {
  std::mt19937 rng(4097);
  auto l = batch_list(matching_patterns(rng, 50));
  std::vector<std::string> paths;
  for (int k = 0; k < 5000; ++k) paths.push_back("core" + std::to_string(k) + "/data_1/test_queue_model" + std::to_string(k) + ".py");
  for (int k = 0; k < 300; ++k) paths.push_back("core" + std::to_string(k) + "/data_1/util_kernel.cu");  // folders met again
  const PathBatch batch(std::vector<std::string_view>(paths.begin(), paths.end()));
  check_path_batch(l, batch, paths);
  CHECK(l.pattern_by_pattern());
}

TEST_CASE("a PathBatch: picomatch lists, an empty path, an empty batch") {
  auto pico = batch_list({"src/**", "!**/*.md", "*.{js,ts}", "a/b"}, Dialect::picomatch);
  const std::vector<std::string> paths{"src/a.js", "", "a.md", "b.ts", "x/y", "src/README.md", "a/b", "", "/"};
  const PathBatch batch(std::vector<std::string_view>(paths.begin(), paths.end()));
  check_path_batch(pico, batch, paths);
  const PathBatch none(std::vector<std::string_view>{});
  check_path_batch(pico, none, {});
  CHECK(none.size() == 0);
}

TEST_CASE("lists holding copies of the same patterns share their prefilters and automata and agree with the reference") {
  // path-classifier compiles a text once for every filter that lists it: the copies share one
  // program, so one pattern's automaton grows with the paths of every list that holds it.
  std::mt19937 rng(27272);
  for (int round = 0; round < 40; ++round) {
    auto texts = matching_patterns(rng, 40);
    for (const auto& t : gatekit::testing::random_pattern_texts(rng)) texts.push_back(t);
    std::vector<Pattern> compiled;
    for (const auto& t : texts) compiled.push_back(std::get<Pattern>(Pattern::compile(t, Dialect::github)));
    std::vector<PatternList> lists;
    for (int k = 0; k < 3; ++k) {
      std::vector<Pattern> copies;
      for (std::size_t i = 0; i < compiled.size(); ++i)
        if (rng() % 3 != 0) copies.push_back(compiled[i]);  // an overlapping subset ...
      std::shuffle(copies.begin(), copies.end(), rng);     // ... in another order
      copies.push_back(compiled[rng() % compiled.size()]);  // and one pattern twice in a list
      lists.emplace_back(std::move(copies), Dialect::github);
    }
    const auto paths = matching_paths(rng, 60);
    const PathBatch batch(std::vector<std::string_view>(paths.begin(), paths.end()));
    for (const auto& l : lists) check_path_batch(l, batch, paths);
    for (const auto& l : lists) check_batch(l, matching_paths(rng, 30));
    for (const auto& p : paths)
      for (const auto& l : lists) {
        INFO(p);
        CHECK(l.evaluate(p).decisive == l.evaluate_slow(p).decisive);
      }
    for (const auto& l : lists) CHECK(l.pattern_by_pattern());  // (the sieve decided)
  }
}
