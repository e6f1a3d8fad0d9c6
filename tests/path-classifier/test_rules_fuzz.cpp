// The rules fuzz property (fuzz/rules_property.hpp) over fuzz/corpus/rules plus seeded random
// mutations: deterministic, any compiler. The libFuzzer target fuzz/rules.cpp explores the same
// property with clang (scripts/fuzz.sh rules).
#include <random>
#include <string>
#include <string_view>

#include "../../fuzz/rules_property.hpp"
#include "catch.hpp"
#include "fuzz_corpus.hpp"

namespace {

constexpr std::string_view kTokens[] = {
    ":", "- ", "[", "]", "{", "}", "\n", "  ", "*", "**", "!", "?", "\"", "filters:", "mode: deny", "paths:",
    "always:", "dialect: picomatch", "added|modified: ", "&a ", "*a", "category: docs",
    "predicate-quantifier: every"
};

}  // namespace

TEST_CASE("rules fuzz property holds on the corpus and 5000 seeded mutations") {
  const auto inputs = gatekit::testing::read_corpus("rules");
  REQUIRE(inputs.size() >= 3);
  int accepted = 0;
  for (const auto& input : inputs) {
    CAPTURE(input);
    const std::string yaml(gatekit::fuzzing::after_selector(input));
    accepted += gatekit::path_classifier::load_rules_text(yaml, "x", std::nullopt).ok() ? 1 : 0;
    CHECK(gatekit::fuzzing::rules_property_violation(input).empty());
  }
  CHECK(accepted >= 3);  // the corpus reaches past the loader's refusals
  std::mt19937 rng(20261201);
  for (int i = 0; i < 5000; ++i) {
    const auto input = gatekit::testing::mutate(inputs, kTokens, rng);
    const auto violation = gatekit::fuzzing::rules_property_violation(input);
    if (!violation.empty()) {
      CAPTURE(input, violation);
      FAIL("property violated");
    }
  }
}
