#include <array>
#include <random>
#include <string>

#include "catch.hpp"
#include "gatekit/exit_code.hpp"
#include "gatekit/json.hpp"
#include "gatekit/result.hpp"
#include "gatekit/text.hpp"

using namespace gatekit;
using namespace std::chrono_literals;

TEST_CASE("edit distance") {
  CHECK(edit_distance("", "") == 0);
  CHECK(edit_distance("name", "naem") == 1);  // a swap is one typo
  CHECK(edit_distance("abc", "") == 3);
  CHECK(edit_distance("kitten", "sitting") == 3);
}

TEST_CASE("closest match suggests only near words") {
  constexpr std::array<std::string_view, 3> keys{"min_gpus", "timeout", "command"};
  CHECK(closest_match("min_gpu", keys) == "min_gpus");
  CHECK(closest_match("timout", keys) == "timeout");
  CHECK_FALSE(closest_match("xyz", keys).has_value());
}

TEST_CASE("markdown tables escape pipes and newlines") {
  CHECK(markdown_table({"a", "b"}, {{"x|y", "1\n2"}, {"only"}}) ==
        "| a | b |\n| --- | --- |\n| x\\|y | 1<br>2 |\n| only |  |\n");
}

TEST_CASE("outside text: controls become visible escapes") {
  CHECK(visible_controls("a\nb\rc\td\x01\x7f") == "a\\nb\\rc\\td\\x01\\x7f");
  CHECK(visible_controls("tab\t", true) == "tab\t");
  // Plain printable text comes back as it is; a control after it (past the first eight
  // bytes the fast path scans at once) is still escaped.
  CHECK(visible_controls("src/pkg/module_test.py") == "src/pkg/module_test.py");
  CHECK(visible_controls("src/pkg/module_test.py\x7f") == "src/pkg/module_test.py\\x7f");
  CHECK(visible_controls("src/pkg/\n") == "src/pkg/\\n");
  CHECK(visible_controls("nel\xc2\x85 ls\xe2\x80\xa8 ps\xe2\x80\xa9 \xc3\xa4 \xff") ==
        "nel\\u0085 ls\\u2028 ps\\u2029 \xc3\xa4 \xff");
}

TEST_CASE("outside text as a Markdown code span") {
  CHECK(markdown_code("src/a.py") == "`src/a.py`");
  CHECK(markdown_code("a`b") == "``a`b``");
  CHECK(markdown_code("``x") == "``` ``x ```");  // a backtick at an end is padded away from the fence
  CHECK(markdown_code(" a ") == "`  a  `");       // CommonMark strips one space from each end
  CHECK(markdown_code("   ") == "`   `");
  CHECK(markdown_code("a\n```mermaid") == "````a\\n```mermaid````");
  CHECK(markdown_code("<img src=x>|y") == "`<img src=x>|y`");
  CHECK(markdown_code("") == "");
  // In a table the pipe is escaped by the cell, and the code span keeps it.
  CHECK(markdown_table({"f"}, {{markdown_code("a|b\nc")}}) == "| f |\n| --- |\n| `a\\|b\\nc` |\n");
}

TEST_CASE("outside text as Markdown prose") {
  CHECK(markdown_text("plain words, (parens) and dots.") == "plain words, (parens) and dots.");
  CHECK(markdown_text("<img src=x> [a](b) *b* _c_ `d` ~e~ $f$ &amp; \\") ==
        "\\<img src=x> \\[a\\](b) \\*b\\* \\_c\\_ \\`d\\` \\~e\\~ \\$f\\$ \\&amp; \\\\");
  CHECK(markdown_text("a\n# heading") == "a\\\\n# heading");  // one line: no block can start
  CHECK(markdown_text("# heading") == "\\# heading");
  CHECK(markdown_text("  - item") == "  \\- item");
  CHECK(markdown_text("12. item") == "12\\. item");
  CHECK(markdown_text("> quote", false) == "> quote");  // after other text on the line
  CHECK(markdown_text("--gated x") == "\\--gated x");
}

TEST_CASE("outside links and HTML text") {
  CHECK(markdown_link("job (a, b)", "https://github.com/o/r/actions/runs/1/job/2") ==
        "[job (a, b)](https://github.com/o/r/actions/runs/1/job/2)");
  CHECK(markdown_link("x", "https://h/a b)(<\"'\\") == "[x](https://h/a%20b%29%28%3C%22%27%5C)");
  CHECK(markdown_link("x]", "javascript:alert(1)") == "x\\]");
  CHECK(markdown_link("x", "") == "x");
  CHECK(html_text("<b>&\"'\n") == "&lt;b&gt;&amp;&quot;&#39;\\n");
}

TEST_CASE("durations read like a person would write them") {
  CHECK(format_duration(850ms) == "850ms");
  CHECK(format_duration(4200ms) == "4.2s");
  CHECK(format_duration(185s) == "3m 05s");
  CHECK(format_duration(3720s) == "1h 02m");
}

TEST_CASE("UTC timestamps are ISO 8601 as GitHub writes them") {
  CHECK(format_utc(0) == "1970-01-01T00:00:00Z");
  CHECK(format_utc(1700003600) == "2023-11-14T23:13:20Z");
  // parse_utc is its inverse, for GitHub's form only.
  CHECK(parse_utc("2023-11-14T23:13:20Z") == 1700003600);
  CHECK(parse_utc("1970-01-01T00:00:00Z") == 0);
  CHECK(parse_utc("2024-02-29T12:00:00Z") == 1709208000);
  for (const char* bad : {"", "2023-11-14", "2023-11-14T23:13:20", "2023-11-14T23:13:20.5Z", "2023-11-14T23:13:20+01:00",
                          "2023-02-30T00:00:00Z", "2023-13-01T00:00:00Z", "2023-11-14T24:00:00Z", "1969-12-31T23:59:59Z",
                          "2023-11-14T23:6a:20Z", "2023-11-14 23:13:20Z"}) {
    INFO(bad);
    CHECK_FALSE(parse_utc(bad).has_value());
  }
}

TEST_CASE("lines, trim and join") {
  CHECK(split_lines("a\r\nb\n\nc") == std::vector<std::string>{"a", "b", "", "c"});
  CHECK(trim("  x y \n") == "x y");
  CHECK(join({"a", "b"}, ", ") == "a, b");
}

TEST_CASE("replace_all replaces every occurrence once, left to right") {
  struct Row {
    std::string text, from, to, expected;
  };
  const std::vector<Row> rows = {
      {"it's", "'", "''", "it''s"},                    // YAML's single-quote escape
      {"a'b'c", "'", "'\\''", "a'\\''b'\\''c"},        // a shell's
      {"-m {markers}", "{markers}", "not slow", "-m not slow"},
      {"{x}", "{x}", "{x}{x}", "{x}{x}"},              // what it puts in is not searched again
      {"aaa", "aa", "b", "ba"},                        // left to right, no overlaps
      {"abc", "", "x", "abc"},                         // an empty pattern changes nothing
      {"", "a", "b", ""},
      {"abc", "z", "y", "abc"},
  };
  for (const auto& row : rows) {
    INFO(row.text << " / " << row.from);
    CHECK(replace_all(row.text, row.from, row.to) == row.expected);
  }
}

TEST_CASE("exit codes keep the worst outcome; could-not-evaluate never becomes pass") {
  CHECK(to_int(ExitCode::pass) == 0);
  CHECK(to_int(ExitCode::verdict_fail) == 1);
  CHECK(to_int(ExitCode::usage_error) == 2);
  CHECK(to_int(ExitCode::could_not_evaluate) == 3);
  CHECK(worst(ExitCode::pass, ExitCode::could_not_evaluate) == ExitCode::could_not_evaluate);
  CHECK(worst(ExitCode::verdict_fail, ExitCode::could_not_evaluate) == ExitCode::could_not_evaluate);
  CHECK(worst(ExitCode::could_not_evaluate, ExitCode::usage_error) == ExitCode::usage_error);
  CHECK(worst(ExitCode::verdict_fail, ExitCode::pass) == ExitCode::verdict_fail);
}

TEST_CASE("Result holds a value or an error") {
  Result<int> good = 4;
  Result<int> bad = bad_input("boom");
  REQUIRE(good.ok());
  CHECK(*good == 4);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message == "boom");
  CHECK(bad.error().kind == ErrorKind::bad_input);
  CHECK(exit_code_of(bad.error()) == ExitCode::usage_error);
  Status fine;
  CHECK(fine.ok());
  Status failed = could_not_evaluate("x");
  CHECK(failed.error().kind == ErrorKind::could_not_evaluate);
  CHECK(exit_code_of(failed.error()) == ExitCode::could_not_evaluate);
}

TEST_CASE("has_control: ASCII controls and DEL, nothing else") {
  struct Case {
    std::string_view text;
    bool control;
  };
  const std::array<Case, 8> cases{{{"test_a[1-2]", false},
                                   {"", false},
                                   {"tab\there", true},
                                   {"line\nbreak", true},
                                   {std::string_view("nul\0x", 5), true},
                                   {"del\x7f", true},
                                   {"esc\x1b[31m", true},
                                   {"caf\xc3\xa9 \xe2\x80\xa8", false}}};  // UTF-8, U+2028 included: not ASCII controls
  for (const auto& c : cases) {
    INFO(std::string(c.text));
    CHECK(gatekit::has_control(c.text) == c.control);
  }
}

TEST_CASE("append_json_string writes what Boost.JSON's serializer writes, byte for byte") {
  std::vector<std::string> texts = {"", "tests/test_a.py::test_x[1-2]", "a\"b", "back\\slash", "tab\there",
                                    "line\nbreak", "\x7F", "caf\xC3\xA9", "bad \xC3(", "\xE2\x80\xA8 separator"};
  for (int byte = 0; byte < 256; ++byte) texts.push_back("t[" + std::string(1, static_cast<char>(byte)) + "]");
  for (const auto& text : texts) {
    std::string out = "prefix,";
    append_json_string(out, text);
    INFO("text: " << visible_controls(text));
    CHECK(out == "prefix," + boost::json::serialize(boost::json::string_view(text.data(), text.size())));
  }
  // one byte to escape at every place of a long name (the plain check reads eight bytes at a time)
  for (const char escaped : {'"', '\\', '\n', '\x1f'})
    for (std::size_t at = 0; at < 40; ++at) {
      std::string text(40, 'a');
      text[at] = escaped;
      std::string out;
      append_json_string(out, text);
      INFO("byte " << static_cast<int>(escaped) << " at " << at);
      CHECK(out == boost::json::serialize(boost::json::string_view(text.data(), text.size())));
    }
  std::string plain;
  append_json_string(plain, "dir/file.py");
  CHECK(plain == "\"dir/file.py\"");
  // Random bytes, escapes next to each other, at the ends and between runs of plain bytes,
  // invalid UTF-8 included: written as Boost.JSON writes them without its serializer.
  std::mt19937 rng(46);
  const std::string alphabet("ab/\"\\\n\t\b\f\r\x01\x1f\x7f\xc3\xa9\xff", 17);
  for (int round = 0; round < 2000; ++round) {
    std::string text(rng() % 40, ' ');
    for (auto& c : text) c = rng() % 4 == 0 ? static_cast<char>(rng() % 256) : alphabet[rng() % alphabet.size()];
    std::string out = "[";
    append_json_string(out, text);
    INFO("text: " << visible_controls(text));
    REQUIRE(out == "[" + boost::json::serialize(boost::json::string_view(text.data(), text.size())));
  }
}
