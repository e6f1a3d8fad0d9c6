// junit::rewrite: a report written again with a few cases changed, streamed, everything else
// byte for byte. Real reports of every family (tests/core/data/junit) go through it unchanged,
// and with every failed case edited, read back and compared with the input case by case.
#include <algorithm>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "catch.hpp"
#include "fuzz_corpus.hpp"
#include "gatekit/files.hpp"
#include "gatekit/junit_reader.hpp"
#include "gatekit/junit_rewrite.hpp"

using namespace gatekit;
using namespace gatekit::junit;

namespace {

const std::string kData = std::string(GATEKIT_TEST_DATA) + "/junit/";

std::vector<std::string> real_reports() {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(kData))
    if (entry.path().extension() == ".xml") names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<TestCase> read_cases(const std::string& xml, ReadStats* stats = nullptr) {
  std::vector<TestCase> cases;
  auto read = read_text(xml, "r.xml", [&](const TestCase& c) { cases.push_back(c); });
  REQUIRE(read.ok());
  if (stats != nullptr) *stats = *read;
  return cases;
}

Result<RewriteStats> rewrite_into(std::string& out, const Files& files, const std::string& path,
                                  const std::vector<CaseEdit>& edits) {
  out.clear();
  return rewrite(files, path, edits, [&](std::string_view piece) -> Status {
    out += piece;
    return {};
  });
}

std::string rewritten(const std::string& xml, const std::vector<CaseEdit>& edits) {
  MemoryFiles files{{"r.xml", xml}};
  std::string out;
  const auto done = rewrite_into(out, files, "r.xml", edits);
  INFO((done.ok() ? std::string() : done.error().message));
  REQUIRE(done.ok());
  return out;
}

// The edit of `c`: the case passed in the end, or failed again, after `attempts` more runs.
CaseEdit edit_of(const TestCase& c, bool passed, std::vector<JunitAttempt> attempts) {
  std::string scratch;
  return {c.byte_offset, std::string(c.base_id(scratch)), passed, std::move(attempts)};
}

// Everything the reader takes of a case, but where it is.
void check_same(const TestCase& a, const TestCase& b) {
  CHECK(a.suite == b.suite);
  CHECK(a.classname == b.classname);
  CHECK(a.name == b.name);
  CHECK(a.file == b.file);
  CHECK(a.line == b.line);
  CHECK(a.node_id == b.node_id);
  CHECK(a.outcome == b.outcome);
  CHECK(a.time_s == b.time_s);
  CHECK(a.type == b.type);
  CHECK(a.message == b.message);
  CHECK(a.detail == b.detail);
  CHECK(a.system_out == b.system_out);
  CHECK(a.system_err == b.system_err);
  CHECK(a.flaky_attempts == b.flaky_attempts);
  CHECK(a.rerun_failures == b.rerun_failures);
  CHECK(a.family == b.family);
}

}  // namespace

TEST_CASE("rewrite: with no edit, every real report comes back byte for byte") {
  for (const auto& name : real_reports()) {
    INFO(name);
    const auto xml = SystemFiles{}.read(kData + name);
    REQUIRE(xml.ok());
    std::string out;
    const auto done = rewrite_into(out, SystemFiles{}, kData + name, {});
    REQUIRE(done.ok());
    CHECK(out == *xml);
    CHECK(done->edited == 0);
    CHECK(done->read.bytes == xml->size());
  }
}

TEST_CASE("rewrite: the reader's repairs are the one change to a byte outside the edits") {
  // Latin-1 bytes and a raw control character a runner copied from a test's output.
  const std::string xml = "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<testsuite name=\"s\">"
                          "<testcase classname=\"c\" name=\"caf\xe9\"><system-out>bell \x07 here</system-out></testcase>"
                          "</testsuite>\n";
  CHECK(rewritten(xml, {}) ==
        "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<testsuite name=\"s\">"
        "<testcase classname=\"c\" name=\"caf\xEF\xBF\xBD\"><system-out>bell \xEF\xBF\xBD here</system-out></testcase>"
        "</testsuite>\n");
}

TEST_CASE("rewrite: every failed case of every real report edited; read back, the rest is as it was") {
  for (const auto& name : real_reports()) {
    for (const bool passed : {true, false}) {
      INFO(name << (passed ? ": passed on rerun" : ": failed again"));
      const auto xml = SystemFiles{}.read(kData + name);
      REQUIRE(xml.ok());
      ReadStats before_stats;
      const auto before = read_cases(*xml, &before_stats);
      std::vector<CaseEdit> edits;
      for (const auto& c : before)
        if (c.outcome == JunitOutcome::failure)
          edits.push_back(edit_of(c, passed, {{false, "rerun 1 <failed> & \"said\" so", "E", "trace\n  of rerun 1"}}));
      std::string out;
      const auto done = rewrite_into(out, SystemFiles{}, kData + name, edits);
      REQUIRE(done.ok());
      CHECK(done->edited == edits.size());
      ReadStats after_stats;
      const auto after = read_cases(out, &after_stats);
      REQUIRE(after.size() == before.size());
      // The suites' declared counts agree with the cases they now show.
      CHECK(check_declared_counts(after_stats, name).ok() == check_declared_counts(before_stats, name).ok());
      CHECK(after_stats.failures == before_stats.failures - (passed ? edits.size() : 0));
      for (std::size_t i = 0; i < before.size(); ++i) {
        INFO("case " << i << ": " << before[i].id());
        const bool edited = before[i].outcome == JunitOutcome::failure;
        if (!edited) {
          check_same(after[i], before[i]);
          continue;
        }
        TestCase expected = before[i];
        if (passed) {  // its failure is its first flaky attempt, then the rerun's
          expected.outcome = JunitOutcome::passed;
          expected.flaky_attempts = before[i].flaky_attempts + 1 + before[i].rerun_failures + 1;
          expected.rerun_failures = 0;
        } else {
          expected.rerun_failures = before[i].rerun_failures + 1;
        }
        check_same(after[i], expected);
      }
      if (edits.empty()) CHECK(out == *xml);
    }
  }
}

TEST_CASE("rewrite: what an edit changes, exactly, and nothing else") {
  // Nested suites that declare counts (one not a number), a case with two failures (pytest 9's
  // subtests), an empty failure, an error, Surefire's reruns, attributes in single quotes and
  // with characters to escape, a comment, CDATA, and a case written as one empty tag.
  const std::string xml =
      "<?xml version='1.0' encoding='UTF-8'?>\n"
      "<!-- written by a runner -->\n"
      "<testsuites name='all' failures='4' errors='1'>\n"
      "  <testsuite name='outer' failures='x' errors='1' time='9.5'>\n"
      "    <properties><property name='k' value='v'/></properties>\n"
      "    <testsuite\n      name='inner'  failures='3' tests='3' note='a &amp; &quot;b&quot;&#10;c'>\n"
      "      <testcase classname='C' name='subtests' time='1'><failure message='i=1'>one</failure>"
      "<failure message='i=2'><![CDATA[two <raw>]]></failure><system-out>out</system-out></testcase>\n"
      "      <testcase classname='C' name='empty' custom='kept'><failure message='m'/></testcase>\n"
      "      <testcase classname='C' name='surefire'><failure message='f'>t</failure>"
      "<rerunFailure message='r'><stackTrace>rt</stackTrace></rerunFailure></testcase>\n"
      "    </testsuite>\n"
      "    <testcase classname='C' name='erred'><error message='e' type='RuntimeError'>boom</error></testcase>\n"
      "    <testcase classname='C' name='bare'/>\n"
      "  </testsuite>\n"
      "</testsuites>\n";
  const auto cases = read_cases(xml);
  REQUIRE(cases.size() == 5);
  const std::vector<CaseEdit> edits = {
      edit_of(cases[0], true, {{false, "again", "", ""}}),
      edit_of(cases[1], true, {}),
      edit_of(cases[2], true, {{true, "erred once", "OSError", "x < y"}}),
      edit_of(cases[3], false, {{true, "still", "", "boom 2"}}),
      edit_of(cases[4], false, {{false, "absent from the rerun's report", "", ""}}),
  };
  const auto out = rewritten(xml, edits);
  CHECK(out ==
        "<?xml version='1.0' encoding='UTF-8'?>\n"
        "<!-- written by a runner -->\n"
        // Four failures made flaky (the error failed again): the counts drop by as many.
        "<testsuites name=\"all\" failures=\"0\" errors=\"1\">\n"
        "  <testsuite name='outer' failures='x' errors='1' time='9.5'>\n"  // no count it can lower
        "    <properties><property name='k' value='v'/></properties>\n"
        "    <testsuite name=\"inner\" failures=\"0\" tests=\"3\" note=\"a &amp; &quot;b&quot;&#10;c\">\n"
        "      <testcase classname='C' name='subtests' time='1'><flakyFailure message=\"i=1\"><stackTrace>one"
        "</stackTrace></flakyFailure><flakyFailure message=\"i=2\"><stackTrace><![CDATA[two <raw>]]></stackTrace>"
        "</flakyFailure><system-out>out</system-out><flakyFailure message=\"again\"/></testcase>\n"
        "      <testcase classname='C' name='empty' custom='kept'><flakyFailure message=\"m\"/></testcase>\n"
        "      <testcase classname='C' name='surefire'><flakyFailure message=\"f\"><stackTrace>t</stackTrace>"
        "</flakyFailure><flakyFailure message=\"r\"><stackTrace>rt</stackTrace></flakyFailure>"
        "<flakyError message=\"erred once\" type=\"OSError\"><stackTrace>x &lt; y</stackTrace></flakyError></testcase>\n"
        "    </testsuite>\n"
        "    <testcase classname='C' name='erred'><error message='e' type='RuntimeError'>boom</error>"
        "<rerunError message=\"still\"><stackTrace>boom 2</stackTrace></rerunError></testcase>\n"
        "    <testcase classname=\"C\" name=\"bare\"><rerunFailure message=\"absent from the rerun's report\"/></testcase>\n"
        "  </testsuite>\n"
        "</testsuites>\n");
  ReadStats stats;
  const auto back = read_cases(out, &stats);
  CHECK(check_declared_counts(stats, "m.xml").ok());
  CHECK(back[0].outcome == JunitOutcome::passed);
  CHECK(back[0].flaky_attempts == 3);
  CHECK(back[0].message == "i=1");
  CHECK(back[0].detail == "one");
  CHECK(back[2].flaky_attempts == 3);
  CHECK(back[3].rerun_failures == 1);
  CHECK(back[4].rerun_failures == 1);
}

TEST_CASE("rewrite: a case marked both failed and skipped is refused when a rerun passed, kept when it failed again") {
  // The reader takes the worse result (failure); with its failures made flaky attempts the
  // <skipped> beside them would decide, and a test that passed in the end would read as
  // skipped. Two results that contradict each other are not merged into a third.
  const std::string xml = "<testsuite name='s' failures='1' skipped='1'><testcase classname='c' name='a'/>"
                          "<testcase classname='c' name='b'><failure message='f'/><skipped message='s'/></testcase>"
                          "</testsuite>";
  MemoryFiles files{{"r.xml", xml}};
  const auto cases = read_cases(xml);
  REQUIRE(cases[1].outcome == JunitOutcome::failure);
  std::string out;
  auto refused = rewrite_into(out, files, "r.xml", {edit_of(cases[1], true, {{false, "again"}})});
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().kind == ErrorKind::could_not_evaluate);
  CHECK(refused.error().message == "r.xml: the test case s::c::b at byte " + std::to_string(cases[1].byte_offset) +
                                       " is marked both failed and skipped: a rerun that passed cannot be written "
                                       "into it; it was not written again");
  CHECK(out.empty());
  // Failed again: the case stays failed, with the rerun recorded.
  REQUIRE(rewrite_into(out, files, "r.xml", {edit_of(cases[1], false, {{false, "again"}})}).ok());
  const auto back = read_cases(out);
  CHECK(back[1].outcome == JunitOutcome::failure);
  CHECK(back[1].rerun_failures == 1);
}

TEST_CASE("rewrite: a report that changed since it was read is refused, never written half right") {
  const std::string xml = "<testsuite name='s' failures='1'><testcase classname='c' name='a'/>"
                          "<testcase classname='c' name='b'><failure/></testcase></testsuite>";
  MemoryFiles files{{"r.xml", xml}};
  const auto cases = read_cases(xml);
  std::string out;
  auto gone = edit_of(cases[1], true, {});
  gone.byte_offset = 3;  // no case starts there
  auto refused = rewrite_into(out, files, "r.xml", {gone});
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().kind == ErrorKind::could_not_evaluate);
  CHECK(refused.error().message ==
        "r.xml changed since it was read: 1 of the test cases to change are gone; it was not written again");
  auto other = edit_of(cases[1], false, {});
  other.byte_offset = cases[0].byte_offset;  // another test is there
  refused = rewrite_into(out, files, "r.xml", {other});
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message == "r.xml changed since it was read: the test case at byte " +
                                       std::to_string(cases[0].byte_offset) + " is not s::c::b; it was not written again");
  refused = rewrite_into(out, files, "none.xml", {});
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message == "none.xml: cannot read the report (missing or unreadable)");
  // The sink's Error stops the writing and is returned.
  refused = rewrite(files, "r.xml", {}, [](std::string_view) -> Status {
    return write_error("m.xml.tmp", "No space left on device");
  });
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message == "cannot write m.xml.tmp: No space left on device");
}

TEST_CASE("rewrite: memory holds one piece of the report and one tag, whatever its size and its cases' output") {
  // 200,000 cases (some 20 MB), two of them edited, one with 3 MB of output and a 2 MB trace.
  std::string xml = "<testsuites><testsuite name='pytest' failures='2'>";
  for (int i = 0; i < 200000; ++i) {
    xml += "<testcase classname='tests.test_m' name='test_" + std::to_string(i) + "' time='0.001'";
    if (i == 1000) xml += "><system-out>" + std::string(3 << 20, 'o') + "</system-out><failure message='x'>" +
                          std::string(2 << 20, 't') + "</failure></testcase>";
    else if (i == 150000) xml += "><failure message='y'>short</failure></testcase>";
    else xml += "/>";
  }
  xml += "</testsuite></testsuites>";
  MemoryFiles files{{"big.xml", xml}};
  std::vector<CaseEdit> edits;
  std::size_t cases = 0;
  REQUIRE(read_file(files, "big.xml", [&](const TestCase& c) {
            ++cases;
            if (c.outcome == JunitOutcome::failure) edits.push_back(edit_of(c, c.name == "test_1000", {{false, "again"}}));
          }).ok());
  REQUIRE(edits.size() == 2);
  std::size_t written = 0, largest_piece = 0;
  const auto done = rewrite(files, "big.xml", edits, [&](std::string_view piece) -> Status {
    written += piece.size();
    largest_piece = std::max(largest_piece, piece.size());
    return {};
  });
  REQUIRE(done.ok());
  CHECK(done->read.cases == cases);
  CHECK(done->edited == 2);
  CHECK(done->suites_recounted == 1);  // the root declares no count
  CHECK(written > xml.size());
  // At most a piece of 64 KiB read ahead and what the parser has not yet reported of the one
  // before (a tag); the case's 5 MB of text went out as it came.
  CHECK(done->held_peak <= 2 * 64 * 1024);
  CHECK(largest_piece <= 2 * 64 * 1024);
}

namespace {

constexpr std::string_view kTokens[] = {"<testsuite failures=\"1\">", "</testsuite>", "<testcase name=\"t\">",
                                        "</testcase>", "<failure message=\"m\">", "</failure>", "<failure/>",
                                        "<error/>", "<skipped/>", "<![CDATA[", "]]>", "&amp;", "\xff", "\xc3\xa9",
                                        "<a/>", "\"", "<", ">", "<system-out>", "<rerunFailure/>", "<!-- c -->",
                                        "<testsuites errors='2'>", "\r\n", "<property name='go.version'/>"};

// The property, for any input: where the reader accepts it, the report written again with no
// edit is what the reader read (the input itself when it is clean UTF-8), and with every
// failed case edited it is still a report the reader accepts, with the same cases, the others
// unchanged.
std::string property_violation(const std::string& input) {
  std::vector<TestCase> before;
  ReadStats stats;
  {
    auto read = read_text(input, "r.xml", [&](const TestCase& c) { before.push_back(c); });
    if (!read) return "";
    stats = *read;
  }
  MemoryFiles files{{"r.xml", input}};
  std::string out;
  if (auto done = rewrite_into(out, files, "r.xml", {}); !done) return "no edit: " + done.error().message;
  if (stats.replaced_chars == 0 && out != input) return "no edit: not the input";
  std::vector<CaseEdit> edits;
  for (const auto& c : before)
    if (c.outcome == JunitOutcome::failure || c.outcome == JunitOutcome::error)
      edits.push_back(edit_of(c, edits.size() % 2 == 0, {{false, "again <&>", "T", "]]> trace"}}));
  if (auto done = rewrite_into(out, files, "r.xml", edits); !done) {
    // The one refusal the contract allows: a case that passed in the end is marked skipped too.
    if (done.error().message.find(" is marked both failed and skipped: ") != std::string::npos) return "";
    return "edits: " + done.error().message;
  }
  std::vector<TestCase> after;
  if (auto read = read_text(out, "m.xml", [&](const TestCase& c) { after.push_back(c); }); !read)
    return "edits: the report written is refused: " + read.error().message;
  if (after.size() != before.size()) return "edits: the cases changed in number";
  for (std::size_t i = 0, e = 0; i < before.size(); ++i) {
    const bool edited = e < edits.size() && edits[e].byte_offset == before[i].byte_offset;
    if (edited) {
      const bool passed = edits[e++].passed;
      if (passed != (after[i].outcome == JunitOutcome::passed)) return "edits: case " + std::to_string(i) + "'s outcome";
      continue;
    }
    if (after[i].id() != before[i].id() || after[i].outcome != before[i].outcome || after[i].detail != before[i].detail ||
        after[i].system_out != before[i].system_out || after[i].flaky_attempts != before[i].flaky_attempts)
      return "edits: case " + std::to_string(i) + " changed";
  }
  return "";
}

}  // namespace

TEST_CASE("rewrite: the pass-through property holds on the JUnit fuzz corpus and 3000 seeded mutations") {
  const auto inputs = gatekit::testing::read_corpus("junit_reader");
  std::vector<std::string> pool = inputs;
  for (const auto& name : real_reports()) pool.push_back(*SystemFiles{}.read(kData + name));
  for (const auto& input : pool) {
    CAPTURE(input);
    CHECK(property_violation(input).empty());
  }
  std::mt19937 rng(20261206);
  for (int i = 0; i < 3000; ++i) {
    const auto input = gatekit::testing::mutate(pool, kTokens, rng);
    if (const auto violation = property_violation(input); !violation.empty()) {
      CAPTURE(input, violation);
      FAIL("property violated");
    }
  }
}
