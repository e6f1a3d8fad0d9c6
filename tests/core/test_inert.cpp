// "Nothing gatekit prints from outside data starts a workflow command": the runner model the
// property reads output with (fuzz/runner_commands.hpp) checked on known commands, then the
// property (fuzz/inert_property.hpp) over fuzz/corpus/inert plus seeded mutations
// (deterministic; the libFuzzer target fuzz/inert_output.cpp explores further with clang).
#include <array>
#include <iostream>
#include <random>
#include <sstream>

#include "../../fuzz/inert_property.hpp"
#include "catch.hpp"
#include "fuzz_corpus.hpp"
#include "gatekit/cli.hpp"
#include "gatekit/fake_context.hpp"
#include "gatekit/json.hpp"

using namespace gatekit;
using namespace gatekit::fuzzing;

namespace {

std::vector<std::string> names(const std::vector<RunnerCommand>& commands) {
  std::vector<std::string> out;
  for (const auto& c : commands) out.push_back(c.name);
  return out;
}

}  // namespace

TEST_CASE("runner model: both command forms, anywhere the runner finds them") {
  CHECK(names(runner_commands("::error::x\n")) == std::vector<std::string>{"error"});
  CHECK(names(runner_commands(" \t ::WARNING file=a::b\n")) == std::vector<std::string>{"warning"});
  CHECK(names(runner_commands("text before ##[error]legacy\n")) == std::vector<std::string>{"error"});
  CHECK(names(runner_commands("a\r::notice::after a bare CR")) == std::vector<std::string>{"notice"});
  CHECK(names(runner_commands("\xc2\xa0::group::after a no-break space\n")) == std::vector<std::string>{"group"});
  // Characters culture-aware search skips: a zero-width space, a control.
  CHECK(names(runner_commands("\xe2\x80\x8b::error::zero width\n")) == std::vector<std::string>{"error"});
  CHECK(names(runner_commands("#\x01#[error]split\n")) == std::vector<std::string>{"error"});
  // Not commands: unknown names, no closing `::`, text before `::`.
  CHECK(runner_commands("::pwned::x\n::error x\nfile ::error::x\n\\x3a:error::x\n##\\x5berror]x\n").empty());
}

TEST_CASE("runner model: properties, data and the unescape tables") {
  const auto c = runner_commands("::error file=a%3Ab%2Cc,line=3,title==x=y ::d%0Ae%250A\n");
  REQUIRE(c.size() == 1);
  CHECK(c[0].properties == std::map<std::string, std::string>{{"file", "a:b,c"}, {"line", "3"}, {"title", "x=y"}});
  CHECK(c[0].data == "d\ne%0A");
  const auto legacy = runner_commands("##[warning file=a%3Bb;line=2]x%5D\n");
  REQUIRE(legacy.size() == 1);
  CHECK(legacy[0].properties == std::map<std::string, std::string>{{"file", "a;b"}, {"line", "2"}});
  CHECK(legacy[0].data == "x]");
}

TEST_CASE("runner model: stop-commands hides everything but its token") {
  const auto c = runner_commands("::stop-commands::tok\n::error::hidden\n##[warning]hidden\n::tok::\n::error::seen\n");
  CHECK(names(c) == std::vector<std::string>{"stop-commands", "tok", "error"});
  CHECK(c.back().data == "seen");
}

TEST_CASE("runner model: GITHUB_OUTPUT lines and heredocs") {
  const auto ok = runner_outputs("a=1\nb<<EOF\nx\n\nEOF\nc<<D\nD\n");
  CHECK(ok.error.empty());
  CHECK(ok.values == std::vector<std::pair<std::string, std::string>>{{"a", "1"}, {"b", "x\n"}, {"c", ""}});
  CHECK(runner_outputs("b<<EOF\nx\n").error == "Invalid value. Matching delimiter not found 'EOF'");
  CHECK(runner_outputs("junk\n").error == "Invalid format 'junk'");
}

TEST_CASE("the property catches output that is not inert") {
  // What the log printed before inert_line: a path with a newline became a command.
  const std::string path = "a\n::error::pwned";
  CHECK(names(runner_commands("cpu (deny): relevant - `" + path + "` matches no deny pattern\n")) ==
        std::vector<std::string>{"error"});
  CHECK(runner_commands(inert_line("cpu (deny): relevant - `" + path + "` matches no deny pattern") + "\n").empty());
}

TEST_CASE("JSON printed to the log keeps its value and starts no legacy command") {
  const std::string json = boost::json::serialize(boost::json::value{{"filename", "a\n##[error]x"}, {"n", 1}});
  CHECK(names(runner_commands(json + "\n")) == std::vector<std::string>{"error"});
  const auto inert = inert_json(json);
  CHECK(inert == "{\"filename\":\"a\\n##\\u005berror]x\",\"n\":1}");
  CHECK(runner_commands(inert + "\n").empty());
  CHECK(boost::json::parse(inert) == boost::json::parse(json));
}

TEST_CASE("the frame's error messages quote arguments and messages inert (gpu-gate, flaky-tracker, every tool)") {
  auto errors_of = [](std::vector<const char*> argv, const std::string& message) {
    FakeSeams seams;
    auto context = seams.context();
    const int code = run_tool({"gpu-gate", "frame"}, static_cast<int>(argv.size()), argv.data(), context,
                              [](gatekit::CliCommand&) {}, [&](Context&) -> ExitCode { fail_bad_input(message); });
    CHECK(code == 2);
    return seams.err.str();
  };
  const auto rejected = errors_of({"gpu-gate", "x\n::error::pwned", "##[warning]y"}, "");
  CHECK(rejected.find("gpu-gate: error: ") == 0);
  CHECK(runner_commands(rejected).empty());
  CHECK(errors_of({"gpu-gate"}, "bad name 'a\n::error::pwned'\nsecond line ##[warning]x") ==
        "gpu-gate: error: bad name 'a\n\\x3a:error::pwned'\nsecond line ##\\x5bwarning]x\n");
}

TEST_CASE("inert output property holds on the corpus and 3000 seeded mutations") {
  const InertScratch scratch;
  const auto inputs = gatekit::testing::read_corpus("inert");
  REQUIRE(inputs.size() >= 20);
  for (const auto& input : inputs) {
    INFO("corpus input: " << visible_controls(input));
    CHECK(inert_property_violation(input, scratch).empty());
  }
  static constexpr std::array<std::string_view, 22> kTokens{
      "::", "##[", "]", "\n", "\r", "\r\n", "%0A", "%25", ",", "=", "error", "stop-commands", "`", "|", "<",
      "\xe2\x80\x8b", "\xc2\xa0", "\xc2\x85", " ", "\t", "\\", std::string_view("\0", 1)};
  std::mt19937 rng(20260909);
  for (int i = 0; i < 3000; ++i) {
    const auto input = gatekit::testing::mutate(inputs, kTokens, rng);
    const auto violation = inert_property_violation(input, scratch);
    if (!violation.empty()) {
      INFO("mutation " << i << ": " << visible_controls(input));
      FAIL(violation);
    }
  }
}
