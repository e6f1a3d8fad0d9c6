// The GitHub response decoding fuzz property (fuzz/github_decode_property.hpp) over
// fuzz/corpus/github_decode plus seeded random mutations: deterministic, any compiler. The
// libFuzzer target fuzz/github_decode.cpp explores the same property with clang (scripts/fuzz.sh
// github_decode).
#include <random>
#include <string>
#include <string_view>

#include "../../fuzz/github_decode_property.hpp"
#include "catch.hpp"
#include "fuzz_corpus.hpp"

namespace {

constexpr std::string_view kTokens[] = {
    "{", "}", "[", "]", ",", ":", "\"", "null", "true", "-1", "18446744073709551615", "1e400",
    "\"filename\":", "\"status\":", "\"head\":", "\"sha\":", "\"id\":", "\"expired\":", "<",
    ">; rel=\"next\"", "\\u0000"
};

}  // namespace

TEST_CASE("GitHub response decoding fuzz property holds on the corpus and 5000 seeded mutations") {
  const auto inputs = gatekit::testing::read_corpus("github_decode");
  REQUIRE(inputs.size() >= 4);
  for (const auto& input : inputs) {
    CAPTURE(input);
    CHECK(gatekit::fuzzing::github_decode_property_violation(input).empty());
  }
  std::mt19937 rng(20261201);
  for (int i = 0; i < 5000; ++i) {
    const auto input = gatekit::testing::mutate(inputs, kTokens, rng);
    const auto violation = gatekit::fuzzing::github_decode_property_violation(input);
    if (!violation.empty()) {
      CAPTURE(input, violation);
      FAIL("property violated");
    }
  }
}
