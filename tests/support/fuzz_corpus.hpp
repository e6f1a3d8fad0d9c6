#pragma once
// Deterministic fuzzing for g++ builds: the libFuzzer targets under fuzz/ explore with clang;
// these helpers replay their corpus and seeded mutations of it inside ordinary unit tests.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace gatekit::testing {

// Every file of fuzz/corpus/<name>, in name order so runs are repeatable.
inline std::vector<std::string> read_corpus(const std::string& name) {
  const auto dir = std::filesystem::path(GATEKIT_SOURCE_DIR) / "fuzz" / "corpus" / name;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  std::vector<std::string> inputs;
  for (const auto& file : files) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    inputs.push_back(text.str());
  }
  return inputs;
}

// One to four edits of a corpus entry: insert a format-significant token, delete a span,
// flip a byte, or splice in a span of another entry (repeated keys, deep nesting).
inline std::string mutate(const std::vector<std::string>& pool, std::span<const std::string_view> tokens,
                          std::mt19937& rng) {
  std::string s = pool[rng() % pool.size()];
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int i = 0; i < edits; ++i) {
    const std::size_t pos = s.empty() ? 0 : rng() % (s.size() + 1);
    switch (rng() % 4) {
      case 0:
        s.insert(pos, tokens[rng() % tokens.size()]);
        break;
      case 1:
        if (pos < s.size()) s.erase(pos, 1 + rng() % 8);
        break;
      case 2:
        if (pos < s.size()) s[pos] = static_cast<char>(rng() % 256);
        break;
      default: {
        const auto& other = pool[rng() % pool.size()];
        if (!other.empty()) s.insert(pos, other.substr(rng() % other.size(), 1 + rng() % 40));
      }
    }
  }
  return s;
}

}  // namespace gatekit::testing
