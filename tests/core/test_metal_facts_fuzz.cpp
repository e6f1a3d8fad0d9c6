// The Metal and MLX device-fact fuzz property (fuzz/metal_facts_property.hpp) over
// fuzz/corpus/metal_facts plus seeded random mutations: deterministic, any compiler. The
// libFuzzer target fuzz/metal_facts.cpp explores the same property with clang (scripts/fuzz.sh
// metal_facts).
#include <random>
#include <string>
#include <string_view>

#include "../../fuzz/metal_facts_property.hpp"
#include "catch.hpp"
#include "fuzz_corpus.hpp"

namespace {

constexpr std::string_view kTokens[] = {
    "{", "}", "[", "]", ",", ":", "\"", "null", "true", "-1", "1e400", "\"\\u0000\"", "\"\\u001b\"",
    "\"_name\" : \"g\",", "\"sppci_model\" : ", "\"sppci_cores\" : \"4294967296\",",
    "\"spdisplays_mtlgpufamilysupport\" : \"spdisplays_metal\",", "\"spdisplays_metal\" : \"Supported\",",
    "\"os_version\" : \"macOS ( )\",", "\"SPHardwareDataType\" : [{}],", "\xff"};

}  // namespace

TEST_CASE("Metal facts fuzz property holds on the corpus and 5000 seeded mutations") {
  const auto inputs = gatekit::testing::read_corpus("metal_facts");
  REQUIRE(inputs.size() >= 6);
  for (const auto& input : inputs) {
    CAPTURE(input);
    CHECK(gatekit::fuzzing::metal_property_violation(input).empty());
  }
  std::mt19937 rng(20261202);
  for (int i = 0; i < 5000; ++i) {
    const auto input = gatekit::testing::mutate(inputs, kTokens, rng);
    const auto violation = gatekit::fuzzing::metal_property_violation(input);
    if (!violation.empty()) {
      CAPTURE(input, violation);
      FAIL("property violated");
    }
  }
}
