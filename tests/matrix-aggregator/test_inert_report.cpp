// Outside text in the aggregator's reports: job names and outputs from `needs`, leg names and
// URLs from the jobs API reach the summary as code spans, escaped prose or a safe link, and
// the log and annotations through the Workflow (tested with the real StreamWorkflow here).
#include <sstream>

#include "../../fuzz/runner_commands.hpp"
#include "aggregate_fakes.hpp"
#include "catch.hpp"
#include "gatekit/text.hpp"
#include "report.hpp"

using namespace gatekit;
using namespace gatekit::matrix_aggregator;
using gatekit::testing::aggregate;
using gatekit::testing::JobsApi;
using gatekit::testing::serve_legs;

namespace {

const char* kHostileNeeds =
    R"J({"changes":{"result":"success","outputs":{"cpu":"true"}},)J"
    R"J("tests":{"result":"failure","outputs":{}},)J"
    R"J("lint\n::error::pwned":{"result":"failure","outputs":{}}})J";

}  // namespace

TEST_CASE("aggregator: hostile job names, outputs and legs keep the summary's shape") {
  FakeSeams seams;
  seams.env.set("GATEKIT_NEEDS", kHostileNeeds);
  JobsApi api;
  api.legs = {{"pytest [x](javascript:alert(1)) <b>|", "completed", "failure", "javascript:alert(1)"},
              {"ok (a)", "completed", "success", "https://github.com/o/r/actions/runs/1/job/2 )x"}};
  serve_legs(seams, api);
  Options options;
  options.gate = "changes";
  options.gated = {"tests=cpu"};
  options.legs = true;
  options.title = "CPU tests";
  CHECK(aggregate(options, seams).code == ExitCode::verdict_fail);
  std::vector<std::string> rows;
  for (const auto& line : split_lines(seams.workflow.summary))
    if (line.rfind("| ", 0) == 0 && line.rfind("| Job", 0) != 0 && line.rfind("| Leg", 0) != 0 &&
        line.rfind("| ---", 0) != 0)
      rows.push_back(line);
  CHECK(rows == std::vector<std::string>{
                    "| `changes` | gate | success |  | ✅ pass | passed |",
                    "| `tests` | gated by changes.outputs.cpu | failure | `cpu=true` | ❌ fail | did not pass (failure) |",
                    "| `lint\\n::error::pwned` | job | failure |  | ❌ fail | did not pass (failure) |",
                    "| pytest \\[x\\](javascript:alert(1)) \\<b>\\| | ❌ failure |",
                    "| [ok (a)](https://github.com/o/r/actions/runs/1/job/2%20%29x) | ✅ success |",
                });
}

TEST_CASE("aggregator: under Actions the log and annotations carry job names inert") {
  FakeSeams seams;
  seams.env.set("GITHUB_ACTIONS", "true");
  seams.env.set("GATEKIT_NEEDS", kHostileNeeds);
  std::ostringstream out;
  auto wf = make_workflow(seams.env, out, seams.files);  // the real protocol writer
  Options options;
  options.gate = "changes";
  options.gated = {"tests=cpu"};
  options.title = "CPU tests";
  auto context = seams.context();
  CHECK(aggregate(options, Context{context.env, context.run, context.clock, context.files, context.processes,
                                   context.make_transport, *wf, context.in, context.out, context.gpus, context.err})
            .code == ExitCode::verdict_fail);
  std::vector<std::string> names;
  for (const auto& c : gatekit::fuzzing::runner_commands(out.str())) names.push_back(c.name + ": " + c.data);
  CHECK(names == std::vector<std::string>{
                     "group: needed jobs (3)",
                     "endgroup: ",
                     "error: tests: did not pass (failure)",
                     "error: lint\n::error::pwned: did not pass (failure)",
                 });
}

TEST_CASE("aggregator: a hostile gate output in the could-not-evaluate summary is escaped prose") {
  FakeSeams seams;
  seams.env.set("GATEKIT_NEEDS", R"J({"changes":{"result":"success","outputs":{"cpu":"<b>|x\n```mermaid"}},)J"
                                 R"J("tests":{"result":"failure","outputs":{}}})J");
  Options options;
  options.gate = "changes";
  options.gated = {"tests=cpu"};
  options.title = "CPU tests";
  CHECK(aggregate(options, seams).code == ExitCode::could_not_evaluate);
  CHECK(seams.workflow.summary ==
        "## ⚠️ CPU tests: could not evaluate\n\n"
        "gate job 'changes' output 'cpu' is '\\<b>|x\\\\n\\`\\`\\`mermaid', expected 'true' or 'false'\n\n"
        "This is not a pass: fix the input and re-run the job.\n");
}
