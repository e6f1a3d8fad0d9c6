#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "catch.hpp"
#include "gatekit/config.hpp"
#include "gatekit/files.hpp"
#include "gatekit/yaml.hpp"

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
  CHECK(node.error().kind == ErrorKind::bad_input);
  CHECK(node.error().message.rfind("manifest.yaml:3:1: invalid YAML: ", 0) == 0);
}

TEST_CASE("a missing file is a usage error naming the file, read through the files seam") {
  MemoryFiles files{{"gatekit.yaml", "name: a\n"}};
  auto node = load_yaml_file(files, "/nonexistent/gatekit.yaml");
  REQUIRE_FALSE(node.ok());
  CHECK(node.error().kind == ErrorKind::bad_input);
  CHECK(node.error().message == "cannot read /nonexistent/gatekit.yaml: No such file or directory");
  auto found = load_yaml_file(files, "gatekit.yaml");
  REQUIRE(found.ok());
  CHECK((*found)["name"].as<std::string>() == "a");
}

TEST_CASE("unknown keys are rejected with a did-you-mean hint") {
  auto doc = parse("name: a\nnaem: b\ncommnd: [x]\nzzzzzz: 1\n");
  ConfigErrors errors("t.yaml");
  reject_unknown_keys(doc, kKeys, "smokes[0]", errors);
  CHECK(errors.format() ==
        "t.yaml:2:1: smokes[0].naem: unknown key 'naem' (did you mean 'name'?)\n"
        "t.yaml:3:1: smokes[0].commnd: unknown key 'commnd' (did you mean 'command'?)\n"
        "t.yaml:4:1: smokes[0].zzzzzz: unknown key 'zzzzzz' (allowed: name, command, min_gpus, pr)");
}

namespace {
std::string load_error(const std::string& text) {
  auto node = load_yaml_text(text, "t.yaml");
  REQUIRE_FALSE(node.ok());
  CHECK(node.error().kind == ErrorKind::bad_input);
  return node.error().message;
}
}  // namespace

TEST_CASE("a duplicate key in any map is an error at the second occurrence, all of them together") {
  // yaml-cpp keeps both entries: iterating readers see two, lookups one of them.
  CHECK(load_error("name: a\ncommand: [x]\nname: again\n") ==
        "1 error in t.yaml:\n"
        "t.yaml:3:1: name: duplicate key 'name' (first at line 1, column 1): give each key once");
  CHECK(load_error("filters: {cpu: [a], gpu: [b], cpu: [c]}\n"
                   "smokes:\n"
                   "  - name: a\n"
                   "    env: {A: 1, 'A': 2}\n"
                   "  - {name: b, name: c}\n") ==
        "3 errors in t.yaml:\n"
        "t.yaml:1:31: filters.cpu: duplicate key 'cpu' (first at line 1, column 11): give each key once\n"
        "t.yaml:4:17: smokes[0].env.A: duplicate key 'A' (first at line 4, column 11): give each key once\n"
        "t.yaml:5:15: smokes[1].name: duplicate key 'name' (first at line 5, column 6): give each key once");
  // Keys spelled through an alias or as null are keys too.
  CHECK(load_error("k: &n cpu\nm: {cpu: 1, *n : 2}\n~: 1\nnull: 2\n") ==
        "2 errors in t.yaml:\n"
        "t.yaml:2:13: m.cpu: duplicate key 'cpu' (first at line 2, column 5): give each key once\n"
        "t.yaml:4:1: null: duplicate key 'null' (first at line 3, column 1): give each key once");
}

TEST_CASE("documents without anchors are checked as strictly as documents with them") {
  // A text without '&' is parsed once and checked on its tree; every error is still worded
  // by the event pass, wherever in the tree the duplicate sits.
  const std::pair<const char*, const char*> cases[] = {
      {"~: 1\n'null': 2\n",
       "t.yaml:2:1: null: duplicate key 'null' (first at line 1, column 1): give each key once"},
      {"a:\n  - [x, {b: 1, c: 2, 'b': 3}]\n",
       "t.yaml:2:22: a[0][1].b: duplicate key 'b' (first at line 2, column 10): give each key once"},
      {"? {k: 1, k: 2}\n: v\n",
       "t.yaml:1:10: k: duplicate key 'k' (first at line 1, column 4): give each key once"},
      {"a: 1\n\"a\": 2\n",
       "t.yaml:2:1: a: duplicate key 'a' (first at line 1, column 1): give each key once"},
  };
  for (const auto& [yaml, message] : cases) {
    CAPTURE(yaml);
    CHECK(load_error(yaml) == std::string("1 error in t.yaml:\n") + message);
  }
  // Lists and maps as keys are never compared; equal values are not keys. yaml-cpp reads an
  // empty `?` followed by `: 1` as the key `{null: 1}`, a map, so it is no duplicate of `null`.
  CHECK(load_yaml_text("? [a]\n: 1\n? [a]\n: 2\nx: [b, b]\ny: {z: b}\n", "t.yaml").ok());
  CHECK(load_yaml_text("? \n: 1\nnull: 2\n", "t.yaml").ok());
  // A syntax error after a duplicate is reported as the syntax error, as before.
  CHECK(load_error("a: 1\na: 2\nb: [\n").rfind("t.yaml:4:1: invalid YAML: ", 0) == 0);
}

TEST_CASE("equal keys in different maps, and equal values, are fine") {
  auto doc = parse("a: {x: 1, y: 1}\nb: {x: 1, y: [x, x]}\nc: [{x: 1}, {x: 2}]\n");
  CHECK(doc["b"]["x"].as<int>() == 1);
  CHECK(doc["c"][1]["x"].as<int>() == 2);
}

TEST_CASE("aliases are bounded by the nodes they expand to") {
  // "Billion laughs": 9 levels of 10 aliases each expand to 10^9 nodes from a few hundred
  // bytes. The check counts, it never expands, so this fails at once and in little memory.
  std::string laughs = "l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
  for (int i = 1; i <= 9; ++i) {
    const std::string prev = "*l" + std::to_string(i - 1);
    laughs += "l" + std::to_string(i) + ": &l" + std::to_string(i) + " [";
    for (int k = 0; k < 10; ++k) laughs += (k ? ", " : "") + prev;
    laughs += "]\n";
  }
  // Counted so far: the root map, keys l0..l5 with lists of 11, 111, ..., 111111 nodes, and
  // l5's own list: 123463; each *l4 adds 111111, so the eighth item (l5[7]) crosses 1000000.
  CHECK(load_error(laughs) ==
        "1 error in t.yaml:\n"
        "t.yaml:6:45: l5[7]: alias '*l4' expands the document beyond 1000000 nodes, the limit for a config "
        "file (each alias repeats its anchor's whole content)");
  // The same shape below the limit loads, and reuse through aliases stays cheap.
  std::string small = "base: &b {timeout: 5, env: {A: 1}}\nsmokes:\n";
  for (int i = 0; i < 1000; ++i) small += "  - {name: s" + std::to_string(i) + ", defaults: *b}\n";
  CHECK(load_yaml_text(small, "t.yaml").ok());
}

TEST_CASE("a plain document over the node limit is refused too, and an alias cycle") {
  std::string big;
  for (std::uint64_t i = 0; i <= kMaxConfigNodes; ++i) big += "- 1\n";
  CHECK(load_error(big) ==
        "1 error in t.yaml:\n"
        "t.yaml:1000000:3: [999999]: the document has more than 1000000 nodes, the limit for a config file");
  CHECK(load_error("a: &a\n  - *a\n") ==
        "1 error in t.yaml:\n"
        "t.yaml:2:5: a[0]: alias '*a' refers to a node that contains it (a cycle)");
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
  CHECK(e.kind == ErrorKind::bad_input);
  CHECK(e.message == "2 errors in m.yaml:\nm.yaml:1:1: a: first\nm.yaml:5:2: b: second");
}
