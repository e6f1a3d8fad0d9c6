// CliCommand and CliOption (gatekit/cli.hpp): every field type and every check the tools bind
// through the frame, parsed by the frame over FakeSeams, with CLI11's messages verbatim.
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "catch.hpp"
#include "gatekit/cli.hpp"
#include "gatekit/fake_context.hpp"

using namespace gatekit;

namespace {

struct Bound {
  std::string text = "unset";
  std::vector<std::string> list;
  int count = 3;
  long big = 0;
  long long huge = 0;
  double ratio = 0;
  std::optional<long> maybe;
  std::optional<double> maybe_ratio;
  bool on = false;
  std::string kind, format, file, given, canonical, x, y, hidden;
  std::size_t canonical_count = 0;
};

struct Parsed {
  int code;
  std::string out, err;
  Bound bound;
};

void configure(CliCommand& app, Bound& b, std::optional<CliOption>& canonical) {
  app.option("--text", b.text, "Text")
      .check([](const std::string& v) { return v == "bad" ? "'bad' is refused" : std::string(); }, "TEXT-RULE");
  app.option("--list", b.list, "Repeatable, one value each").expected(1).take_all().allow_extra_args(false);
  app.option("--count", b.count, "A count").range(1, 10);
  app.option("--big", b.big, "A long").range(1L, 100'000'000L);
  app.option("--huge", b.huge, "A long long");
  app.option("--ratio", b.ratio, "A ratio").positive_number();
  app.option("--maybe", b.maybe, "An optional long");
  app.option("--maybe-ratio", b.maybe_ratio, "An optional double");
  app.flag("--on", b.on, "A flag");
  app.option("--kind", b.kind, "a or b").is_member({"a", "b"});
  app.option("--format", b.format, "json or csv, any case").is_member({"json", "csv"}, true);
  app.option("--file", b.file, "An existing file").existing_file();
  app.option_function("--given", [&b](const std::string& v) { b.given = "took " + v; }, "A function");
  canonical = app.option("--canonical", b.canonical, "Upper-cased");
  canonical->transform(
      [](std::string& v) {
        for (auto& c : v) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
        return std::string();
      },
      "UPPER");
  const auto x = app.option("-x", b.x, "Not with -y");
  app.option("-y", b.y, "Not with -x").excludes(x);
  app.option("--hidden", b.hidden, "Not in --help").group("");
  app.option("rest", b.list, "Positional");
  app.footer("The footer.");
}

Parsed parse(std::vector<const char*> argv) {
  argv.insert(argv.begin(), "demo-tool");
  Parsed p;
  FakeSeams seams;
  auto context = seams.context();
  std::optional<CliOption> canonical;
  p.code = run_tool(
      {"demo-tool", "A demo."}, static_cast<int>(argv.size()), argv.data(), context,
      [&](CliCommand& app) { configure(app, p.bound, canonical); },
      [&](Context&) {
        p.bound.canonical_count = canonical->count();
        return ExitCode::pass;
      });
  p.out = seams.out.str();
  p.err = seams.err.str();
  return p;
}

}  // namespace

TEST_CASE("cli command: values reach their fields, of every type") {
  auto p = parse({"--text", "t", "--list", "a", "--list", "b", "--count", "10", "--big", "100000000", "--huge",
                  "9000000000", "--ratio", "0.5", "--maybe", "-4", "--maybe-ratio", "2.5", "--on", "--kind", "b",
                  "--format", "CSV", "--file", GATEKIT_SOURCE_DIR "/README.md", "--given", "g", "--canonical", "abc",
                  "-x", "1", "--hidden", "h"});
  INFO(p.err);
  REQUIRE(p.code == 0);
  CHECK(p.bound.text == "t");
  CHECK(p.bound.list == std::vector<std::string>{"a", "b"});
  CHECK(p.bound.count == 10);
  CHECK(p.bound.big == 100'000'000L);
  CHECK(p.bound.huge == 9'000'000'000LL);
  CHECK(p.bound.ratio == 0.5);
  CHECK(p.bound.maybe == -4L);
  CHECK(p.bound.maybe_ratio == 2.5);
  CHECK(p.bound.on);
  CHECK(p.bound.kind == "b");
  CHECK(p.bound.format == "CSV");  // a check, not a transform: the value stays as given
  CHECK(p.bound.given == "took g");
  CHECK(p.bound.canonical == "ABC");
  CHECK(p.bound.canonical_count == 1);
  CHECK(p.bound.x == "1");
  CHECK(p.bound.hidden == "h");

  auto defaults = parse({});
  CHECK(defaults.code == 0);
  CHECK(defaults.bound.text == "unset");
  CHECK(defaults.bound.count == 3);
  CHECK_FALSE(defaults.bound.maybe.has_value());
  CHECK(defaults.bound.canonical_count == 0);
}

TEST_CASE("cli command: each check rejects with CLI11's message, exit 2") {
  struct Row {
    std::vector<const char*> argv;
    std::string message;
  };
  const Row rows[] = {
      {{"--text", "bad"}, "--text: 'bad' is refused"},
      {{"--count", "0"}, "--count: Value 0 not in range 1 to 10"},
      {{"--count", "3000000000"}, "--count: Value 3000000000 not in range 1 to 10"},
      {{"--big", "100000001"}, "--big: Value 100000001 not in range 1 to 100000000"},
      {{"--ratio", "0"},
       "--ratio: Value 0 not in range 0.000000 to " + std::to_string(std::numeric_limits<double>::max())},
      {{"--kind", "c"}, "--kind: c not in {a,b}"},
      {{"--file", "/nonexistent/file"}, "--file: File does not exist: /nonexistent/file"},
      {{"-x", "1", "-y", "2"}, "-x excludes -y"},
      {{"--list"}, "--list: 1 required TEXT missing"},
  };
  for (const auto& row : rows) {
    INFO(row.argv.front());
    auto p = parse(row.argv);
    CHECK(p.code == 2);
    CHECK(p.err == "demo-tool: error: " + row.message + "\nRun 'demo-tool --help' for usage.\n");
  }
}

TEST_CASE("cli command: --help shows each option with its check, the footer, and not a hidden option") {
  auto p = parse({"--help"});
  CHECK(p.code == 0);
  CHECK(p.out.find("  --count INT:INT in [1 - 10]=3") != std::string::npos);
  CHECK(p.out.find("  --kind TEXT:{a,b}") != std::string::npos);
  CHECK(p.out.find("  --canonical TEXT:UPPER") != std::string::npos);
  CHECK(p.out.find("  --text TEXT:TEXT-RULE=unset") != std::string::npos);
  CHECK(p.out.find("The footer.") != std::string::npos);
  CHECK(p.out.find("--hidden") == std::string::npos);
}
