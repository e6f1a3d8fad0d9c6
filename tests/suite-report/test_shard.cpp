// `suite-report shard` over a fake pytest: the lists written, the outputs, the refusal of node
// ids pytest would misread, and the baseline's durations (the real pytest runs in
// test_shard_suites.py).
#include <chrono>
#include <map>

#include "catch.hpp"
#include "gatekit/fake_context.hpp"
#include "suite-report.hpp"

using namespace gatekit;
using namespace gatekit::suite_report;

namespace {

ProcessResult collected(std::string out) {
  ProcessResult r;
  r.exit_code = 0;
  r.out = std::move(out);
  r.out_bytes = r.out.size();
  return r;
}

struct Run {
  ExitCode code = ExitCode::pass;
  RecordingWorkflow workflow;
  std::string failure;
  std::map<std::string, std::string> files;
};

const std::string kYaml = "version: 1\nlegs:\n  cpu: {markers: not gpu}\n  gpu: {device: gpu, markers: gpu}\n";

Run shard(const std::string& pytest_out, ShardOptions options, const std::string& baseline = "",
          std::chrono::milliseconds collection_takes = std::chrono::milliseconds(0),
          std::chrono::milliseconds wall_clock_set_back = std::chrono::milliseconds(0)) {
  FakeSeams seams;
  seams.files.files["suite.yml"] = kYaml;
  if (!baseline.empty()) seams.files.files["base.xml"] = baseline;
  FakeProcessRunner runner([&](const ProcessSpec&) -> Result<ProcessResult> {
    seams.clock.advance(collection_takes);
    seams.clock.set_wall_clock(seams.clock.now() - wall_clock_set_back);  // NTP, mid-collection
    return collected(pytest_out);
  });
  options.selection = "suite.yml";
  options.leg = "gpu";
  options.context = "pr";
  Run run;
  Context context{seams.env, seams.run,    seams.clock, seams.files, runner,     seams.make_transport,
                  run.workflow, seams.in,    seams.out,   seams.gpus, seams.err};
  try {
    run.code = run_shard(options, context);
  } catch (const Failure& failure) {
    run.code = exit_code_of(failure.error());
    run.failure = failure.error().message;
  }
  run.files = seams.files.files;
  return run;
}

const std::string kBaseline = R"(<?xml version="1.0"?><testsuites><testsuite name="pytest" tests="4">
<testcase classname="t" name="test_slow" file="t.py" time="9.0"/>
<testcase classname="t" name="test_a" file="t.py" time="3.0"/>
<testcase classname="t" name="test_b" file="t.py" time="3.0"/>
<testcase classname="t" name="test_c" file="t.py" time="3.0"/>
</testsuite></testsuites>)";

}  // namespace

TEST_CASE("shard: the baseline's durations decide, the list is a file of node ids") {
  ShardOptions options;
  options.shards = 2;
  options.index = 2;
  options.out = "mine.txt";
  options.baseline = "base.xml";
  auto run = shard("t.py::test_a\nt.py::test_slow\nt.py::test_b\nt.py::test_c\n\n4 tests\n", options, kBaseline);
  REQUIRE(run.code == ExitCode::pass);
  CHECK(run.files.at("mine.txt") == "t.py::test_a\nt.py::test_b\nt.py::test_c\n");
  CHECK(run.workflow.outputs.at("tests") == "3");
  CHECK(run.workflow.outputs.at("predicted-seconds") == "9.000");
  CHECK(run.workflow.outputs.at("makespan-seconds") == "9.000");
  CHECK(run.workflow.outputs.at("file") == "mine.txt");
  CHECK(run.workflow.summary.find("| 2 (this job) | 3 | 9.0s |") != std::string::npos);
  CHECK(run.workflow.summary.find("4 of 4 tests had a recorded duration") != std::string::npos);
}

TEST_CASE("shard: each prediction includes the shard's start, measured as this job's collection") {
  ShardOptions options;
  options.shards = 2;
  options.index = 1;
  options.out = "mine.txt";
  options.baseline = "base.xml";
  options.plan = "plan.json";
  auto run = shard("t.py::test_a\nt.py::test_slow\nt.py::test_b\nt.py::test_c\n\n4 tests\n", options, kBaseline,
                   std::chrono::milliseconds(2100));
  REQUIRE(run.code == ExitCode::pass);
  CHECK(run.files.at("mine.txt") == "t.py::test_slow\n");
  CHECK(run.workflow.outputs.at("predicted-seconds") == "11.100");
  CHECK(run.workflow.outputs.at("makespan-seconds") == "11.100");
  CHECK(run.workflow.outputs.at("ideal-seconds") == "11.100");
  CHECK(run.workflow.summary.find("| 1 (this job) | 1 | 11.1s |") != std::string::npos);
  CHECK(run.workflow.summary.find("Each prediction includes a shard's start, 2.1s (this job's pytest collection: "
                                  "interpreter, plugins, imports).") != std::string::npos);
  const std::string plan = run.files.at("plan.json");
  CHECK(plan.find("\"start_ms\":2100") != std::string::npos);
  CHECK(plan.find("\"durations\":{\"from\":\"the baseline base.xml, 4 of 4 tests recorded\",\"recorded\":4}") !=
        std::string::npos);
}

TEST_CASE("shard: the collection is timed on the monotonic clock, so the time set back meanwhile changes nothing") {
  ShardOptions options;
  options.shards = 2;
  options.index = 1;
  options.out = "mine.txt";
  options.baseline = "base.xml";
  options.plan = "plan.json";
  auto run = shard("t.py::test_a\nt.py::test_slow\nt.py::test_b\nt.py::test_c\n\n4 tests\n", options, kBaseline,
                   std::chrono::milliseconds(2100), std::chrono::hours(1));
  REQUIRE(run.code == ExitCode::pass);
  CHECK(run.workflow.outputs.at("predicted-seconds") == "11.100");
  CHECK(run.files.at("plan.json").find("\"start_ms\":2100") != std::string::npos);
}

TEST_CASE("shard: a baseline named but missing stops the job, none named splits by count") {
  ShardOptions options;
  options.shards = 2;
  options.index = 1;
  options.out = "mine.txt";
  options.baseline = "gone.json";
  auto run = shard("t.py::a\nt.py::b\n\n2 tests\n", options);
  CHECK(run.code == ExitCode::could_not_evaluate);
  CHECK(run.failure ==
        "the baseline gone.json is missing: the shards of a leg must all split by the same durations, and the other "
        "shard jobs may have it (give --baseline only when the file is there; without it every shard splits by count)");
  CHECK(run.files.count("mine.txt") == 0);
  options.baseline.clear();
  run = shard("t.py::a\nt.py::b\n\n2 tests\n", options);
  CHECK(run.code == ExitCode::pass);
  CHECK(run.files.at("mine.txt") == "t.py::a\n");
}

TEST_CASE("shard: without --index every list is written into the folder") {
  ShardOptions options;
  options.shards = 3;
  options.out = "lists";
  auto run = shard("t.py::a\nt.py::b\n\n2 tests\n", options);
  REQUIRE(run.code == ExitCode::pass);
  CHECK(run.files.at("lists/shard-1.txt") == "t.py::a\n");
  CHECK(run.files.at("lists/shard-2.txt") == "t.py::b\n");
  CHECK(run.files.at("lists/shard-3.txt").empty());
  REQUIRE(run.workflow.annotations.size() == 1);
  CHECK(run.workflow.annotations[0].message == "no baseline with recorded durations: the shards are balanced by test count");
}

TEST_CASE("shard: node ids pytest would read as an option or an argument file are refused") {
  ShardOptions options;
  options.shards = 2;
  options.index = 1;
  options.out = "mine.txt";
  auto run = shard("-x.py::test_a\n@evil.py::test_b\nt.py::ok\n\n3 tests\n", options);
  CHECK(run.code == ExitCode::usage_error);
  CHECK(run.failure ==
        "cannot write 2 node ids to a pytest argument file safely (rename the tests):\n"
        "  -x.py::test_a: the node id starts with '-' and would read as an option\n"
        "  @evil.py::test_b: the node id starts with '@' and would read as a file of arguments (pytest 8.2+)");
  CHECK(run.files.count("mine.txt") == 0);
}

TEST_CASE("shard: --index beyond --shards is a usage error") {
  ShardOptions options;
  options.shards = 2;
  options.index = 3;
  options.out = "mine.txt";
  auto run = shard("t.py::a\n\n", options);
  CHECK(run.code == ExitCode::usage_error);
  CHECK(run.failure == "--index 3 is more than --shards 2");
}
