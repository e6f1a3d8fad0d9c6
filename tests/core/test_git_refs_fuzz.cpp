// The git syntax fuzz property (fuzz/git_refs_property.hpp) over fuzz/corpus/git_refs plus seeded
// random mutations: deterministic, any compiler. The libFuzzer target fuzz/git_refs.cpp explores
// the same property with clang (scripts/fuzz.sh git_refs).
#include <random>
#include <string>
#include <string_view>

#include "../../fuzz/git_refs_property.hpp"
#include "catch.hpp"
#include "fuzz_corpus.hpp"

namespace {

constexpr std::string_view kTokens[] = {
    std::string_view("\0", 1), "..", "@{", "~", "^", "^{commit}", "/", ".lock", "-", ":", "\\", "\"",
    "\\303", "\\t", "R100", "M", " ", "\x7f", "*"
};

}  // namespace

TEST_CASE("git syntax fuzz property holds on the corpus and 5000 seeded mutations") {
  const auto inputs = gatekit::testing::read_corpus("git_refs");
  REQUIRE(inputs.size() >= 4);
  for (const auto& input : inputs) {
    CAPTURE(input);
    CHECK(gatekit::fuzzing::git_refs_property_violation(input).empty());
  }
  std::mt19937 rng(20261201);
  for (int i = 0; i < 5000; ++i) {
    const auto input = gatekit::testing::mutate(inputs, kTokens, rng);
    const auto violation = gatekit::fuzzing::git_refs_property_violation(input);
    if (!violation.empty()) {
      CAPTURE(input, violation);
      FAIL("property violated");
    }
  }
}
