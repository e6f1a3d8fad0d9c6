// gatekit-api prints API text: the printed JSON must never act as a workflow command, and
// must still be the value the API returned.
#include "catch.hpp"
#include "build_call.hpp"
#include "gatekit/workflow.hpp"

using gatekit::gatekit_api::inert_json;
namespace json = boost::json;

TEST_CASE("inert_json: plain answers print exactly as serialized") {
  for (const char* text : {R"({"number":1,"title":"fix: a [b] c","labels":["x"]})", R"([1,2,{"a":null}])",
                           R"("caf\u00e9")", R"({"path":"src/kernels/ä.cu"})"}) {
    INFO(text);
    auto value = json::parse(text);
    CHECK(inert_json(value) == json::serialize(value));
  }
}

TEST_CASE("inert_json: text the runner would read as a command is escaped, the value kept") {
  const std::vector<std::pair<std::string, std::string>> cases{
      {"##[error]pwned", R"(["##\u005berror]pwned"])"},
      {"a\n::error::pwned", R"(["a\n::error::pwned"])"},  // JSON escapes the newline already
      {"#\xE2\x80\x8B#[error]x", R"(["#\u200b#\u005berror]x"])"},  // a zero-width space between the marks
      {"line\xE2\x80\xA8##[warning]y", R"(["line\u2028##\u005bwarning]y"])"},
      {"\xF0\x9F\x98\x80 ##[group]z", R"(["\ud83d\ude00 ##\u005bgroup]z"])"},
  };
  for (const auto& [text, want] : cases) {
    INFO(text);
    json::value value = json::array{json::string(text)};
    const auto printed = inert_json(value);
    CHECK(printed == want);
    CHECK(gatekit::inert_line(printed) == printed);
    CHECK(printed.find('\n') == std::string::npos);
    CHECK(json::parse(printed) == value);
  }
}

TEST_CASE("inert_json: keys and nested strings are covered, structure untouched") {
  auto value = json::parse(R"({"##[error]k":[{"filename":"x##[debug]y","n":[1,[2]]}]})");
  const auto printed = inert_json(value);
  CHECK(printed == R"({"##\u005berror]k":[{"filename":"x##\u005bdebug]y","n":[1,[2]]}]})");
  CHECK(gatekit::inert_line(printed) == printed);
  CHECK(json::parse(printed) == value);
}
