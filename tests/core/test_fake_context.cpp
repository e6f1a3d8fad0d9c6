// FakeSeams (gatekit/fake_context.hpp): the Context it hands out is wired to its own fakes,
// and a process nobody expected fails loudly instead of passing silently.
#include <chrono>

#include "catch.hpp"
#include "gatekit/fake_context.hpp"
#include "gatekit/git.hpp"

using namespace gatekit;
using namespace std::chrono_literals;

TEST_CASE("fake context: every seam of the Context is the fake the test inspects") {
  FakeSeams seams;
  seams.env.set("GATEKIT_PROBE", "set");
  seams.run.repository = "o/r";
  seams.files.files["in.txt"] = "input";
  seams.in.str("from stdin");
  auto context = seams.context();

  CHECK(context.env.get("GATEKIT_PROBE") == "set");
  CHECK(&context.run == &seams.run);
  CHECK(context.run.repository == "o/r");
  CHECK(*context.files.read("in.txt") == "input");
  REQUIRE(context.files.create("out.txt", "output").ok());
  CHECK(seams.files.files.at("out.txt") == "output");

  const auto start = context.clock.now();
  context.clock.sleep_for(90s);  // no real wait
  CHECK(context.clock.now() - start == 90s);
  CHECK(seams.clock.total_slept() == 90s);

  context.workflow.set_output("result", "pass");
  context.workflow.log("one line");
  CHECK(seams.workflow.outputs.at("result") == "pass");
  CHECK(seams.workflow.lines == std::vector<std::string>{"one line"});

  std::string word;
  context.in >> word;
  CHECK(word == "from");
  context.out << "printed";
  CHECK(seams.out.str() == "printed");
  CHECK_FALSE(context.make_transport);  // no HTTP unless a test provides it

  context.err << "warned";
  CHECK(seams.err.str() == "warned");
  CHECK(context.gpus.detect(context.env)->count == 0);  // no GPU unless a test gives some
  seams.gpus.set_devices({"NVIDIA H100"});
  CHECK(context.gpus.detect(context.env)->devices.at(0).name == "NVIDIA H100");
  CHECK(context.env.host_name() == "test-host");
}

TEST_CASE("real-files seams: real files and processes, so git runs in a temporary repository, on the test's clock") {
  RealFilesSeams seams{FakeClock::time_point(std::chrono::seconds(1'800'000'000))};
  auto context = seams.context();
  auto folder = context.files.make_temp_folder("gatekit-real-seams-");
  REQUIRE(folder.ok());
  const Git git(context.processes, folder->path());
  REQUIRE(context.processes.run(ProcessSpec{.argv = {"git", "init", "-q", folder->path().string()}}).ok());
  REQUIRE(context.files.create(*folder / "a.txt", "a").ok());
  REQUIRE(context.processes.run(ProcessSpec{.argv = {"git", "-C", folder->path().string(), "add", "a.txt"}}).ok());
  auto listed = git.list_files("a.txt");
  REQUIRE(listed.ok());
  CHECK(*listed == std::vector<std::string>{"a.txt"});
  CHECK(context.clock.now() == FakeClock::time_point(std::chrono::seconds(1'800'000'000)));
  context.workflow.log("recorded");
  CHECK(seams.workflow.lines == std::vector<std::string>{"recorded"});
}

TEST_CASE("fake context: a process nobody expected is an error naming it, and is recorded") {
  FakeSeams seams;
  auto context = seams.context();
  auto result = context.processes.run(ProcessSpec{.argv = {"git", "status"}});
  REQUIRE_FALSE(result.ok());
  CHECK(result.error().message == "no process expected in this test: git");
  CHECK(result.error().kind == ErrorKind::could_not_evaluate);
  REQUIRE(seams.processes.calls.size() == 1);
  CHECK(seams.processes.calls[0].argv == std::vector<std::string>{"git", "status"});
}

TEST_CASE("fake context: git runs through the process seam, answered by a test's handler") {
  FakeSeams seams;
  seams.processes = FakeProcessRunner([](const ProcessSpec& spec) -> Result<ProcessResult> {
    ProcessResult r;
    r.exit_code = 0;
    r.out = spec.argv.back() == "HEAD^{object}" ? "1111111111111111111111111111111111111111\n" : "";
    return r;
  });
  auto context = seams.context();
  Git git(context.processes, "/repo");
  auto head = git.rev_parse("HEAD");
  REQUIRE(head.ok());
  CHECK(*head == "1111111111111111111111111111111111111111");
  REQUIRE(seams.processes.calls.size() == 1);
  CHECK(seams.processes.calls[0].argv.front() == "git");
}
