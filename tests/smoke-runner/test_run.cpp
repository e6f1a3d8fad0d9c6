// The run mode end to end on its real parts (files, processes), for what a black-box test
// cannot time reliably: a termination signal that arrives while the manifest is loaded.
#include <signal.h>

#include <fstream>
#include <sstream>

#include "catch.hpp"
#include "gatekit/cli.hpp"
#include "gatekit/compat.hpp"
#include "gatekit/termination.hpp"
#include "modes.hpp"
#include "temp_dir.hpp"

using namespace smoke_runner;

namespace {
std::string read(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}
}  // namespace

TEST_CASE("a signal received before the smokes start: nothing starts, every report says cancelled") {
  gatekit::reset_termination_for_testing();
  gatekit::testing::TempDir tmp;
  {
    std::ofstream(tmp / "m.yaml") << "smokes:\n  - name: never\n    command: [sh, -c, 'touch " + (tmp / "ran").string() +
                                         "']\n    pr: true\n";
    std::ofstream(tmp / "output").flush();
    std::ofstream(tmp / "summary").flush();
  }
  gatekit::MapEnvironment env;
  env.set("GITHUB_OUTPUT", (tmp / "output").string());
  env.set("GITHUB_STEP_SUMMARY", (tmp / "summary").string());
  Options o;
  o.manifest = (tmp / "m.yaml").string();
  o.tier = "pr";
  o.gpus = 1;
  o.report_dir = (tmp / "reports").string();
  std::ostringstream log;
  auto wf = gatekit::make_workflow(env, log);

  gatekit::request_termination(SIGINT);  // as if it came while the manifest was read
  try {
    run_mode(o, env, *wf);
    FAIL("a cancelled run must not end normally");
  } catch (const gatekit::ToolError& e) {
    CHECK(e.code == gatekit::ExitCode::could_not_evaluate);
    CHECK(e.message == "cancelled: the runner received SIGINT; reports written");
  }
  gatekit::reset_termination_for_testing();

  CHECK_FALSE(std::filesystem::exists(tmp / "ran"));
  CHECK(read(tmp / "output").rfind("result=cancelled\npassed=0\nfailed=0\nskipped=0\n", 0) == 0);
  const auto report = boost::json::parse(read(tmp / "reports" / "smoke-results.json"));
  CHECK(report.at("result").as_string() == "cancelled");
  CHECK(report.at("smokes").at(0).at("status").as_string() == "not_run");
  CHECK(report.at("smokes").at(0).at("reason").as_string() == "not started: the runner received SIGINT");
  CHECK(read(tmp / "reports" / "smoke-junit.xml").find("<testcase classname=\"smoke-runner\" name=\"cancelled\"") !=
        std::string::npos);
  CHECK(read(tmp / "summary").find("> cancelled: the runner received SIGINT; reports written") != std::string::npos);
}
