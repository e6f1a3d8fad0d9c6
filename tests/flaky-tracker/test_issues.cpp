// The issues subcommand: its default kind of run, from the workflow event (no --kind given), and
// its journal on a disk that fills up.
#include <string>

#include "catch.hpp"
#include "flaky-tracker.hpp"
#include "gatekit/fake_context.hpp"
#include "gatekit/github.hpp"

using namespace gatekit::flaky_tracker;

TEST_CASE("issues: the kind of run follows the workflow event when --kind is not given") {
  struct Row {
    const char* event;
    RunKind kind;
  };
  const Row rows[] = {
      {"pull_request", RunKind::pr},  {"pull_request_target", RunKind::pr}, {"merge_group", RunKind::pr},
      {"schedule", RunKind::daily},   {"push", RunKind::main},              {"workflow_dispatch", RunKind::main},
      {"", RunKind::main},            {"Schedule", RunKind::main},          {"pull_request_review", RunKind::main},
  };
  for (const auto& row : rows) {
    INFO(row.event);
    CHECK(run_kind_of_event(row.event) == row.kind);
  }
}

namespace {

using namespace gatekit;

// GitHub refusing the token (401) to every request: nothing is recorded, all is journalled.
class Refusing final : public github::HttpTransport {
 public:
  std::variant<github::HttpResponse, github::TransportError> send(const github::HttpRequest&) override {
    github::HttpResponse r;
    r.status = 401;
    r.headers = {{"content-type", "application/json"}};
    r.body = R"({"message": "Bad credentials"})";
    return r;
  }
};

std::string report_with_flakes(int from, int to) {
  std::string xml = "<testsuites><testsuite name='pytest'>";
  for (int i = from; i < to; ++i)
    xml += "<testcase classname='tests.test_a' name='test_" + std::to_string(i) +
           "'><flakyFailure message='AssertionError: boom'><stackTrace>" + std::string(3000, 'x') +
           "</stackTrace></flakyFailure></testcase>";
  return xml + "</testsuite></testsuites>";
}

}  // namespace

TEST_CASE("issues: a disk that fills up mid-write leaves the journal as it was, and says why") {
  FakeSeams seams;
  seams.run.repository = "o/r";
  seams.env.set("GITHUB_TOKEN", "t0ken");
  seams.make_transport = [] { return std::make_unique<Refusing>(); };
  IssuesOptions o;
  o.reports = {"/run/r1.xml"};
  o.kind = RunKind::pr;
  o.run_key = "r1";
  o.pending = "/state/pending.json";
  seams.files.files["/run/r1.xml"] = report_with_flakes(0, 5);
  {
    auto context = seams.context();
    REQUIRE(run_issues(o, context) == ExitCode::pass);
  }
  const std::string journal = seams.files.files.at("/state/pending.json");
  REQUIRE(journal.find("tests/test_a.py::test_4") != std::string::npos);

  // The next run has more to keep than the disk can take.
  seams.files.files["/run/r2.xml"] = report_with_flakes(5, 10);
  o.reports = {"/run/r2.xml"};
  o.run_key = "r2";
  seams.files.disk = "/state";
  seams.files.space_left = journal.size();
  try {
    auto context = seams.context();
    run_issues(o, context);
    FAIL("a journal that cannot be kept must not pass");
  } catch (const Failure& failure) {
    CHECK(failure.error().message == "cannot write /state/pending.json.tmp: No space left on device");
    CHECK(failure.error().kind == ErrorKind::could_not_evaluate);
  }
  CHECK(seams.files.files.at("/state/pending.json") == journal);  // whole: no flake of r1 is lost
  CHECK(seams.files.files.count("/state/pending.json.tmp") == 0);
}

TEST_CASE("issues: an unreadable journal that cannot be set aside stops the run before anything is written") {
  FakeSeams seams;
  seams.run.repository = "o/r";
  seams.env.set("GITHUB_TOKEN", "t0ken");
  int requests = 0;
  seams.make_transport = [&requests] {
    ++requests;
    return std::make_unique<Refusing>();
  };
  IssuesOptions o;
  o.reports = {"/run/r1.xml"};
  o.kind = RunKind::pr;
  o.run_key = "r1";
  o.pending = "/state/pending.json";
  seams.files.files["/run/r1.xml"] = report_with_flakes(0, 1);
  seams.files.files["/state/pending.json"] = "{\"runs\": [{\"key\": \"r0\", \"fla";
  seams.files.disk = "/state";
  seams.files.write_failure = "Read-only file system";
  try {
    auto context = seams.context();
    run_issues(o, context);
    FAIL("a journal that can be neither read nor set aside must stop the run");
  } catch (const Failure& failure) {
    CHECK(failure.error().message ==
          "/state/pending.json: line 1, column 29: not JSON (incomplete JSON); it could not be set aside (cannot "
          "rename /state/pending.json to /state/pending.json.bad: Read-only file system), so nothing was applied or "
          "written: move it away by hand");
    CHECK(failure.error().kind == ErrorKind::could_not_evaluate);
  }
  CHECK(seams.files.files.at("/state/pending.json") == "{\"runs\": [{\"key\": \"r0\", \"fla");
  CHECK(requests == 0);  // no API call
}
