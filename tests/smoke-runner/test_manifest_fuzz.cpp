// The manifest fuzz property (fuzz/smoke_manifest_property.hpp) over the corpus in
// fuzz/corpus/smoke-manifest plus seeded random mutations: deterministic, any compiler.
// The libFuzzer target fuzz/smoke_manifest.cpp checks the same property with clang.
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "../../fuzz/smoke_manifest_property.hpp"
#include "catch.hpp"

namespace {

std::vector<std::string> corpus() {
  const auto dir = std::filesystem::path(GATEKIT_TEST_DATA).parent_path().parent_path().parent_path() / "fuzz" /
                   "corpus" / "smoke-manifest";
  std::vector<std::string> out;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::ifstream in(entry.path(), std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    out.push_back(text.str());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Byte flips, YAML-significant insertions, deletions and splices between corpus files.
std::string mutate(const std::vector<std::string>& pool, std::mt19937& rng) {
  static const char* tokens[] = {":", "- ", "[", "]", "{", "}", "\n", "  ", "~", "'", "\"", "true", "0", "-1",
                                 "min_gpus: ", "pr: ", "timeout: ", "env: ", "cwd: ", "name: ", "command: ",
                                 "smokes:", "&a ", "*a", "!!str ", "#", "1e9", "99999999999999999999"};
  std::string s = pool[rng() % pool.size()];
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int k = 0; k < edits; ++k) {
    const std::size_t pos = s.empty() ? 0 : rng() % (s.size() + 1);
    switch (rng() % 4) {
      case 0:
        if (!s.empty() && pos < s.size()) s[pos] = static_cast<char>(rng() % 256);
        break;
      case 1: s.insert(pos, tokens[rng() % (sizeof tokens / sizeof *tokens)]); break;
      case 2:
        if (!s.empty() && pos < s.size()) s.erase(pos, 1 + rng() % 8);
        break;
      default: {
        const auto& other = pool[rng() % pool.size()];
        if (other.empty()) break;
        const std::size_t from = rng() % other.size();
        s.insert(pos, other.substr(from, 1 + rng() % 40));
      }
    }
  }
  return s;
}

}  // namespace

TEST_CASE("manifest fuzz property holds on the corpus and 10000 seeded mutations") {
  const auto inputs = corpus();
  REQUIRE(inputs.size() >= 4);
  int accepted = 0;
  for (const auto& input : inputs) {
    CAPTURE(input);
    CHECK(gatekit::fuzzing::smoke_manifest_property_violation(input).empty());
    accepted += smoke_runner::load_manifest_text(input, "x").ok() ? 1 : 0;
  }
  CHECK(accepted >= 3);
  std::mt19937 rng(20240611);
  for (int i = 0; i < 10000; ++i) {
    const auto input = mutate(inputs, rng);
    const auto violation = gatekit::fuzzing::smoke_manifest_property_violation(input);
    if (!violation.empty()) {
      CAPTURE(input, violation);
      FAIL("property violated");
    }
  }
}
