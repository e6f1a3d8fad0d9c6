// The selection file fuzz property (fuzz/selection_property.hpp) over fuzz/corpus/selection plus
// seeded random mutations: deterministic, any compiler. The libFuzzer target fuzz/selection.cpp
// explores the same property with clang (scripts/fuzz.sh selection).
#include <random>
#include <string>
#include <string_view>

#include "../../fuzz/selection_property.hpp"
#include "catch.hpp"
#include "fuzz_corpus.hpp"

namespace {

constexpr std::string_view kTokens[] = {
    ":", "- ", "[", "]", "{", "}", "\n", "  ", "\"", "legs:", "markers: ", "device: gpu", "version: 1",
    "nightly-contexts: ", "docs:", "leg: ", "-m", "(", ")", "not ", "\x01", "&a ", "*a"
};

}  // namespace

TEST_CASE("selection file fuzz property holds on the corpus and 5000 seeded mutations") {
  const auto inputs = gatekit::testing::read_corpus("selection");
  REQUIRE(inputs.size() >= 3);
  int accepted = 0;
  for (const auto& input : inputs) {
    CAPTURE(input);
    accepted += gatekit::selection::load_selection_text(input, "x").ok() ? 1 : 0;
    CHECK(gatekit::fuzzing::selection_property_violation(input).empty());
  }
  CHECK(accepted >= 2);  // the corpus reaches past the loader's refusals
  std::mt19937 rng(20261201);
  for (int i = 0; i < 5000; ++i) {
    const auto input = gatekit::testing::mutate(inputs, kTokens, rng);
    const auto violation = gatekit::fuzzing::selection_property_violation(input);
    if (!violation.empty()) {
      CAPTURE(input, violation);
      FAIL("property violated");
    }
  }
}
