// The needs reader: table-driven cases, then the fuzz property over the corpus in
// fuzz/corpus/needs plus seeded random mutations (deterministic; the libFuzzer target in
// fuzz/ explores further when built with clang).
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "../../fuzz/needs_property.hpp"
#include "catch.hpp"
#include "fuzz_corpus.hpp"
#include "needs.hpp"

using namespace gatekit::matrix_aggregator;

TEST_CASE("needs: valid toJSON(needs) shapes") {
  auto n = parse_needs(R"({"changes":{"result":"success","outputs":{"cpu":"true"}},"tests":{"result":"skipped","outputs":{}}})",
                       "GATEKIT_NEEDS");
  REQUIRE(n);
  REQUIRE(n->jobs.size() == 2);
  CHECK(n->jobs[0].name == "changes");  // input order is kept
  CHECK(n->jobs[0].outputs.at("cpu") == "true");
  CHECK(n->jobs[1].result == JobResult::skipped);
  CHECK(n->find("tests") == &n->jobs[1]);
  CHECK(n->find("nope") == nullptr);
  auto no_outputs = parse_needs(R"({"a":{"result":"cancelled"},"b":{"result":"failure","outputs":null}})", "f");
  REQUIRE(no_outputs);
  CHECK(no_outputs->jobs[0].result == JobResult::cancelled);
  CHECK(no_outputs->jobs[1].outputs.empty());
}

TEST_CASE("needs: invalid inputs name the source and the problem") {
  struct Row {
    const char* text;
    const char* message;
  };
  const Row rows[] = {
      {"", "needs (E): empty; pass ${{ toJSON(needs) }} of a job that has needs:"},
      {"  \n", "needs (E): empty; pass ${{ toJSON(needs) }} of a job that has needs:"},
      {"[]", "needs (E): expected a JSON object (toJSON(needs)), got an array"},
      {"\"x\"", "needs (E): expected a JSON object (toJSON(needs)), got a string"},
      {"{}", "needs (E): the object is empty: the aggregator job must list the gate and the gated jobs in needs:"},
      {R"({"a":1})", "needs (E): job 'a': expected an object with \"result\", got a number"},
      {R"({"a":{}})", "needs (E): job 'a': \"result\" is missing"},
      {R"({"a":{"result":true}})", "needs (E): job 'a': \"result\" must be a string, got a boolean"},
      {R"({"a":{"result":"neutral"}})",
       "needs (E): job 'a': unknown result 'neutral' (expected success, failure, cancelled or skipped)"},
      {R"({"a":{"result":"success","outputs":[]}})", "needs (E): job 'a': \"outputs\" must be an object, got an array"},
      {R"({"a":{"result":"success","outputs":{"cpu":true}}})",
       "needs (E): job 'a': output 'cpu' must be a string, got a boolean"},
  };
  for (const auto& row : rows) {
    auto n = parse_needs(row.text, "E");
    INFO(row.text);
    REQUIRE_FALSE(n);
    CHECK(n.error().message == row.message);
    CHECK(n.error().kind == gatekit::ErrorKind::could_not_evaluate);
  }
  auto broken = parse_needs(R"({"a":{"result":"success"})", "E");
  REQUIRE_FALSE(broken);
  CHECK(broken.error().message.rfind("needs (E): invalid JSON: ", 0) == 0);
}

namespace {

constexpr std::string_view kJsonTokens[] = {"{", "}", "[", "]", "\"", ":", ",", "null", "\"result\"", "\"skipped\"",
                                            "\"outputs\"", "\\u0000", "\\", "1e999", "-0", "\xff", "\n", "{\"a\":"};

}  // namespace

TEST_CASE("needs fuzz property holds on the corpus and 20000 seeded mutations") {
  const auto inputs = gatekit::testing::read_corpus("needs");
  REQUIRE(inputs.size() >= 8);
  std::size_t accepted = 0;
  for (const auto& input : inputs) {
    INFO(input);
    CHECK(gatekit::fuzzing::needs_property_violation(input).empty());
    if (parse_needs(input, "c")) ++accepted;
  }
  CHECK(accepted >= 3);  // the corpus holds valid inputs, so mutations start from real shapes
  std::mt19937 rng(20240611);
  std::size_t mutated_accepted = 0;
  for (int i = 0; i < 20000; ++i) {
    auto input = gatekit::testing::mutate(inputs, kJsonTokens, rng);
    const auto violation = gatekit::fuzzing::needs_property_violation(input);
    if (!violation.empty()) {
      INFO("input: " << input);
      FAIL(violation);
    }
    if (parse_needs(input, "m")) ++mutated_accepted;
  }
  CHECK(mutated_accepted > 0);  // some mutations stay valid: the property was exercised on both paths
  // Deep nesting is rejected, not a stack overflow.
  CHECK_FALSE(parse_needs(std::string(100000, '[') + std::string(100000, ']'), "deep"));
}
