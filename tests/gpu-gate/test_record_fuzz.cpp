// The gpu-gate record fuzz property (fuzz/gpu_gate_record_property.hpp) over
// fuzz/corpus/gpu_gate_record plus seeded random mutations: deterministic, any compiler. The
// libFuzzer target fuzz/gpu_gate_record.cpp explores the same property with clang
// (scripts/fuzz.sh gpu_gate_record).
#include <random>
#include <string>
#include <string_view>

#include "../../fuzz/gpu_gate_record_property.hpp"
#include "catch.hpp"
#include "fuzz_corpus.hpp"

namespace {

constexpr std::string_view kTokens[] = {
    "\n", ": ", "gpu: ", "gpu-count: 9", "passed: ", "-1", "99999999999999999999", "refs/", "gatekit-gate",
    "-mine", "/", "..", ".lock", "\x1b[31m", "\xc3\xa9", "4b825dc642cb6eb9a060e54bf8d69288fbee4904", "@{", " ",
    "committer a <b> 1 +0000\n", "gpgsig ", "\n ", "parent "};

}  // namespace

TEST_CASE("gpu-gate record fuzz property holds on the corpus and 5000 seeded mutations") {
  const auto inputs = gatekit::testing::read_corpus("gpu_gate_record");
  REQUIRE(inputs.size() >= 4);
  int accepted = 0;
  for (const auto& input : inputs) {
    CAPTURE(input);
    CHECK(gatekit::fuzzing::gpu_gate_record_property_violation(input).empty());
    accepted += gatekit::gpu_gate::parse_record(gatekit::fuzzing::after_selector(input)).ok() ? 1 : 0;
  }
  CHECK(accepted >= 2);  // the corpus reaches past the parser's refusals
  std::mt19937 rng(20261201);
  for (int i = 0; i < 5000; ++i) {
    const auto input = gatekit::testing::mutate(inputs, kTokens, rng);
    const auto violation = gatekit::fuzzing::gpu_gate_record_property_violation(input);
    if (!violation.empty()) {
      CAPTURE(input, violation);
      FAIL("property violated");
    }
  }
}
