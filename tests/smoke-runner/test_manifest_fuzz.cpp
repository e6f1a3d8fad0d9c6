// The manifest fuzz property (fuzz/smoke_manifest_property.hpp) over the corpus in
// fuzz/corpus/smoke-manifest plus seeded random mutations: deterministic, any compiler.
// The libFuzzer target fuzz/smoke_manifest.cpp checks the same property with clang.
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "../../fuzz/smoke_manifest_property.hpp"
#include "catch.hpp"
#include "fuzz_corpus.hpp"

namespace {

constexpr std::string_view kYamlTokens[] = {":", "- ", "[", "]", "{", "}", "\n", "  ", "~", "'", "\"", "true", "0", "-1",
                                            "min_gpus: ", "pr: ", "timeout: ", "env: ", "cwd: ", "name: ", "command: ",
                                            "smokes:", "&a ", "*a", "!!str ", "#", "1e9", "99999999999999999999"};

}  // namespace

TEST_CASE("manifest fuzz property holds on the corpus and 10000 seeded mutations") {
  const auto inputs = gatekit::testing::read_corpus("smoke-manifest");
  REQUIRE(inputs.size() >= 4);
  int accepted = 0;
  for (const auto& input : inputs) {
    CAPTURE(input);
    CHECK(gatekit::fuzzing::smoke_manifest_property_violation(input).empty());
    accepted += gatekit::smoke_runner::load_manifest_text(input, "x").ok() ? 1 : 0;
  }
  CHECK(accepted >= 3);
  std::mt19937 rng(20240611);
  for (int i = 0; i < 10000; ++i) {
    const auto input = gatekit::testing::mutate(inputs, kYamlTokens, rng);
    const auto violation = gatekit::fuzzing::smoke_manifest_property_violation(input);
    if (!violation.empty()) {
      CAPTURE(input, violation);
      FAIL("property violated");
    }
  }
}
