// The aggregate command (aggregate.cpp) over FakeSeams: where `needs` comes from, and what a
// run without a verdict leaves behind (outputs, summary, the error the frame reports).
#include <string>
#include <vector>

#include "aggregate_fakes.hpp"
#include "catch.hpp"
#include "needs.hpp"

using namespace gatekit;
using namespace gatekit::matrix_aggregator;
using gatekit::testing::aggregate;
using gatekit::testing::run_framed;

namespace {

const char* kPassed = R"J({"changes":{"result":"success","outputs":{"cpu":"false"}},"tests":{"result":"skipped"}})J";

Options gated(std::string needs_file = "") {
  Options o;
  o.needs_file = std::move(needs_file);
  o.gate = "changes";
  o.gated = {"tests=cpu"};
  return o;
}

}  // namespace

TEST_CASE("aggregate: needs from the environment, a file or stdin") {
  struct Row {
    const char* name;
    Options options;
    std::string env, file, in;  // where the needs text is put
  };
  const std::vector<Row> rows = {
      {"environment", gated(), kPassed, "", ""},
      {"file", gated("/needs.json"), "", kPassed, ""},
      {"stdin", gated("-"), "", "", kPassed},
  };
  for (const auto& row : rows) {
    INFO(row.name);
    FakeSeams seams;
    if (!row.env.empty()) seams.env.set("GATEKIT_NEEDS", row.env);
    if (!row.file.empty()) seams.files.files["/needs.json"] = row.file;
    seams.in.str(row.in);
    auto ran = aggregate(row.options, seams);
    CHECK_FALSE(ran.error);
    CHECK(ran.code == ExitCode::pass);
    CHECK(seams.workflow.outputs.at("result") == "success");
  }
}

TEST_CASE("aggregate: without a verdict the outputs say error and the frame gets the Error") {
  struct Row {
    const char* name;
    Options options;
    std::string stdin_text;
    ErrorKind kind;
    std::string message;
    std::string headline;
  };
  auto bad_gated = gated();
  bad_gated.gated = {"tests"};
  const std::vector<Row> rows = {
      {"needs file missing", gated("/absent.json"), "", ErrorKind::could_not_evaluate,
       "needs: cannot read /absent.json: No such file or directory", ": could not evaluate"},
      {"needs not set", gated(), "", ErrorKind::could_not_evaluate,
       "needs: environment variable GATEKIT_NEEDS is not set; pass ${{ toJSON(needs) }} through env: (or use "
       "--needs-file)",
       ": could not evaluate"},
      {"stdin over the limit", gated("-"), std::string(kMaxNeedsBytes + 1, ' '), ErrorKind::could_not_evaluate,
       "needs: cannot read stdin: larger than the limit of " + std::to_string(kMaxNeedsBytes) + " bytes",
       ": could not evaluate"},
      {"bad option", bad_gated, "", ErrorKind::bad_input, "--gated: 'tests' is not JOB=OUTPUT (e.g. tests=cpu)",
       ": invalid options"},
  };
  for (const auto& row : rows) {
    INFO(row.name);
    FakeSeams seams;
    seams.in.str(row.stdin_text);
    auto ran = aggregate(row.options, seams);
    REQUIRE(ran.error);
    CHECK(ran.error->kind == row.kind);
    CHECK(ran.error->message == row.message);
    CHECK(ran.code == exit_code_of(row.kind));
    CHECK(seams.workflow.outputs.at("result") == "error");
    CHECK(seams.workflow.outputs.at("reasons") == "{}");
    CHECK(seams.workflow.outputs.at("error") == row.message);
    CHECK(seams.workflow.summary.rfind("## ⚠️ Aggregated result" + row.headline + "\n\n", 0) == 0);
    // "Could not evaluate" is also an error annotation on the job, the one trace of it that the
    // API shows afterwards (ci-report counts required checks that could not evaluate by it);
    // a rejected option is the workflow's own mistake and stays in the summary.
    if (row.kind == ErrorKind::could_not_evaluate) {
      REQUIRE(seams.workflow.annotations.size() == 1);
      CHECK(seams.workflow.annotations[0].severity == Severity::error);
      CHECK(seams.workflow.annotations[0].message == "could not evaluate: " + row.message);
      CHECK(seams.workflow.annotations[0].title == "Aggregated result");
    } else {
      CHECK(seams.workflow.annotations.empty());
    }
  }
}

TEST_CASE("aggregate: a rejected command line leaves the outputs of a run without a verdict") {
  FakeSeams seams;
  Options o;
  o.title = "CPU tests";
  // Through the frame: the option is rejected before any run.
  auto ran = run_framed(o, seams.context(), {"matrix-aggregator", "--allowed-skip"}, [](gatekit::CliCommand&) {});
  CHECK(ran.code == ExitCode::usage_error);
  REQUIRE(ran.error);
  CHECK(ran.error->kind == ErrorKind::bad_input);
  CHECK(seams.workflow.outputs.at("result") == "error");
  CHECK(seams.workflow.outputs.at("reasons") == "{}");
  CHECK(seams.workflow.outputs.at("error") == "The following argument was not expected: --allowed-skip");
  CHECK(seams.workflow.summary ==
        "## ⚠️ CPU tests: invalid options\n\nThe following argument was not expected: --allowed-skip\n\n"
        "This is not a pass: fix the input and re-run the job.\n");
}
