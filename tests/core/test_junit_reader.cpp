// The streaming JUnit reader over the report shapes real runners write (tests/core/data/junit:
// pytest 9 xunit1/xunit2/--junit-prefix, pytest-rerunfailures 16.7, CTest 3.25, gotestsum
// 1.13 --rerun-fails, jest-junit 17, Surefire 3.5 running TestNG 7.10 and TestNG's own JUnit
// reports as those tools wrote them; five suites of Apache Pulsar's TestNG report from
// dorny/test-reporter's fixtures; Surefire 3 with reruns, gotestsum and a nested report in
// those tools' documented shapes; each new file names its source in a comment), and over
// broken input.
#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "catch.hpp"
#include "gatekit/files.hpp"
#include "gatekit/junit_reader.hpp"

using namespace gatekit;
using junit::TestCase;

namespace {

const std::string kData = std::string(GATEKIT_TEST_DATA) + "/junit/";

std::vector<TestCase> read_all(const std::string& file, junit::ReadOptions options = {}) {
  std::vector<TestCase> cases;
  auto stats = junit::read_file(SystemFiles(), kData + file, [&](const TestCase& c) { cases.push_back(c); }, options);
  REQUIRE(stats.ok());
  CHECK(stats->cases == cases.size());
  return cases;
}

const TestCase& find(const std::vector<TestCase>& cases, const std::string& id) {
  for (const auto& c : cases)
    if (c.id() == id) return c;
  FAIL("no test case with id " << id);
  throw std::logic_error("unreachable");
}

std::vector<std::string> ids(const std::vector<TestCase>& cases) {
  std::vector<std::string> out;
  for (const auto& c : cases) out.push_back(c.id());
  return out;
}

Error read_error(const std::string& text, junit::ReadOptions options = {}) {
  auto stats = junit::read_text(text, "r.xml", [](const TestCase&) {}, options);
  REQUIRE_FALSE(stats.ok());
  return stats.error();
}

const std::vector<std::string> kPytestIds = {
    "tests/sub/test_mod.py::test_pass",
    "tests/sub/test_mod.py::test_fail",
    "tests/sub/test_mod.py::test_skip",
    "tests/sub/test_mod.py::test_xfail",
    "tests/sub/test_mod.py::TestGroup::TestInner::test_param[1.5]",
    "tests/sub/test_mod.py::TestGroup::TestInner::test_param[a::b]",
    "tests/sub/test_mod.py::test_setup_error",
    "tests/sub/test_mod.py::test_control_chars",
};

}  // namespace

TEST_CASE("pytest xunit1: node ids from the file attribute, outcomes, skip reasons") {
  auto cases = read_all("pytest-xunit1.xml");
  CHECK(ids(cases) == kPytestIds);
  const auto& skip = find(cases, "tests/sub/test_mod.py::test_skip");
  CHECK(skip.outcome == JunitOutcome::skipped);
  CHECK(skip.type == "pytest.skip");
  CHECK(skip.message == "no GPU visible (fake)");
  CHECK(skip.detail == "/home/runner/work/proj/tests/sub/test_mod.py:11: no GPU visible (fake)");
  CHECK(skip.file == "tests/sub/test_mod.py");
  CHECK(skip.line == 10);
  CHECK(find(cases, "tests/sub/test_mod.py::test_xfail").type == "pytest.xfail");
  const auto& fail = find(cases, "tests/sub/test_mod.py::test_fail");
  CHECK(fail.outcome == JunitOutcome::failure);
  CHECK(fail.message == "AssertionError: one is not two\nassert 1 == 2");
  CHECK(fail.detail.find("tests/sub/test_mod.py:9: AssertionError") != std::string::npos);
  CHECK(find(cases, "tests/sub/test_mod.py::test_setup_error").outcome == JunitOutcome::error);
  CHECK(find(cases, "tests/sub/test_mod.py::test_pass").suite == "pytest");
}

TEST_CASE("pytest xunit2 (no file attribute): node ids derived from the classname, captured output") {
  auto cases = read_all("pytest-xunit2.xml");
  CHECK(ids(cases) == kPytestIds);
  const auto& pass = find(cases, "tests/sub/test_mod.py::test_pass");
  CHECK(pass.file == "tests/sub/test_mod.py");
  CHECK(pass.line == 0);
  CHECK(pass.system_out.find("hello out") != std::string::npos);
  CHECK(pass.system_err.find("hello err") != std::string::npos);
}

TEST_CASE("pytest --junit-prefix: the prefix is stripped when given, else it becomes a folder") {
  junit::ReadOptions options;
  options.junit_prefix = "linux";
  CHECK(ids(read_all("pytest-prefix.xml", options)) == kPytestIds);
  CHECK(read_all("pytest-prefix.xml").front().id() == "linux/tests/sub/test_mod.py::test_pass");
}

TEST_CASE("CTest: status run/fail/notrun/disabled, no node ids") {
  auto cases = read_all("ctest.xml");
  CHECK(ids(cases) == std::vector<std::string>{"passes::passes", "fails::fails", "skipped::skipped",
                                                "disabled::disabled"});
  CHECK(cases[0].outcome == JunitOutcome::passed);
  CHECK(cases[0].system_out == "fine\n");
  CHECK(cases[0].time_s == Approx(0.00126249));
  CHECK(cases[1].outcome == JunitOutcome::failure);
  CHECK(cases[1].system_out == "broken\n");
  CHECK(cases[2].outcome == JunitOutcome::skipped);
  CHECK(cases[2].message == "SKIP_RETURN_CODE=77");
  CHECK(cases[3].outcome == JunitOutcome::skipped);
  CHECK(cases[3].message == "disabled");
  for (const auto& c : cases) CHECK(c.node_id.empty());
}

TEST_CASE("Surefire: flakyFailure passes with attempts recorded, rerunFailure stays a failure") {
  auto cases = read_all("surefire-rerun.xml");
  const auto& flaky = find(cases, "com.example.FlakyTest::sometimesFails");
  CHECK(flaky.outcome == JunitOutcome::passed);
  CHECK(flaky.flaky_attempts == 1);
  CHECK(flaky.system_out == "attempt 2 passed\n");  // the test's own output, not the attempt's
  const auto& broken = find(cases, "com.example.FlakyTest::alwaysFails");
  CHECK(broken.outcome == JunitOutcome::failure);
  CHECK(broken.rerun_failures == 2);
  CHECK(broken.message == "boom");
  CHECK(broken.type == "java.lang.IllegalStateException");
  CHECK(broken.detail.find("FlakyTest.java:20") != std::string::npos);
  CHECK(find(cases, "com.example.FlakyTest::flakyError").flaky_attempts == 1);
  CHECK(find(cases, "com.example.FlakyTest::ignored").outcome == JunitOutcome::skipped);
  CHECK(find(cases, "com.example.FlakyTest::ignored").suite == "com.example.FlakyTest");
}

TEST_CASE("gotestsum: package classnames, skip messages with newlines") {
  auto cases = read_all("gotestsum.xml");
  CHECK(ids(cases) == std::vector<std::string>{"example.com/proj/pkg::TestAdd", "example.com/proj/pkg::TestDivide",
                                                "example.com/proj/pkg::TestSlow"});
  CHECK(cases[1].outcome == JunitOutcome::failure);
  CHECK(cases[1].detail.find("pkg_test.go:14: got 1, want 2") != std::string::npos);
  CHECK(cases[2].message == "=== RUN   TestSlow\n    pkg_test.go:20: short mode\n--- SKIP: TestSlow (0.00s)\n");
  CHECK(cases[0].node_id.empty());
}

TEST_CASE("families: each report's runner, from the marks it leaves") {
  struct Row {
    const char* file;
    junit::Family family;
  };
  const Row rows[] = {
      {"pytest-xunit1.xml", junit::Family::pytest},
      {"pytest-xunit2.xml", junit::Family::pytest},
      {"pytest-rerunfailures-xunit1.xml", junit::Family::pytest},
      {"pytest-rerunfailures-xunit2.xml", junit::Family::pytest},
      {"gotestsum.xml", junit::Family::gotestsum},
      {"gotestsum-rerun.xml", junit::Family::gotestsum},
      {"ctest.xml", junit::Family::ctest},
      {"surefire-rerun.xml", junit::Family::other},
      {"testng-pulsar.xml", junit::Family::other},
      {"surefire-testng.xml", junit::Family::other},
      {"testng-junitreports.xml", junit::Family::other},
      {"jest-junit.xml", junit::Family::other},
      {"jest-junit-filepath.xml", junit::Family::other},
      {"nested.xml", junit::Family::other},
  };
  for (const auto& row : rows) {
    INFO(row.file);
    for (const auto& c : read_all(row.file)) CHECK(c.family == row.family);
  }
  // pytest 8.4 and later name the root "pytest tests" whatever junit_suite_name says; a
  // go.version property counts only in a suite's own <properties>, not in a case's.
  std::vector<TestCase> got;
  auto grab = [&](const TestCase& c) { got.push_back(c); };
  REQUIRE(junit::read_text("<testsuites name='pytest tests'><testsuite name='cpu-3.12'><testcase classname='tests.x' "
                           "name='t'/></testsuite></testsuites>",
                           "r.xml", grab)
              .ok());
  REQUIRE(junit::read_text("<testsuite name='s'><testcase classname='c' name='t'><properties><property name='go.version' "
                           "value='go1'/></properties></testcase></testsuite>",
                           "r.xml", grab)
              .ok());
  REQUIRE(got.size() == 2);
  CHECK(got[0].family == junit::Family::pytest);
  CHECK(got[0].id() == "tests.x::t");
  CHECK(got[1].family == junit::Family::other);
}

TEST_CASE("ids: the suite joins where the family needs it (jest-junit), never for pytest, gotestsum or CTest") {
  // jest-junit's default suite is a file's first describe block: both files' suites are
  // "math", so their "math adds" stay one id, numbered (see Occurrences); with one suite per
  // file ({filepath}) the suite tells the files apart.
  CHECK(ids(read_all("jest-junit.xml")) ==
        std::vector<std::string>{"math::math adds::math adds", "math::math divides::math divides",
                                 "math:: top level:: top level", "math::math adds::math adds",
                                 "math::math skipped::math skipped", "math:: top level:: top level",
                                 "parse::parse same title::parse same title", "parse::parse same title::parse same title",
                                 "parse::parse same title::parse same title"});
  CHECK(ids(read_all("jest-junit-filepath.xml")) ==
        std::vector<std::string>{"src/a.test.js::math::adds", "src/a.test.js::math::divides", "src/a.test.js::top level",
                                 "src/b.test.js::math::adds", "src/b.test.js::math::skipped", "src/b.test.js::top level",
                                 "src/each.test.js::parse::same title", "src/each.test.js::parse::same title",
                                 "src/each.test.js::parse::same title"});
  // Surefire and TestNG name the suite after the class, gotestsum after the package: ids as before.
  CHECK(read_all("testng-pulsar.xml")[0].id() == "org.apache.pulsar.AddMissingPatchVersionTest::testVersionStrings");
  CHECK(ids(read_all("gotestsum-rerun.xml"))[0] == "example.com/flaky/other::TestPass");
  CHECK(ids(read_all("pytest-rerunfailures-xunit2.xml"))[0] == "tests/test_flaky.py::test_flaky_then_pass");
  for (const auto& c : read_all("jest-junit.xml")) CHECK(c.suite_in_id());
  for (const auto* file : {"testng-pulsar.xml", "gotestsum-rerun.xml", "ctest.xml", "pytest-rerunfailures-xunit1.xml"})
    for (const auto& c : read_all(file)) CHECK_FALSE(c.suite_in_id());
}

TEST_CASE("Occurrences: repeats are numbered where the family's cases are distinct tests, never pytest's or gotestsum's attempts") {
  const auto numbered = [](const std::string& file) {
    junit::Occurrences occurrences;
    std::vector<std::string> out;
    std::string scratch;
    for (auto c : read_all(file)) {
      const std::string via_id(occurrences.id(c, scratch));
      out.push_back(via_id);
    }
    junit::Occurrences again;  // number() and id() agree
    std::size_t i = 0;
    for (auto c : read_all(file)) {
      again.number(c);
      CHECK(c.id() == out[i++]);
    }
    return out;
  };
  CHECK(numbered("jest-junit-filepath.xml") ==
        std::vector<std::string>{"src/a.test.js::math::adds", "src/a.test.js::math::divides", "src/a.test.js::top level",
                                 "src/b.test.js::math::adds", "src/b.test.js::math::skipped", "src/b.test.js::top level",
                                 "src/each.test.js::parse::same title", "src/each.test.js::parse::same title #2",
                                 "src/each.test.js::parse::same title #3"});
  const auto jest = numbered("jest-junit.xml");
  CHECK(jest[3] == "math::math adds::math adds #2");
  CHECK(jest[5] == "math:: top level:: top level #2");
  // TestNG: a data provider's three invocations, not one after the other.
  const auto testng = numbered("testng-pulsar.xml");
  std::vector<std::string> provider;
  for (const auto& id : testng)
    if (id.find("::testEnumValuesProvider") != std::string::npos) provider.push_back(id);
  CHECK(provider == std::vector<std::string>{"org.apache.pulsar.tests.EnumValuesDataProviderTest::testEnumValuesProvider",
                                             "org.apache.pulsar.tests.EnumValuesDataProviderTest::testEnumValuesProvider #2",
                                             "org.apache.pulsar.tests.EnumValuesDataProviderTest::testEnumValuesProvider #3"});
  // pytest-rerunfailures' and gotestsum's attempts keep their test's id.
  const auto pytest = numbered("pytest-rerunfailures-xunit1.xml");
  CHECK(pytest[0] == "tests/test_flaky.py::test_flaky_then_pass");
  CHECK(pytest[1] == "tests/test_flaky.py::test_flaky_then_pass");
  const auto go = numbered("gotestsum-rerun.xml");
  CHECK(std::count(go.begin(), go.end(), "example.com/flaky/pkg::TestAlwaysFails") == 4);
  // Cases without name or classname are each a test of their own already (their report line).
  junit::Occurrences occurrences;
  TestCase unnamed;
  unnamed.report_line = 3;
  CHECK(occurrences.next(unnamed) == 1);
  CHECK(occurrences.next(unnamed) == 1);
}

// Every form of a `time` attribute: the runners' plain decimals, and the rest (an exponent,
// more than 15 digits, Surefire's thousands separators), which take a slower path that must
// read the same numbers with every standard library (libc++ has no floating-point from_chars).
TEST_CASE("time attributes: decimals, exponents, separators, and what is not a number") {
  struct Row {
    const char* time;
    double seconds;
  };
  const Row rows[] = {
      {"1.5", 1.5},
      {"0.00126249", 0.00126249},
      {"1.5e3", 1500},
      {"2E-3", 0.002},
      {"1234567890123456.5", 1234567890123456.5},
      {"1,234.5", 1234.5},
      {"1 234.5", 1234.5},
      {".5e1", 5},
      {"", 0},
      {"-1.5e0", 0},
      {"+2e0", 0},
      {"0x1p3", 0},
      {"inf", 0},
      {"nan", 0},
      {"1e999", 0},
      {"1e", 0},
      {"1.5e3s", 0},
      {"abc", 0},
  };
  for (const auto& row : rows) {
    CAPTURE(row.time);
    std::vector<TestCase> cases;
    const std::string text = std::string("<testsuite name='s'><testcase classname='a.B' name='c' time='") + row.time +
                             "'/></testsuite>";
    auto stats = junit::read_text(text, "t.xml", [&](const TestCase& c) { cases.push_back(c); });
    REQUIRE(stats.ok());
    REQUIRE(cases.size() == 1);
    CHECK(cases[0].time_s == row.seconds);
  }
}

TEST_CASE("nested testsuites, entities, unreadable times, a case without classname") {
  std::size_t suites = 0;
  std::vector<TestCase> cases;
  auto stats = junit::read_file(SystemFiles(), kData + "nested.xml", [&](const TestCase& c) { cases.push_back(c); });
  REQUIRE(stats.ok());
  suites = stats->suites;
  CHECK(suites == 2);
  REQUIRE(cases.size() == 3);
  CHECK(cases[0].name == "deep & \"quoted\" \xE2\x98\xBA");
  CHECK(cases[0].suite == "inner");
  CHECK(cases[0].time_s == 2.5);
  CHECK(cases[1].suite == "outer");
  CHECK(cases[2].id() == "outer::no classname");  // no family named: the suite tells such cases apart
  CHECK(cases[2].time_s == 0);
  CHECK(cases[2].outcome == JunitOutcome::error);
  CHECK(cases[2].type == "SIGSEGV");
  CHECK(cases[2].detail == "core dumped");
  CHECK(stats->errors == 1);
  CHECK(stats->passed == 2);
}

TEST_CASE("a root <testsuite> without <testsuites> is a report") {
  std::vector<TestCase> cases;
  auto stats = junit::read_text("<testsuite name='s'><testcase classname='a.B' name='c'><skipped/></testcase></testsuite>",
                                "r.xml", [&](const TestCase& c) { cases.push_back(c); });
  REQUIRE(stats.ok());
  REQUIRE(cases.size() == 1);
  CHECK(cases[0].outcome == JunitOutcome::skipped);
  CHECK(cases[0].id() == "s::a.B::c");
}

TEST_CASE("broken input: every error names the report, line and column") {
  CHECK(read_error("").message == "r.xml: empty report: no XML element in it");
  CHECK(read_error("  \n").message == "r.xml: empty report: no XML element in it");
  CHECK(read_error("hello").message == "r.xml:1:1: not well-formed XML: syntax error");
  CHECK(read_error("<html><body/></html>").message ==
        "r.xml:1:1: the root element <html> is not a JUnit report (expected <testsuites> or <testsuite>)");
  CHECK(read_error("<testsuites>\n<testsuite>\n<testcase name='a'>").message ==
        "r.xml:3:20: the report ends early (cut short?): no element found");
  CHECK(read_error("<testsuites><testcase name='a' name='b'/></testsuites>").message ==
        "r.xml:1:32: not well-formed XML: duplicate attribute");
  CHECK(read_error("<testsuites>&bogus;</testsuites>").message ==
        "r.xml:1:13: not well-formed XML: undefined entity");
  CHECK(read_error("<!DOCTYPE t [<!ENTITY a \"aaaa\">]><testsuites>&a;</testsuites>").message ==
        "r.xml:1:25: entity declarations are not accepted in a JUnit report");
  junit::ReadOptions shallow;
  shallow.max_depth = 3;
  CHECK(read_error("<testsuites><testsuite><testsuite><testsuite/></testsuite></testsuite></testsuites>", shallow)
            .message == "r.xml:1:35: elements nested deeper than 3 levels");
  CHECK(read_error("<testsuites>").kind == ErrorKind::could_not_evaluate);
  auto missing = junit::read_file(SystemFiles(), kData + "no-such-report.xml", [](const TestCase&) {});
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().message == kData + "no-such-report.xml: cannot read the report (missing or unreadable)");
}

TEST_CASE("a report cut short in the middle of a real pytest file is an error, not fewer tests") {
  std::ifstream in(kData + "pytest-xunit1.xml");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::size_t seen = 0;
  auto stats = junit::read_text(text.substr(0, text.size() / 2), "half.xml", [&](const TestCase&) { ++seen; });
  REQUIRE_FALSE(stats.ok());
  CHECK(stats.error().message.find(": the report ends early (cut short?): ") != std::string::npos);
  CHECK(seen > 0);  // streamed: the cases before the cut were handed over
}

TEST_CASE("raw control characters and invalid UTF-8 become U+FFFD and are counted") {
  std::vector<TestCase> cases;
  const std::string text = "<testsuites><testcase name='t'><failure message='bell \x07 esc \x1b[31m'>bad \xff\xfe byte "
                           "\xE2\x82</failure></testcase></testsuites>";
  auto stats = junit::read_text(text, "r.xml", [&](const TestCase& c) { cases.push_back(c); });
  REQUIRE(stats.ok());
  REQUIRE(cases.size() == 1);
  CHECK(cases[0].message == "bell \xEF\xBF\xBD esc \xEF\xBF\xBD[31m");
  CHECK(cases[0].detail == "bad \xEF\xBF\xBD\xEF\xBF\xBD byte \xEF\xBF\xBD\xEF\xBF\xBD");
  CHECK(stats->replaced_chars == 6);
}

TEST_CASE("every byte value, at every place in and around a 64-byte block, is kept or replaced as it should") {
  // The sanitiser lets a piece through unchecked when every byte is printable ASCII, tab, LF or
  // CR, judged 64 bytes at a time and then the rest byte by byte: one other byte anywhere must
  // send the piece through the sanitiser, or expat would refuse the report.
  for (int value = 0; value < 256; ++value) {
    const auto byte = static_cast<unsigned char>(value);
    const bool kept = (byte >= 0x20 && byte < 0x80) || byte == '\t' || byte == '\n' || byte == '\r';
    if (byte == '<' || byte == '&' || byte == '\'') continue;  // markup: not a byte the sanitiser judges
    for (std::size_t at = 0; at < 140; at += (at < 8 || (at > 50 && at < 75) || at > 125) ? 1 : 7) {
      std::string message(150, 'm');
      message[at] = static_cast<char>(byte);
      const std::string text = "<testsuites><testcase name='t'><failure message='" + message + "'/></testcase></testsuites>";
      std::size_t cases = 0;
      auto stats = junit::read_text(text, "r.xml", [&](const TestCase&) { ++cases; });
      INFO("byte " << value << " at " << at);
      REQUIRE(stats.ok());
      CHECK(cases == 1);
      CHECK(stats->replaced_chars == (kept ? 0u : 1u));
    }
  }
}

TEST_CASE("a case's id as a view: held whole by the case, else built into the caller's scratch string") {
  TestCase node;
  node.node_id = "tests/test_a.py::test_one";
  node.classname = "tests.test_a";
  node.name = "test_one";
  TestCase plain;
  plain.classname = "a.B";
  plain.name = "c";
  TestCase bare;
  bare.name = "no classname";
  TestCase unnamed;
  unnamed.report_line = 7;
  struct Row {
    const TestCase* test;
    std::string id;
    bool held;  // the view points into the case, not into scratch
  };
  const std::vector<Row> rows = {{&node, "tests/test_a.py::test_one", true},
                                 {&plain, "a.B::c", false},
                                 {&bare, "no classname", true},
                                 {&unnamed, "(unnamed test case, report line 7)", false}};
  std::string scratch = "left over from the case before, longer than any id here";
  for (const auto& row : rows) {
    INFO(row.id);
    const std::string_view view = row.test->id(scratch);
    CHECK(view == row.id);
    CHECK(row.test->id() == row.id);
    CHECK((view.data() == scratch.data()) == !row.held);
  }
}

namespace {

// Expat's count of the line ends in `text`: LF, CR, and CR LF as one.
std::size_t line_ends(std::string_view text) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < text.size(); ++i)
    n += text[i] == '\n' || (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n'));
  return n;
}

}  // namespace

TEST_CASE("a case's report line is the line its <testcase> starts on, whatever the line ends and the pieces") {
  // CR and CR LF line ends as well as LF, breaks inside a tag, comments and outputs long enough
  // to push the case before out of expat's buffer, and pieces from one byte to the whole report.
  const std::vector<std::string> breaks = {"\n", "\r\n", "\r"};
  for (std::size_t style = 0; style <= breaks.size(); ++style) {  // the last: the three in turn
    const auto eol = [&](int i) -> const std::string& { return breaks[style < breaks.size() ? style : i % 3]; };
    std::string text = "<?xml version='1.0'?>" + eol(0) + "<testsuites>" + eol(1) + "<testsuite name='s'>";
    std::vector<int> expected;
    for (int i = 0; i < 40; ++i) {
      for (int k = 0; k < i % 3; ++k) text += std::string(static_cast<std::size_t>(k), ' ') + eol(i + k);
      if (i % 13 == 5)  // short comments (expat tokenizes a token cut by a piece again with each piece)
        for (int k = 0; k < 2000; ++k) text += "<!-- a comment line of some forty bytes -->" + eol(k);
      expected.push_back(static_cast<int>(1 + line_ends(text)));
      text += "<testcase name='t" + std::to_string(i) + "'";
      if (i % 7 == 3) text += eol(i) + "  classname='c'";
      if (i % 5 == 2) {
        text += "><system-out>";
        for (int k = 0; k < (i == 12 ? 3000 : 3); ++k) text += "captured output" + eol(k);
        text += "</system-out></testcase>";
      } else {
        text += "/>";
      }
    }
    text += eol(0) + "</testsuite></testsuites>" + eol(1);
    for (const std::size_t piece : {std::size_t{1}, std::size_t{7}, std::size_t{4096}, text.size()}) {
      INFO("line ends " << (style < breaks.size() ? std::to_string(style) : "mixed") << ", pieces of " << piece);
      std::vector<int> lines;
      junit::Reader reader("r.xml", [&](const TestCase& c) { lines.push_back(c.report_line); });
      bool fed = true;
      for (std::size_t at = 0; fed && at < text.size(); at += piece)
        fed = reader.feed(std::string_view(text).substr(at, piece)).ok();
      REQUIRE(fed);
      REQUIRE(reader.finish().ok());
      CHECK(lines == expected);
    }
  }
}

TEST_CASE("fed one byte at a time, the reader sees exactly what it sees in one piece") {
  std::ifstream in(kData + "pytest-xunit2.xml");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  text.insert(text.find("test_pass"), "\xE2\x98\xBA");  // a 3-byte character across feeds
  std::vector<std::string> whole, bytewise;
  REQUIRE(junit::read_text(text, "r.xml", [&](const TestCase& c) { whole.push_back(c.id() + "|" + c.system_out); }).ok());
  junit::Reader reader("r.xml", [&](const TestCase& c) { bytewise.push_back(c.id() + "|" + c.system_out); });
  for (char c : text) REQUIRE(reader.feed(std::string_view(&c, 1)).ok());
  auto stats = reader.finish();
  REQUIRE(stats.ok());
  CHECK(stats->replaced_chars == 0);
  CHECK(bytewise == whole);
  CHECK(whole.front().rfind("tests/sub/test_mod.py::\xE2\x98\xBAtest_pass|", 0) == 0);
}

TEST_CASE("huge CDATA output is kept as a bounded head-and-tail excerpt") {
  std::string big(10u << 20, 'x');
  big.replace(0, 5, "START");
  big.replace(big.size() - 3, 3, "END");
  std::string text = "<testsuites><testcase name='t'><system-out><![CDATA[" + big + "]]></system-out>"
                     "<failure message='" + std::string(10000, 'm') + "'/></testcase></testsuites>";
  std::vector<TestCase> cases;
  junit::ReadOptions options;
  options.excerpt_bytes = 1000;
  REQUIRE(junit::read_text(text, "r.xml", [&](const TestCase& c) { cases.push_back(c); }, options).ok());
  REQUIRE(cases.size() == 1);
  const auto& out = cases[0].system_out;
  CHECK(out.size() < 1100);
  CHECK(out.rfind("START", 0) == 0);
  CHECK(out.ends_with("END"));
  CHECK(out.find("\n[... " + std::to_string(big.size() - 1000) + " bytes left out ...]\n") != std::string::npos);
  CHECK(cases[0].message == std::string(1000, 'm') + " [... 9000 bytes left out]");
}

TEST_CASE("excerpts cut at character boundaries, never inside a UTF-8 sequence") {
  std::string euro;
  for (int i = 0; i < 1000; ++i) euro += "\xE2\x82\xAC";
  std::vector<TestCase> cases;
  junit::ReadOptions options;
  options.excerpt_bytes = 100;
  REQUIRE(junit::read_text("<testsuite><testcase name='t'><system-out>" + euro + "</system-out></testcase></testsuite>",
                           "r.xml", [&](const TestCase& c) { cases.push_back(c); }, options)
              .ok());
  const auto& out = cases.at(0).system_out;
  const auto marker = out.find("\n[... ");
  REQUIRE(marker != std::string::npos);
  CHECK(marker == 48);  // 16 whole characters of the 50-byte head
  CHECK(out.substr(0, marker) == euro.substr(0, 48));
  CHECK(out.ends_with(euro.substr(0, 48)));
}

TEST_CASE("an exception from the callback stops reading and reaches the caller") {
  CHECK_THROWS_AS(junit::read_text("<testsuite><testcase name='a'/><testcase name='b'/></testsuite>", "r.xml",
                                   [](const TestCase&) { throw std::runtime_error("stop"); }),
                  std::runtime_error);
}

TEST_CASE("pytest node ids from classname and name") {
  struct Row {
    const char* classname;
    const char* name;
    const char* file;
    const char* prefix;
    const char* expected;
  };
  const Row rows[] = {
      {"tests.test_a", "test_x", "", "", "tests/test_a.py::test_x"},
      {"tests.test_a.TestC", "test_x[1.5-a::b]", "", "", "tests/test_a.py::TestC::test_x[1.5-a::b]"},
      {"pkg.sub.check_test.TestC.TestD", "test_y", "", "", "pkg/sub/check_test.py::TestC::TestD::test_y"},
      {"tests.test_a.test_b", "test_z", "", "", "tests/test_a/test_b.py::test_z"},  // the last module-like segment
      {"tests.checks.Suite", "test_q", "", "", "tests/checks.py::Suite::test_q"},     // no test_* module: class
      {"P.tests.test_a", "test_x", "", "P", "tests/test_a.py::test_x"},
      {"Pre.tests.test_a", "test_x", "", "P", "Pre/tests/test_a.py::test_x"},  // not the prefix
      {"tests.checks", "test_q", "tests/checks.py", "", "tests/checks.py::test_q"},
      {"tests.checks.TestC", "test_q", "tests/checks.py", "", "tests/checks.py::TestC::test_q"},
      // `file` names where the function is defined: used only where it starts the classname.
      {"other", "test_q", "tests/checks.py", "", ""},
      {"tests.test_tf.TestTF", "test_flip", "tests/common.py", "", "tests/test_tf.py::TestTF::test_flip"},
      {"tests.test_torch.TestTorch", "test_flip", "tests/common.py", "", "tests/test_torch.py::TestTorch::test_flip"},
      {"PFX.tests.test_tf.TestTF", "test_flip", "tests/common.py", "PFX", "tests/test_tf.py::TestTF::test_flip"},
      {"tests.test_a.TestA.TestInner", "test_same", "tests/test_a.py", "", "tests/test_a.py::TestA::TestInner::test_same"},
      {"tests.checks.Inner", "test_q", "tests/checks.py", "", "tests/checks.py::Inner::test_q"},  // file says where
      {"tests.guide.txt", "guide.txt", "tests/guide.txt", "", "tests/guide.txt::guide.txt"},    // doctest text file
      {"tests.test_a", "test_p[x::y]", "", "", "tests/test_a.py::test_p[x::y]"},
      // What pytest never writes is not taken apart (the caller keeps classname::name).
      {"a/b.test_c", "test_q", "", "", ""},
      {"tests.test_a.Te:st", "test_q", "", "", ""},
      {"tests.test_a", "TestB::test_q", "", "", ""},
      {"tests.test_a.TestB", "test_q", "tests/test:a.py", "", "tests/test_a.py::TestB::test_q"},
      {"helpers", "test_q", "", "", ""},  // nothing to take apart
      {"a..test_b", "test_q", "", "", ""},
      {"tests.test_a", "", "", "", ""},
  };
  for (const auto& row : rows) {
    INFO(row.classname << " / " << row.name);
    CHECK(junit::pytest_node_id(row.classname, row.name, row.file, row.prefix) == row.expected);
  }
}

TEST_CASE("node ids: detect only for pytest-looking reports; `pytest` forces, `none` never") {
  const std::string custom = "<testsuite name='mine'><testcase classname='tests.test_a' name='test_x'/></testsuite>";
  std::string id;
  auto grab = [&](const TestCase& c) { id = c.id(); };
  REQUIRE(junit::read_text(custom, "r.xml", grab).ok());
  CHECK(id == "mine::tests.test_a::test_x");  // nothing says pytest: a report of another family
  // pytest 8.4 and later name the root "pytest tests" whatever junit_suite_name says: the family
  // is pytest (its reruns fold), the id stays classname::name (no node id without the marks
  // that always derived one).
  REQUIRE(junit::read_text("<testsuites name='pytest tests'>" + custom + "</testsuites>", "r.xml", grab).ok());
  CHECK(id == "tests.test_a::test_x");
  junit::ReadOptions force;
  force.node_ids = junit::NodeIds::pytest;
  REQUIRE(junit::read_text(custom, "r.xml", grab, force).ok());
  CHECK(id == "tests/test_a.py::test_x");
  junit::ReadOptions never;
  never.node_ids = junit::NodeIds::none;
  REQUIRE(junit::read_file(SystemFiles(), kData + "pytest-xunit1.xml", grab, never).ok());
  CHECK(id == "tests.sub.test_mod::test_control_chars");
}

TEST_CASE("node ids: distinct (classname, name) pairs never share one, whatever the segments") {
  // Every classname of up to three segments from a hostile alphabet, every name, every file:
  // two pairs that differ always differ in their node id (or get none: classname::name).
  const std::vector<std::string> segments = {"tests", "test_a", "TestB", "a/b", "x:y", "", "Te[st", "check", "a.b"};
  const std::vector<std::string> names = {"test_x", "test_x[a::b]", "TestB::test_x", "test_x[1.5]", ":x", "x:"};
  const std::vector<std::string> files = {"", "tests/test_a.py", "tests/common.py", "tests/test_a", "a/b/test_a.py"};
  std::vector<std::string> classnames;
  for (const auto& a : segments) {
    classnames.push_back(a);
    for (const auto& b : segments) {
      classnames.push_back(a + "." + b);
      for (const auto& c : segments) classnames.push_back(a + "." + b + "." + c);
    }
  }
  std::map<std::string, std::pair<std::string, std::string>> owner;
  std::size_t derived = 0;
  for (const auto& classname : classnames)
    for (const auto& name : names)
      for (const auto& file : files) {
        const std::string id = junit::pytest_node_id(classname, name, file, "");
        if (id.empty()) continue;
        ++derived;
        auto [it, inserted] = owner.emplace(id, std::make_pair(classname, name));
        if (!inserted && it->second != std::make_pair(classname, name)) {
          INFO(id << " from " << it->second.first << " / " << it->second.second << " and " << classname << " / " << name);
          CHECK(false);
        }
      }
  CHECK(derived > 1000);
}

TEST_CASE("pytest 9 xunit1, a unittest mixin in tests/common.py inherited in two files: one id per test") {
  // tests/test_torch.py and tests/test_tf.py each inherit test_flip and test_shared from
  // tests/common.py (xunit1 writes file="tests/common.py" for all four); TestA::test_same is in
  // both files, a nested TestA::TestInner and a module-level test_same too; parametrised ids.
  const auto cases = read_all("pytest-mixin-xunit1.xml");
  CHECK(ids(cases) == std::vector<std::string>{
                          "tests/test_tf.py::TestTF::test_flip",
                          "tests/test_tf.py::TestTF::test_shared",
                          "tests/test_tf.py::TestA::test_same",
                          "tests/test_torch.py::TestTorch::test_flip",
                          "tests/test_torch.py::TestTorch::test_shared",
                          "tests/test_torch.py::TestA::test_same",
                          "tests/test_torch.py::TestA::TestInner::test_same",
                          "tests/test_torch.py::test_param[1]",
                          "tests/test_torch.py::test_param[a.b]",
                          "tests/test_torch.py::test_param[x::y]",
                          "tests/test_torch.py::test_same",
                      });
  const auto& torch = find(cases, "tests/test_torch.py::TestTorch::test_shared");
  CHECK(torch.outcome == JunitOutcome::failure);
  CHECK(torch.file == "tests/common.py");  // annotations point where the code is
  CHECK(torch.line == 2);
  CHECK(find(cases, "tests/test_tf.py::TestTF::test_shared").outcome == JunitOutcome::passed);
}

TEST_CASE("ids of CTest, Surefire and gotestsum reports keep what tells their cases apart") {
  struct Row {
    const char* shape;
    const char* xml;
    std::vector<std::string> expected;
  };
  const Row rows[] = {
      {"CTest: one project, names unique",
       R"x(<testsuite name="(empty)" tests="2" failures="0"><testcase name="unit" classname="unit" status="run"/>
          <testcase name="unit_gpu" classname="unit_gpu" status="run"/></testsuite>)x",
       {"unit::unit", "unit_gpu::unit_gpu"}},
      {"Surefire: one method name in two classes",
       R"x(<testsuites><testsuite name="a.ATest"><testcase name="works" classname="a.ATest"/></testsuite>
          <testsuite name="b.BTest"><testcase name="works" classname="b.BTest"/></testsuite></testsuites>)x",
       {"a.ATest::works", "b.BTest::works"}},
      {"Surefire: JUnit 5 parameters",
       R"x(<testsuite name="a.ATest"><testcase name="add(int)[1]" classname="a.ATest"/>
          <testcase name="add(int)[2]" classname="a.ATest"/></testsuite>)x",
       {"a.ATest::add(int)[1]", "a.ATest::add(int)[2]"}},
      {"gotestsum: one test name in two packages, subtests",
       R"x(<testsuites><testsuite name="example.com/p/a"><testcase classname="example.com/p/a" name="TestX"/>
          <testcase classname="example.com/p/a" name="TestX/sub_1"/></testsuite>
          <testsuite name="example.com/p/b"><testcase classname="example.com/p/b" name="TestX"/></testsuite></testsuites>)x",
       {"example.com/p/a::TestX", "example.com/p/a::TestX/sub_1", "example.com/p/b::TestX"}},
      {"neither name nor classname: each case one test",
       "<testsuite name='s'>\n<testcase/>\n<testcase time='1'/></testsuite>",
       {"(unnamed test case, report line 2)", "(unnamed test case, report line 3)"}},
  };
  for (const auto& row : rows) {
    INFO(row.shape);
    std::vector<std::string> got;
    REQUIRE(junit::read_text(row.xml, "r.xml", [&](const TestCase& c) { got.push_back(c.id()); }).ok());
    CHECK(got == row.expected);
  }
}

TEST_CASE("names are never cut: ids that differ after 4 KB stay apart; past the hard limit the report is refused") {
  const std::string common(5000, 'a');
  const std::string xml = "<testsuite name='pytest'><testcase classname='tests.test_a' name='test_p[" + common +
                          "1]'/><testcase classname='tests.test_a' name='test_p[" + common + "2]'/></testsuite>";
  for (std::size_t excerpt : {std::size_t{256}, std::size_t{4096}}) {
    junit::ReadOptions options;
    options.excerpt_bytes = excerpt;
    std::vector<std::string> got;
    REQUIRE(junit::read_text(xml, "r.xml", [&](const TestCase& c) { got.push_back(c.id()); }, options).ok());
    REQUIRE(got.size() == 2);
    CHECK(got[0] == "tests/test_a.py::test_p[" + common + "1]");
    CHECK(got[1] == "tests/test_a.py::test_p[" + common + "2]");
  }
  junit::ReadOptions small;
  small.max_identity_bytes = 1000;
  CHECK(read_error(xml, small).message ==
        "r.xml:1:26: <testcase> attribute `name` is 5009 bytes long, more than the 1000 a test's identity may have "
        "(it is never cut: two names that differ late would become one test)");
  CHECK(read_error(xml, small).kind == ErrorKind::could_not_evaluate);
  const std::string long_file = "<testsuite><testcase name='x' file='" + std::string(70 * 1024, 'f') + "'/></testsuite>";
  CHECK(read_error(long_file).message.find("<testcase> attribute `file` is 71680 bytes long, more than the 65536") !=
        std::string::npos);
}

TEST_CASE("declared failures and errors that the cases do not show: listed per suite, could not evaluate") {
  struct Row {
    const char* shape;
    const char* xml;
    const char* expected;  // check_declared_counts' message; "" for none
  };
  const Row rows[] = {
      {"a crash outside any test (pytest-shaped)",
       "<testsuites name='pytest tests'>\n<testsuite name='pytest' errors='1' failures='0' tests='1'>\n"
       "<testcase classname='tests.test_a' name='test_x'/></testsuite></testsuites>",
       "r.xml:2: <testsuite name=\"pytest\"> declares 1 failures and errors, but its test cases show 0: the runner "
       "failed outside any test, or the report was cut short; the report cannot say whether the tests passed"},
      {"only `failures`, no case at all",
       "<testsuite name='s' failures='2'/>",
       "r.xml:1: <testsuite name=\"s\"> declares 2 failures and errors, but its test cases show 0: the runner failed "
       "outside any test, or the report was cut short; the report cannot say whether the tests passed"},
      {"the root's totals",
       "<testsuites failures='3'>\n<testsuite name='a' failures='1'><testcase name='x'><failure/></testcase></testsuite>\n"
       "<testsuite name='b' failures='1'><testcase name='y'><failure/></testcase></testsuite></testsuites>",
       "r.xml:1: <testsuites> declares 3 failures and errors, but its test cases show 2: the runner failed outside any "
       "test, or the report was cut short; the report cannot say whether the tests passed"},
      {"two suites",
       "<testsuites><testsuite name='a' errors='1'/>\n<testsuite name='b' errors='1'/>\n<testsuite name='c' errors='1'/></testsuites>",
       "r.xml:1: <testsuite name=\"a\"> declares 1 failures and errors, but its test cases show 0: the runner failed "
       "outside any test, or the report was cut short; the report cannot say whether the tests passed (and 2 more "
       "such suites)"},
      {"nested suites: the outer one counts the inner one's cases",
       "<testsuites failures='2' errors='0'><testsuite name='outer' failures='2'><testsuite name='inner' failures='1'>"
       "<testcase name='x'><failure/></testcase></testsuite><testcase name='y'><failure/></testcase></testsuite></testsuites>",
       ""},
      {"nothing declared", "<testsuite name='s'><testcase name='x'><failure/></testcase></testsuite>", ""},
      {"unreadable counts declare nothing", "<testsuite name='s' failures='many' errors='-1'/>", ""},
      {"fewer declared than shown", "<testsuite name='s' failures='0'><testcase name='x'><failure/></testcase></testsuite>", ""},
      {"pytest 9 subtests: one case, a <failure> per failed subtest and one for the test",
       "<testsuite name='pytest' errors='0' failures='3'><testcase classname='t' name='test_fixture'>"
       "<failure message='assert 1 == 0'/><failure message='assert 2 == 0'/><failure message='contains 2 failed "
       "subtests'/></testcase></testsuite>",
       ""},
      {"pytest: a failed call and a teardown error, a skip with a teardown error",
       "<testsuite name='pytest' errors='2' failures='1' skipped='1'>"
       "<testcase classname='t' name='a'><failure message='x'/></testcase>"
       "<testcase classname='t' name='a'><error message='failed on teardown with &quot;E&quot;'/></testcase>"
       "<testcase classname='t' name='b'><skipped message='s'/><error message='failed on teardown with &quot;E&quot;'/>"
       "</testcase></testsuite>",
       ""},
  };
  for (const auto& row : rows) {
    INFO(row.shape);
    auto stats = junit::read_text(row.xml, "r.xml", [](const TestCase&) {});
    REQUIRE(stats.ok());
    const auto checked = junit::check_declared_counts(*stats, "r.xml");
    if (std::string(row.expected).empty()) {
      CHECK(checked.ok());
      CHECK(stats->undercounted.empty());
    } else {
      REQUIRE_FALSE(checked.ok());
      CHECK(checked.error().message == row.expected);
      CHECK(checked.error().kind == ErrorKind::could_not_evaluate);
    }
  }
  // The shapes real runners wrote: nothing undercounted (pytest 9 both families, with a
  // prefix and with mixins, CTest, Surefire with flaky and rerun failures, gotestsum, nested).
  for (const char* file : {"pytest-xunit1.xml", "pytest-xunit2.xml", "pytest-prefix.xml", "pytest-mixin-xunit1.xml",
                           "ctest.xml", "surefire-rerun.xml", "gotestsum.xml", "nested.xml"}) {
    INFO(file);
    auto stats = junit::read_file(SystemFiles(), kData + file, [](const TestCase&) {});
    REQUIRE(stats.ok());
    CHECK(junit::check_declared_counts(*stats, file).ok());
  }
}
