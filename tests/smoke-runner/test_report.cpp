#include "catch.hpp"
#include "gatekit/files.hpp"
#include "gatekit/json.hpp"
#include "gatekit/junit_writer.hpp"
#include "gatekit/utf8.hpp"
#include "options.hpp"
#include "report.hpp"
#include "temp_dir.hpp"

using namespace gatekit::smoke_runner;
using namespace std::chrono_literals;

namespace {
RunReport sample(Manifest& m) {
  m.path = "ci/smokes.yaml";
  for (const char* n : {"ok", "bad", "big"}) {
    Smoke s;
    s.name = n;
    s.command = {"run", n, "a b"};
    m.smokes.push_back(s);
  }
  m.smokes[2].min_gpus = 2;
  RunReport r;
  r.manifest = &m;
  r.tier = "pr";
  r.gpus.count = 1;
  r.gpus.backend = "override";
  r.gpus_known = true;
  r.result = "failed";
  r.exit_code = 1;
  r.started_at = "2025-01-01T00:00:00Z";
  r.duration = 4200ms;
  r.smokes.resize(3);
  r.smokes[0] = {0, Status::passed, "", {0}, 0ms, 1500ms, 0, 0, "fine\n", 5};
  r.smokes[1] = {1, Status::failed, "exit code 1", {0}, 1500ms, 2700ms, 1, 0, "boom <&>\n", 9};
  r.smokes[2] = {2, Status::skipped, "needs 2 GPUs, runner has 1", {}, std::nullopt, 0ms, -1, 0, "", 0};
  return r;
}
}  // namespace

TEST_CASE("JUnit: failures, skips with their reason, output") {
  Manifest m;
  auto xml = report_junit(sample(m));
  CHECK(xml.find(R"x(<testsuite name="smoke-runner (tier pr)" tests="3" failures="1" errors="0" skipped="1" time="4.200")x") != std::string::npos);
  CHECK(xml.find(R"(<failure message="exit code 1" type="failed">run bad &apos;a b&apos;)") == std::string::npos);
  CHECK(xml.find("<failure message=\"exit code 1\" type=\"failed\">run bad 'a b'\nexit code 1</failure>") != std::string::npos);
  CHECK(xml.find(R"(<skipped message="skipped: needs 2 GPUs, runner has 1"/>)") != std::string::npos);
  CHECK(xml.find("<system-out>boom &lt;&amp;&gt;\n</system-out>") != std::string::npos);
}

TEST_CASE("JSON round trip: durations of smokes that ran feed the next plan") {
  Manifest m;
  auto json = report_json(sample(m));
  auto durations = read_durations(json);
  REQUIRE(durations.ok());
  CHECK(*durations == std::map<std::string, milliseconds>{{"ok", 1500ms}, {"bad", 2700ms}});
  CHECK(read_durations("[1]").error().message == "not a smoke-runner JSON report (expected an object)");
  CHECK(read_durations("{").error().message.rfind("not JSON: ", 0) == 0);
}

TEST_CASE("summary: counts, table, Gantt chart per GPU, failed output folded") {
  Manifest m;
  auto md = report_summary(sample(m));
  CHECK(md.rfind("## ❌ GPU smokes: 1 passed, 1 failed, 1 skipped\n\ntier `pr` · 1 GPU (--gpus override) · manifest `ci/smokes.yaml`\n", 0) == 0);
  CHECK(md.find("| `big` | ⏭️ skipped |  |  | needs 2 GPUs, runner has 1 |") != std::string::npos);
  CHECK(md.find("```mermaid\ngantt\n    title Smokes on GPUs (4.2s in all)\n    dateFormat x\n    axisFormat %M:%S\n"
                "    section GPU 0\n    ok :done, 0, 1500\n    bad :crit, 1500, 4200\n```\n") != std::string::npos);
  CHECK(md.find("<details><summary><code>bad</code>: exit code 1</summary>\n\n```\n$ run bad 'a b'\nboom <&>\n```\n</details>") !=
        std::string::npos);
}

TEST_CASE("reports are written to the folder, whole") {
  gatekit::testing::TempDir tmp;
  Manifest m;
  gatekit::SystemFiles files;
  REQUIRE(write_reports(sample(m), tmp / "r", files).ok());
  for (const char* f : {"smoke-results.json", "smoke-junit.xml", "smoke-summary.md"})
    CHECK(std::filesystem::file_size(tmp / "r" / f) > 100);
  CHECK_FALSE(std::filesystem::exists(tmp / "r" / "smoke-results.json.tmp"));
}

TEST_CASE("output buffer keeps head and tail") {
  OutputBuffer b(4, 6);
  b.append("0123");
  b.append("456789abcdefghij");
  CHECK(b.total() == 20);
  CHECK(b.text() == "0123\n[... 10 bytes of output left out ...]\nefghij");
  CHECK(b.last(3) == "hij");
  OutputBuffer small(10, 10);
  small.append("abc");
  CHECK(small.text() == "abc");
}

TEST_CASE("XML escaping drops what XML cannot carry and repairs UTF-8") {
  CHECK(gatekit::xml_escape("a<b>&\"c\"", true) == "a&lt;b&gt;&amp;&quot;c&quot;");
  CHECK(gatekit::xml_escape(std::string("x\x01y\x1bz", 5), false) == "xyz");
  CHECK(gatekit::xml_escape("caf\xc3\xa9 \xff", false) == "caf\xc3\xa9 \xEF\xBF\xBD");
}

TEST_CASE("XML escaping: NUL, a lone surrogate, U+FFFE and the end of a CDATA section") {
  CHECK(gatekit::xml_escape(std::string("a\0b", 3), false) == "ab");
  CHECK(gatekit::xml_escape("\xED\xA0\x80", false) == "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
  CHECK(gatekit::xml_escape("x\xEF\xBF\xBEy", false) == "xy");
  CHECK(gatekit::xml_escape("]]>", false) == "]]&gt;");
  CHECK(gatekit::xml_escape("\x7F\t\r", true) == "\x7F&#9;&#13;");
}

TEST_CASE("JSON stays valid UTF-8 whatever bytes a smoke printed, and old reports are still read") {
  Manifest m;
  auto r = sample(m);
  r.smokes[1].output = std::string("A\xff\xfe B\0 C\x1b[31m D\xed\xa0\x80 \"E\"\n", 23);
  r.gpus.devices = {{0, "GPU \xc3"}};
  const auto json = report_json(r);
  CHECK(gatekit::is_valid_utf8(json));
  boost::system::error_code ec;
  const auto doc = boost::json::parse(json, ec);
  REQUIRE_FALSE(ec);
  const auto& smokes = doc.at("smokes").as_array();
  CHECK(smokes.at(1).at("output_tail").as_string() ==
        std::string("A\xEF\xBF\xBD\xEF\xBF\xBD B\0 C\x1b[31m D\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD \"E\"\n", 33));
  CHECK(doc.at("gpus").at("devices").at(0).at("name").as_string() == "GPU \xEF\xBF\xBD");
  // A report written before the repair, with the raw bytes in it.
  const std::string old = R"({"smokes":[{"name":"ok","status":"passed","duration_ms":1500,"output_tail":")" "\xff" R"("}]})";
  auto durations = read_durations(old);
  REQUIRE(durations.ok());
  CHECK(durations->at("ok") == 1500ms);
}

TEST_CASE("a rejected command line gets a summary quoting the error as text") {
  CHECK(usage_error_summary("--gpus: got '<b>1</b>'") ==
        "## ⚠️ GPU smokes: not run (usage error)\n\nsmoke-runner rejected its command line (exit 2), so no smoke ran "
        "and no report was written:\n\n> \\--gpus: got '\\<b>1\\</b>'\n\nRun `smoke-runner --help` for the options.\n");
}

TEST_CASE("strict counts: decimal digits only, within range") {
  CHECK(parse_count("0", 1024).value() == 0);
  CHECK(parse_count("007", 1024).value() == 7);
  CHECK(parse_count("1024", 1024).value() == 1024);
  for (const char* bad : {"", "abc", "0x2", "1e1", " 3", "3 ", "+3", "-1", "3.0", "1025", "99999999999999999999"}) {
    INFO(bad);
    auto r = parse_count(bad, 1024);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().kind == gatekit::ErrorKind::bad_input);
  }
  CHECK(parse_count("1\n::error::x", 8).error().message ==
        "expected a whole number from 0 to 8 in decimal digits, got '1\\n::error::x'");
}
