#include <array>
#include <string_view>

#include "catch.hpp"
#include "gatekit/config.hpp"

using namespace gatekit;

namespace {
YAML::Node parse(const std::string& text) {
  auto node = load_yaml_text(text, "t.yaml");
  REQUIRE(node.ok());
  return *node;
}
constexpr std::array<std::string_view, 4> kKeys{"name", "command", "min_gpus", "pr"};
}  // namespace

TEST_CASE("a YAML syntax error names file, line and column") {
  auto node = load_yaml_text("smokes:\n  - name: [a\n", "manifest.yaml");
  REQUIRE_FALSE(node.ok());
  CHECK(node.error().code == ExitCode::usage_error);
  CHECK(node.error().message.rfind("manifest.yaml:3:1: invalid YAML: ", 0) == 0);
}

TEST_CASE("a missing file is a usage error naming the file") {
  auto node = load_yaml_file("/nonexistent/gatekit.yaml");
  REQUIRE_FALSE(node.ok());
  CHECK(node.error().message == "/nonexistent/gatekit.yaml: cannot read file");
}

TEST_CASE("unknown keys are rejected with a did-you-mean hint, duplicates too") {
  auto doc = parse("name: a\nnaem: b\ncommnd: [x]\nzzzzzz: 1\nname: again\n");
  ConfigErrors errors("t.yaml");
  reject_unknown_keys(doc, kKeys, "smokes[0]", errors);
  CHECK(errors.format() ==
        "t.yaml:2:1: smokes[0].naem: unknown key 'naem' (did you mean 'name'?)\n"
        "t.yaml:3:1: smokes[0].commnd: unknown key 'commnd' (did you mean 'command'?)\n"
        "t.yaml:4:1: smokes[0].zzzzzz: unknown key 'zzzzzz' (allowed: name, command, min_gpus, pr)\n"
        "t.yaml:5:1: smokes[0].name: duplicate key 'name'");
}

struct ScalarCase {
  const char* yaml;
  const char* message;  // empty: accepted
};

TEST_CASE("integers are strict: no quotes, no booleans, no words") {
  const ScalarCase cases[] = {
      {"v: 2", ""},
      {"v: -1", ""},
      {"v: '2'", "t.yaml:1:4: v: expected an integer, got the string \"2\" (remove the quotes)"},
      {"v: true", "t.yaml:1:4: v: expected an integer, got true (a boolean)"},
      {"v: two", "t.yaml:1:4: v: expected an integer, got 'two'"},
      {"v: 1.5", "t.yaml:1:4: v: expected an integer, got '1.5'"},
      {"v: [1]", "t.yaml:1:4: v: expected an integer, got a list"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.yaml);
    ConfigErrors errors("t.yaml");
    auto v = read_int(parse(c.yaml)["v"], "v", errors);
    CHECK(v.has_value() == (c.message[0] == '\0'));
    CHECK(errors.format() == c.message);
  }
}

TEST_CASE("an empty value is reported at its key") {
  auto doc = parse("a: 1\nmin_gpus:\nb: 2\n");
  for (const auto& entry : doc) {
    if (entry.first.Scalar() != "min_gpus") continue;
    ConfigErrors errors("t.yaml");
    CHECK_FALSE(read_int(entry.second, "min_gpus", errors, &entry.first).has_value());
    CHECK(errors.format() == "t.yaml:2:1: min_gpus: expected an integer, got nothing");
  }
}

TEST_CASE("booleans are strict: true or false, unquoted") {
  const ScalarCase cases[] = {
      {"v: true", ""},
      {"v: False", ""},
      {"v: 'false'", "t.yaml:1:4: v: expected true or false, got the string \"false\" (remove the quotes)"},
      {"v: yes", "t.yaml:1:4: v: expected true or false, got 'yes'"},
      {"v: 1", "t.yaml:1:4: v: expected true or false, got '1'"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.yaml);
    ConfigErrors errors("t.yaml");
    auto v = read_bool(parse(c.yaml)["v"], "v", errors);
    CHECK(v.has_value() == (c.message[0] == '\0'));
    CHECK(errors.format() == c.message);
  }
  ConfigErrors errors("t.yaml");
  CHECK(read_bool(parse("v: FALSE")["v"], "v", errors) == false);
}

TEST_CASE("string lists take scalars as text and reject nested values") {
  ConfigErrors errors("t.yaml");
  auto ok = read_string_list(parse("v: [python, -m, 3, true]")["v"], "v", errors);
  REQUIRE(ok.has_value());
  CHECK(*ok == std::vector<std::string>{"python", "-m", "3", "true"});
  auto bad = read_string_list(parse("v:\n  - a\n  - [b]\n  - {c: 1}\n")["v"], "v", errors);
  CHECK_FALSE(bad.has_value());
  CHECK(errors.format() ==
        "t.yaml:3:5: v[1]: expected a string, got a list\n"
        "t.yaml:4:5: v[2]: expected a string, got a map");
  ConfigErrors e2("t.yaml");
  CHECK_FALSE(read_string_list(parse("v: python -m x")["v"], "v", e2).has_value());
  CHECK(e2.format() == "t.yaml:1:4: v: expected a list, got 'python -m x'");
}

TEST_CASE("all errors are reported together, in document order, with a count") {
  ConfigErrors errors("m.yaml");
  errors.add(5, 2, "b", "second");
  errors.add(1, 1, "a", "first");
  auto e = errors.to_error();
  CHECK(e.code == ExitCode::usage_error);
  CHECK(e.message == "2 errors in m.yaml:\nm.yaml:1:1: a: first\nm.yaml:5:2: b: second");
}
