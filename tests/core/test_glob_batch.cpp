// PatternList::evaluate_many (interleaved DFA walks) against evaluate() and the
// pattern-by-pattern reference: same verdicts whatever the batch size, path lengths, dead
// walks, DFA cache state or dialect.
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

void check_batch(const PatternList& l, const std::vector<std::string>& paths) {
  std::vector<std::string_view> views(paths.begin(), paths.end());
  std::vector<ListVerdict> got(views.size());
  l.evaluate_many(views.data(), views.size(), got.data());
  for (std::size_t i = 0; i < paths.size(); ++i) {
    const auto slow = l.evaluate_slow(paths[i]);
    INFO("path '" << paths[i] << "' (#" << i << " of " << paths.size() << ")");
    CHECK(got[i].included == slow.included);
    CHECK(got[i].decisive == slow.decisive);
  }
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
  CHECK(l.dfa_states() >= 4096);  // the cache did fill up (its documented bound)
}
