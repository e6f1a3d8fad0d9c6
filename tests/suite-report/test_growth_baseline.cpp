// growth's baselines on disk (growth_baseline.cpp): version 3 written and read back through
// the Files seam, version 1 (what the previous gatekit wrote) still read or refused with a
// message saying what to do, JUnit reports as baselines, and the errors, verbatim.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <sstream>

#include "catch.hpp"
#include "gatekit/files.hpp"
#include "gatekit/json.hpp"
#include "growth.hpp"
#include "temp_dir.hpp"

using namespace gatekit;
using namespace gatekit::suite_report;

namespace {

const ConfigKey kKey{"cpu-tests.yml", "tests", "3.12", "not gpu"};

// The writer's identities and seconds, from a list.
TestAt from(const std::vector<TestLine>& lines) {
  return [&lines](std::size_t k) { return lines.at(k); };
}

std::string written(const std::vector<HistoryPoint>& history,
                    const std::vector<std::pair<std::string, double>>& tests) {
  MemoryFiles files;
  BaselineWriter writer(files, "b.json");
  std::vector<TestLine> lines;
  for (const auto& [id, seconds] : tests) {
    REQUIRE(writer.add(display_id(id)).ok());
    lines.push_back({TestIdentity::of(id), seconds});
  }
  REQUIRE(writer.finish(kKey, history, tests.size(), from(lines)).ok());
  return files.files.at("b.json");
}

const KeepName kKeepAll = [](const TestIdentity&) { return true; };

}  // namespace

TEST_CASE("growth: a baseline written is read back, history capped, key kept, display names on request") {
  std::vector<HistoryPoint> history;
  for (int i = 0; i < 35; ++i) history.push_back({"abc" + std::to_string(i), std::to_string(i), "2026-01-01T00:00:00Z",
                                                  static_cast<std::size_t>(100 + i), 10.0 + i});
  const std::string long_id = "b.py::test_p[" + std::string(5000, 'x') + "]";
  MemoryFiles files;
  files.files["base.json"] = written(history, {{"a.py::test_\"q\"\n", 1.5}, {long_id, 0}});
  auto back = read_baseline(files, "base.json", kKeepAll);
  REQUIRE(back.ok());
  REQUIRE(back->key);
  CHECK(*back->key == kKey);
  CHECK(back->tests == Snapshot{{"a.py::test_\"q\"\n", 1.5}, {long_id, 0}});
  CHECK(back->names.at(TestIdentity::of(long_id)) == display_id(long_id));
  REQUIRE(back->history.size() == kHistoryLimit);
  CHECK(back->history.front().sha == "abc5");
  CHECK(back->history.back().tests == 134);
  CHECK(back->history.back().seconds == 44.0);
  // Identities and display names only: the whole 5 KB id is not in the file.
  CHECK(files.files["base.json"].find(std::string(300, 'x')) == std::string::npos);
  CHECK(files.files["base.json"].find("\"identity\":\"sha256-128+64\"") != std::string::npos);
  // Names only for what was asked.
  auto some = read_baseline(files, "base.json",
                            [&](const TestIdentity& id) { return id.same_key(TestIdentity::of(long_id)); });
  REQUIRE(some.ok());
  CHECK(some->names.size() == 1);
  CHECK(read_baseline(files, "base.json")->names.empty());
}

TEST_CASE("growth: the writer writes in pieces through Files, the reader reads in pieces, and says when it could not") {
  gatekit::testing::TempDir tmp;
  MemoryFiles memory;
  SystemFiles disk;
  for (Files* files : {static_cast<Files*>(&memory), static_cast<Files*>(&disk)}) {
    const std::string path = (tmp / "b.json").string();
    {
      BaselineWriter writer(*files, path);
      std::vector<TestLine> lines;
      for (int i = 0; i < 30000; ++i) {
        const std::string id = "t.py::test_" + std::to_string(i) + std::string(40, 'p');
        REQUIRE(writer.add(id).ok());
        lines.push_back({TestIdentity::of(id), 0.25});
      }
      REQUIRE(writer.finish(kKey, {}, 30000, from(lines)).ok());
      CHECK_FALSE(files->exists(path + ".tests.tmp"));
      CHECK_FALSE(files->exists(path + ".tmp"));
    }
    auto back = read_baseline(*files, path);  // some 3 MB: lines cross the 64 KiB pieces
    REQUIRE(back.ok());
    CHECK(back->tests.size() == 30000);
    CHECK(back->tests.seconds_of("t.py::test_29999" + std::string(40, 'p')) == 0.25);
  }
  BaselineWriter short_writer(memory, "c.json");
  REQUIRE(short_writer.add("a").ok());
  const std::vector<TestLine> one{{TestIdentity::of("a"), 1}};
  CHECK(short_writer.finish(kKey, {}, 2, from(one)).error().message == "cannot write c.json: 1 tests written, 2 announced");
  CHECK_FALSE(memory.exists("c.json"));
  // A line no writer makes: refused before it grows past 1 MiB.
  memory.files["long.json"] = "{\"format\":\"gatekit-suite-baseline\",\"version\":2}\n[\"" + std::string(2 << 20, 'a');
  CHECK(read_baseline(memory, "long.json").error().message == "long.json:1: `identity` is not \"sha256-128+64\"");
  memory.files["long.json"] = written({}, {}) + "[\"" + std::string(2 << 20, 'a');
  CHECK(read_baseline(memory, "long.json").error().message == "long.json:2: a line longer than 1048576 bytes");
}

TEST_CASE("growth: the writer leaves the file as it was until finish() puts the next one there whole") {
  MemoryFiles files{{"b.json", "the last baseline"}};
  const auto id = [](int i) { return "t.py::test_" + std::to_string(i) + std::string(100, 'p'); };
  {
    BaselineWriter writer(files, "b.json");
    for (int i = 0; i < 12000; ++i) REQUIRE(writer.add(id(i)).ok());
    CHECK(files.files.at("b.json") == "the last baseline");
    CHECK(files.exists("b.json.tests.tmp"));  // the names past the first MiB, beside it
  }  // dropped unfinished: nothing of it stays
  CHECK(files.files == std::map<std::string, std::string>{{"b.json", "the last baseline"}});

  // The identities and seconds asked for at the end, once each, in order: a repeated test's
  // seconds are whole by then.
  BaselineWriter writer(files, "b.json");
  std::vector<TestLine> lines;
  for (int i = 0; i < 12000; ++i) {
    REQUIRE(writer.add(id(i)).ok());
    lines.push_back({TestIdentity::of(id(i)), 0.5 + i});
  }
  std::vector<std::size_t> asked;
  REQUIRE(writer.finish(kKey, {}, 12000, [&](std::size_t k) {
    asked.push_back(k);
    return lines.at(k);
  }).ok());
  CHECK(asked.size() == 12000);
  CHECK(std::is_sorted(asked.begin(), asked.end()));
  CHECK(asked.back() == 11999);
  CHECK(files.files.size() == 1);
  auto back = read_baseline(files, "b.json", kKeepAll);
  REQUIRE(back.ok());
  CHECK(back->tests.size() == 12000);
  CHECK(back->tests.seconds_of(id(11999)) == 11999.5);
  CHECK(back->names.at(TestIdentity::of(id(6000))) == id(6000));
}

TEST_CASE("growth: a test line's number and name are written as json::serialize writes them, byte for byte") {
  // The writer formats a million lines without Boost.JSON's values; the lines must not change.
  std::vector<double> numbers = {0.0, -0.0, 1.0, 0.1, 0.25, 1e-3, 12.125, 17.125999999999998, 1e21, 1e22, 1e-7, 123456789.0,
                                 5e-324, 2.2250738585072014e-308, std::numeric_limits<double>::max(), 0.30000000000000004,
                                 9007199254740993.0, 100.0, 1e100, 3.0e-5, std::numeric_limits<double>::infinity(),
                                 -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()};
  std::mt19937_64 random(27);
  while (numbers.size() < 20000) {
    const std::uint64_t bits = random();
    double value = 0;
    std::memcpy(&value, &bits, sizeof value);
    numbers.push_back(std::isfinite(value) ? value : static_cast<double>(bits >> 20) / 1000.0);
  }
  std::vector<std::string> names;
  for (int byte = 0; byte < 256; ++byte) names.push_back("t[" + std::string(1, static_cast<char>(byte)) + "]");
  names.push_back("tests/test_a.py::test_q[a\"b\\c-\xC3\xA9\xE2\x9C\x93/\x7F\x01\x1F]");
  names.push_back("");
  MemoryFiles files;
  BaselineWriter writer(files, "b.json");
  std::vector<TestLine> tests;
  std::vector<std::string> expected;
  for (std::size_t i = 0; i < numbers.size(); ++i) {
    const std::string& name = names[i % names.size()];
    const auto id = TestIdentity::of(std::to_string(i));
    REQUIRE(writer.add(name).ok());
    tests.push_back({id, numbers[i]});
    expected.push_back("[\"" + id.hex() + "\"," + boost::json::serialize(boost::json::value(numbers[i])) + "," +
                       boost::json::serialize(boost::json::string_view(name.data(), name.size())) + "]");
  }
  REQUIRE(writer.finish(kKey, {}, numbers.size(), from(tests)).ok());
  std::istringstream lines(files.files.at("b.json"));
  std::string line;
  std::getline(lines, line);  // the header
  for (std::size_t i = 0; i < expected.size(); ++i) {
    REQUIRE(std::getline(lines, line));
    if (line != expected[i]) {
      INFO("test " << i << ", seconds " << numbers[i]);
      CHECK(line == expected[i]);
    }
  }
  CHECK_FALSE(std::getline(lines, line));
}

TEST_CASE("growth: a version 1 baseline, as the previous gatekit wrote it, is still read") {
  MemoryFiles files;
  // Byte for byte what version 1's baseline_json wrote: one line, ids sorted.
  files.files["v1.json"] =
      "{\"format\":\"gatekit-suite-baseline\",\"version\":1,\"key\":{\"workflow\":\"cpu-tests.yml\",\"job\":\"tests\","
      "\"python\":\"3.12\",\"selection\":\"not gpu\"},\"history\":[{\"sha\":\"abc\",\"run\":\"7\",\"date\":"
      "\"2026-01-01T00:00:00Z\",\"tests\":2,\"seconds\":1.5E0}],\"tests\":{\"a.py::test_x\":1.5E0,\"b.py::test_y\":0E0}}\n";
  auto back = read_baseline(files, "v1.json", kKeepAll);
  REQUIRE(back.ok());
  // Laid out over several lines (by hand, or by a formatter), the same.
  std::string spread = files.files["v1.json"];
  for (const char* cut : {",\"key\"", ",\"tests\""}) spread.insert(spread.find(cut) + 1, "\n  ");
  files.files["spread.json"] = spread;
  auto same = read_baseline(files, "spread.json");
  REQUIRE(same.ok());
  CHECK(same->tests == back->tests);
  CHECK(*back->key == kKey);
  CHECK(back->tests == Snapshot{{"a.py::test_x", 1.5}, {"b.py::test_y", 0}});
  CHECK(back->names.at(TestIdentity::of("b.py::test_y")) == "b.py::test_y");
  REQUIRE(back->history.size() == 1);
  CHECK(back->history[0].run_id == "7");
  // Compared with this run's identities, test by test.
  const auto g = compare(back->tests, Snapshot{{"a.py::test_x", 1}, {"c.py::test_z", 2}}, {});
  REQUIRE(g.ok());
  CHECK(g->added.size() == 1);
  CHECK(g->removed == std::vector<TestIdentity>{TestIdentity::of("b.py::test_y")});
}

TEST_CASE("growth: a version 1 baseline whose ids were cut or merged is refused, saying what to do") {
  MemoryFiles files;
  auto v1 = [](const std::string& tests) {
    return "{\"format\":\"gatekit-suite-baseline\",\"version\":1,\"key\":{\"workflow\":\"w\",\"job\":\"j\",\"python\":"
           "\"3.12\",\"selection\":\"s\"},\"history\":[],\"tests\":{" + tests + "}}\n";
  };
  files.files["cut.json"] = v1("\"a.py::test_x\":1,\"t.py::test_p[xxxx [... 300 bytes left out]\":1");
  CHECK(read_baseline(files, "cut.json").error().message ==
        "cut.json: a version 1 suite baseline, written by an older gatekit, and it holds a test id cut short "
        "(`t.py::test_p[xxxx [... 300 bytes left out]`): growth is compared again once a push to the baseline branch "
        "stores a version 3 baseline (nothing to do but wait for that run, or re-run the last one)");
  files.files["merged.json"] = v1("\"\":3,\"a.py::test_x\":1");
  CHECK(read_baseline(files, "merged.json").error().message ==
        "merged.json: a version 1 suite baseline, written by an older gatekit, and it merged the cases without name "
        "or classname into one: growth is compared again once a push to the baseline branch stores a version 3 "
        "baseline (nothing to do but wait for that run, or re-run the last one)");
}

TEST_CASE("growth: unreadable baselines say why") {
  MemoryFiles files;
  const std::string b = "base/b";
  auto error_of = [&](const std::string& text) {
    files.files[b] = text;
    auto r = read_baseline(files, b);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().kind == ErrorKind::could_not_evaluate);
    return r.error().message;
  };
  // Read through the Files seam: its wording, and its limit of 1 GiB.
  SystemFiles disk;
  CHECK(read_baseline(disk, "/nonexistent/b").error().message == "cannot read /nonexistent/b: No such file or directory");
  CHECK(error_of("hello") == b + ": neither a JUnit report nor a suite baseline");
  CHECK(error_of("{\"format\": \"other\"}") == b + ": not a suite baseline: `format` is not \"gatekit-suite-baseline\"");
  CHECK(error_of("{\"format\": \"gatekit-suite-baseline\", \"version\": 4}") ==
        b + ": unsupported suite baseline version (this gatekit reads versions 1, 2 and 3)");
  CHECK(error_of("{\"format\": \"gatekit-suite-baseline\", \"version\": 1, \"key\": {\"workflow\": \"w\"}}") ==
        b + ": `key.job` is missing or not a string");
  CHECK(error_of("{\"format\": ").rfind(b + ": not a suite baseline: invalid JSON (", 0) == 0);
  CHECK(error_of("<testsuites><testcase name='a'>").find(": the report ends early (cut short?)") != std::string::npos);

  const std::string good = written({}, {{"a.py::test_x", 1}, {"b.py::test_y", 2}});
  const auto header = good.substr(0, good.find('\n') + 1);
  const auto lines = good.substr(header.size());
  const auto first_line = lines.substr(0, lines.find('\n') + 1);
  CHECK(error_of(header + first_line) == b + ": cut short? the header announces 2 tests, 1 follow");
  CHECK(error_of(header + first_line + first_line) ==
        b + ":3: the test `a.py::test_x` is listed twice, or shares its identity with another");
  CHECK(error_of(header + "[\"abc\", 1, \"x\"]\n") == b + ":2: the identity is not 48 hex digits");
  CHECK(error_of(header + "{\"id\": 1}\n") == b + ":2: a test line is not [\"<identity>\", <seconds>, \"<display>\"]");
  CHECK(error_of(header + "[\"" + std::string(48, 'a') + "\", \"1\", \"x\"]\n") ==
        b + ":2: a test line is not [\"<identity>\", <seconds>, \"<display>\"]");
  auto other_scheme = header;
  other_scheme.replace(other_scheme.find("sha256-128+64"), 13, "md5");
  CHECK(error_of(other_scheme + lines) == b + ":1: `identity` is not \"sha256-128+64\"");
}

TEST_CASE("growth: a JUnit report is a baseline too, without a key; each nameless case is a test") {
  MemoryFiles files;
  files.files["r.xml"] = "<testsuite name='pytest'><testcase classname='tests.test_a' name='test_x' time='1.5'/>"
                         "<testcase classname='tests.test_a' name='test_x' time='0.5'/>"
                         "<testcase time='1'/><testcase time='2'/><testcase name='' classname='' time='3'/></testsuite>";
  auto back = read_baseline(files, "r.xml", kKeepAll);
  REQUIRE(back.ok());
  CHECK_FALSE(back->key);
  CHECK(back->tests.size() == 4);
  CHECK(back->tests.seconds_of("tests/test_a.py::test_x") == 2.0);
  CHECK(back->tests.find(TestIdentity::unnamed(3))->seconds == 3);
  CHECK(back->names.at(TestIdentity::unnamed(2)) == "(test 2 without name or classname)");
}

TEST_CASE("growth: this run's report, streamed: whole ids, nameless cases one test each, in report order") {
  gatekit::testing::TempDir tmp;
  const std::string head = "test_p[" + std::string(300, 'x');
  std::ofstream(tmp / "r.xml") << "<testsuites><testsuite name='pytest'>"
                                  "<testcase classname='tests.test_long' name='" + head + "-1]' time='1'/>"
                                  "<testcase classname='tests.test_long' name='" + head + "-2]' time='1'/>"
                                  "<testcase time='1'/><testcase time='1'/><testcase time='1'/>"
                                  "</testsuite></testsuites>";
  auto snapshot = read_report_snapshot(SystemFiles(), (tmp / "r.xml").string(), "");
  REQUIRE(snapshot.ok());
  CHECK(snapshot->size() == 5);
  CHECK(snapshot->contains("tests/test_long.py::" + head + "-2]"));
  std::vector<std::string> displays;
  REQUIRE(visit_report(SystemFiles(), (tmp / "r.xml").string(), "", [&](const ReportCase& c) -> Status {
            displays.push_back(c.display());
            return {};
          }).ok());
  REQUIRE(displays.size() == 5);
  CHECK(displays[0] == display_id("tests/test_long.py::" + head + "-1]"));
  CHECK(displays[4] == "(test 3 without name or classname)");
  const auto missing = read_report_snapshot(SystemFiles(), (tmp / "none.xml").string(), "");
  REQUIRE_FALSE(missing.ok());
}
