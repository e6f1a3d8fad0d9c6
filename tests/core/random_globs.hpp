#pragma once
// Random github-dialect pattern lists and paths over a tiny alphabet, for the tests that
// check the list DFA against pattern-by-pattern evaluation (small alphabets make matches
// and near-misses frequent).
#include <random>
#include <string>
#include <variant>
#include <vector>

#include "gatekit/glob.hpp"

namespace gatekit::testing {

// One to six patterns that compile, a third of them negated; may be empty.
inline std::vector<std::string> random_pattern_texts(std::mt19937& rng) {
  static const std::vector<std::string> atoms{"a", "b", "/", "*", "**", "**/", "[ab]", "a?", "b+", "."};
  std::vector<std::string> texts;
  const int n = 1 + static_cast<int>(rng() % 6);
  for (int k = 0; k < n; ++k) {
    std::string t = rng() % 3 == 0 ? "!" : "";
    const int len = 1 + static_cast<int>(rng() % 6);
    for (int j = 0; j < len; ++j) t += atoms[rng() % atoms.size()];
    if (std::holds_alternative<glob::Pattern>(glob::Pattern::compile(t, glob::Dialect::github))) texts.push_back(t);
  }
  return texts;
}

inline std::string random_glob_path(std::mt19937& rng, int max_length) {
  static const std::string alphabet = "ab/.x";
  std::string path;
  const int len = static_cast<int>(rng() % static_cast<unsigned>(max_length));
  for (int j = 0; j < len; ++j) path += alphabet[rng() % alphabet.size()];
  return path;
}

}  // namespace gatekit::testing
