#include "catch.hpp"
#include "gatekit/junit_writer.hpp"
#include "report.hpp"
#include "temp_dir.hpp"

using namespace smoke_runner;
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
  REQUIRE(write_reports(sample(m), tmp / "r").ok());
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
