// The whole gate (gate.cpp, listing.cpp) and --match-batch (match_batch.cpp) over the core's
// in-memory seams: rules, lists and payloads in MemoryFiles or the input stream, the GitHub API
// through a canned transport, outputs and annotations in the RecordingWorkflow.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "catch.hpp"
#include "gatekit/fake_context.hpp"
#include "gatekit/github.hpp"
#include "gatekit/text.hpp"
#include "path-classifier.hpp"

using namespace gatekit;
using namespace gatekit::path_classifier;

namespace {

const char* kRules = R"(filters:
  cpu:
    mode: deny
    paths: ['.github/**', '!.github/scripts/**']
    always: [.github/workflows/cpu-tests.yml]
  gpu:
    paths: ['src/kernels/**', '!**.md']
)";

// Answers GET /repos/o/r/pulls/1 and its /files from canned bodies; everything else 404.
class CannedTransport final : public github::HttpTransport {
 public:
  std::string pull_body;
  std::vector<std::string> pages;
  int fail_status = 0;  // answer every request with this status when set
  std::variant<github::HttpResponse, github::TransportError> send(const github::HttpRequest& request) override {
    github::HttpResponse r;
    r.headers.push_back({"content-type", "application/json; charset=utf-8"});
    if (fail_status != 0) {
      r.status = fail_status;
      r.body = R"({"message":"boom"})";
      return r;
    }
    if (request.url.find("/pulls/1/files") != std::string::npos) {
      std::size_t page = 1;
      if (auto p = request.url.find("&page="); p != std::string::npos) page = std::stoul(request.url.substr(p + 6));
      r.status = 200;
      r.body = pages.at(page - 1);
      if (page < pages.size())
        r.headers.push_back({"link", "<https://api.github.com/repos/o/r/pulls/1/files?per_page=100&page=" +
                                         std::to_string(page + 1) + ">; rel=\"next\""});
      return r;
    }
    r.status = request.url.find("/pulls/1") != std::string::npos ? 200 : 404;
    r.body = r.status == 200 ? pull_body : R"({"message":"Not Found"})";
    return r;
  }
};

// A new connection each time, all answered by one canned transport the test owns.
TransportFactory forward_to(CannedTransport& canned) {
  struct Forward final : github::HttpTransport {
    explicit Forward(CannedTransport& t) : target(t) {}
    std::variant<github::HttpResponse, github::TransportError> send(const github::HttpRequest& r) override {
      return target.send(r);
    }
    CannedTransport& target;
  };
  return [&canned] { return std::make_unique<Forward>(canned); };
}

// A pull_request run: event payload at /event.json (when given), token, repository.
void pull_request_run(FakeSeams& seams, const std::string& payload) {
  seams.run.event_name = "pull_request";
  seams.run.event_path = "/event.json";
  seams.run.repository = "o/r";
  seams.env.set("GITHUB_TOKEN", "tok");
  if (!payload.empty()) seams.files.files["/event.json"] = payload;
}

Options with_rules(const std::string& rules_text) {
  Options o;
  o.rules_text = rules_text;
  return o;
}

// The error a command stopped with (FAIL when it did not).
Error failure_of(const Options& o, FakeSeams& seams) {
  auto context = seams.context();
  try {
    (void)run_gate(o, context);
  } catch (const Failure& f) {
    return f.error();
  }
  FAIL("the command did not stop with an error");
  return {};
}

}  // namespace

TEST_CASE("gate: a pull request listed through the API, renames included") {
  FakeSeams seams;
  pull_request_run(seams, R"({"pull_request":{"number":1,"base":{"sha":"b"},"head":{"sha":"h"}}})");
  CannedTransport t;
  t.pull_body = R"({"number":1,"state":"open","changed_files":2,"head":{"sha":"h","ref":"f"},"base":{"sha":"b","ref":"main"}})";
  t.pages = {R"([{"filename":".github/ci.yml","status":"modified"}])",
             R"([{"filename":"docs/k.cu","status":"renamed","previous_filename":"src/kernels/k.cu"}])"};
  seams.make_transport = forward_to(t);
  auto context = seams.context();
  CHECK(run_gate(with_rules(kRules), context) == ExitCode::pass);
  CHECK(seams.workflow.outputs["gpu"] == "true");
  CHECK(seams.workflow.outputs["cpu"] == "true");
  for (const auto& a : seams.workflow.annotations) UNSCOPED_INFO(a.message);
  CHECK(seams.workflow.annotations.empty());
  CHECK(seams.workflow.masked == std::vector<std::string>{"tok"});
  CHECK(seams.workflow.summary.find("| `gpu` | allow | ✅ runs | `src/kernels/k.cu` → `docs/k.cu` |") !=
        std::string::npos);
}

TEST_CASE("gate: an API error fails open with a warning naming the cause") {
  FakeSeams seams;
  pull_request_run(seams, R"({"pull_request":{"number":1}})");
  CannedTransport t;
  t.fail_status = 404;
  seams.make_transport = forward_to(t);
  auto context = seams.context();
  CHECK(run_gate(with_rules(kRules), context) == ExitCode::pass);
  CHECK(seams.workflow.outputs["cpu"] == "true");
  CHECK(seams.workflow.outputs["gpu"] == "true");
  REQUIRE(seams.workflow.annotations.size() == 1);
  CHECK(seams.workflow.annotations[0].severity == Severity::warning);
  CHECK(seams.workflow.annotations[0].message.rfind("fail-open: the GitHub API failed: GET ", 0) == 0);
}

TEST_CASE("gate: an unreadable event payload fails open, naming the file and the reason") {
  FakeSeams seams;
  pull_request_run(seams, "");  // GITHUB_EVENT_PATH names a file that is not there
  auto context = seams.context();
  CHECK(run_gate(with_rules(kRules), context) == ExitCode::pass);
  CHECK(seams.workflow.outputs["cpu"] == "true");
  CHECK(seams.workflow.outputs["gpu"] == "true");
  REQUIRE(seams.workflow.annotations.size() == 1);
  CHECK(seams.workflow.annotations[0].message ==
        "fail-open: the pull_request event payload cannot be read: cannot read /event.json: No such file or "
        "directory; every filter is relevant");
}

TEST_CASE("gate: --files reads the list from a file or from stdin") {
  struct Row {
    std::string files;       // --files
    std::string list;        // the list, in /list.txt or on stdin
    std::string cpu, gpu;    // expected outputs
    std::string changes;
  };
  const std::vector<Row> rows = {
      {"/list.txt", ".github/workflows/lint.yml\n", "false", "false", "[]"},
      {"/list.txt", "src/kernels/a.cu\n", "true", "true", R"(["cpu","gpu"])"},
      {"-", "src/kernels/a.cu\0.github/ci.yml\0", "true", "true", R"(["cpu","gpu"])"},
      {"-", ".github/scripts/x.sh\n", "true", "false", R"(["cpu"])"},
  };
  for (const auto& row : rows) {
    INFO(row.files << ": " << row.list);
    FakeSeams seams;
    if (row.files == "-") seams.in.str(row.list);
    else seams.files.files[row.files] = row.list;
    auto o = with_rules(kRules);
    o.files = row.files;
    auto context = seams.context();
    CHECK(run_gate(o, context) == ExitCode::pass);
    CHECK(seams.workflow.outputs["cpu"] == row.cpu);
    CHECK(seams.workflow.outputs["gpu"] == row.gpu);
    CHECK(seams.workflow.outputs["changes"] == row.changes);
    CHECK(seams.workflow.annotations.empty());
  }
}

TEST_CASE("gate: an empty list on stdin fails open") {
  FakeSeams seams;
  auto o = with_rules(kRules);
  o.files = "-";
  auto context = seams.context();
  CHECK(run_gate(o, context) == ExitCode::pass);
  CHECK(seams.workflow.outputs["cpu"] == "true");
  CHECK(seams.workflow.outputs["gpu"] == "true");
  REQUIRE(seams.workflow.annotations.size() == 1);
  CHECK(seams.workflow.annotations[0].message.rfind("fail-open: ", 0) == 0);
}

TEST_CASE("gate: bad rules, lists and calls stop with a bad_input error naming the problem") {
  struct Row {
    const char* name;
    Options options;
    std::string message;
  };
  auto rules_file = [] {
    Options o;
    o.rules_file = "/rules.yml";
    o.files = "/list.txt";
    return o;
  };
  auto list_missing = with_rules(kRules);
  list_missing.files = "/absent.txt";
  auto local = with_rules(kRules);
  const std::vector<Row> rows = {
      {"invalid rules", with_rules("filters:\n  x: ['[']\n"),
       "1 error in filters input:\nfilters input:2:8: filters.x[0]: invalid pattern '[': '[' is not closed by ']' "
       "(hint: write '\\[' for a literal '[')"},
      {"no rules", Options{}, "no rules: give --rules FILE or --rules-text YAML"},
      {"unreadable rules file", rules_file(), "cannot read /rules.yml: No such file or directory"},
      {"unreadable --files list", list_missing, "cannot read /absent.txt: No such file or directory"},
      {"nothing to compare", local,
       "nothing to compare: give --base REV (and --head REV), --files FILE, or run in GitHub Actions"},
  };
  for (const auto& row : rows) {
    INFO(row.name);
    FakeSeams seams;
    auto error = failure_of(row.options, seams);
    CHECK(error.kind == ErrorKind::bad_input);
    CHECK(error.message == row.message);
    CHECK(seams.workflow.outputs.empty());
  }
}

TEST_CASE("gate: a rules file is read through the files seam and its warnings point into it") {
  FakeSeams seams;
  seams.files.files["/rules.yml"] = "filters:\n  web: ['*.{js,ts}']\n";  // braces are literal in github's dialect
  seams.files.files["/list.txt"] = "src/a.cu\n";
  Options o;
  o.rules_file = "/rules.yml";
  o.files = "/list.txt";
  auto context = seams.context();
  CHECK(run_gate(o, context) == ExitCode::pass);
  REQUIRE_FALSE(seams.workflow.annotations.empty());
  CHECK(seams.workflow.annotations[0].file == "/rules.yml");
  CHECK(seams.workflow.annotations[0].line == 2);
  CHECK(seams.workflow.annotations[0].column == 12);
  CHECK(seams.workflow.summary.find("- /rules.yml:2:12: filters.web\\[0\\]: ") != std::string::npos);
}

TEST_CASE("gate: --explain on a guarded file says self-protect decides, or that the rules turned it off") {
  struct Row {
    const char* name;
    std::string rules;
    std::string env_ref;  // the run's workflow ref (GITHUB_WORKFLOW_REF)
    std::string path;
    std::string says;     // the line after the heading
    std::string cpu;      // cpu's conclusion
  };
  const std::string protect = "`.github/path-gate.yml` is the gate's rules file: a change to it makes every filter "
                              "relevant (self-protect), whatever the patterns below say";
  const std::vector<Row> rows = {
      {"the rules file", kRules, "", ".github/path-gate.yml", protect,
       "  => self-protect: this path alone makes cpu relevant (the patterns are not consulted)"},
      {"the rules file, written ./", kRules, "", "./.github/path-gate.yml", protect,
       "  => self-protect: this path alone makes cpu relevant (the patterns are not consulted)"},
      {"the running workflow", kRules, "octo/app/.github/workflows/gpu.yml@refs/pull/7/merge",
       ".github/workflows/gpu.yml",
       "`.github/workflows/gpu.yml` is the workflow running the gate: a change to it makes every filter relevant "
       "(self-protect), whatever the patterns below say",
       "  => self-protect: this path alone makes cpu relevant (the patterns are not consulted)"},
      {"self-protect: false", std::string("self-protect: false\n") + kRules, "", ".github/path-gate.yml",
       "`.github/path-gate.yml` is the gate's rules file, but the rules say `self-protect: false`: the patterns "
       "below decide, as for any other path",
       "  => denied by #1 `.github/**`: this path alone does not make cpu relevant"},
  };
  for (const auto& row : rows) {
    INFO(row.name);
    FakeSeams seams;
    seams.files.files["/repo/.github/path-gate.yml"] = row.rules;
    seams.run.workflow_ref = row.env_ref;
    Options o;
    o.rules_file = "/repo/.github/path-gate.yml";
    o.repo_dir = "/repo";
    o.explain = row.path;
    auto context = seams.context();
    CHECK(run_gate(o, context) == ExitCode::pass);
    const auto lines = split_lines(seams.out.str());
    REQUIRE(lines.size() > 3);
    CHECK(lines[1] == row.says);
    CHECK(lines[3] == "cpu (deny list)");
    const auto verdict =
        std::find_if(lines.begin(), lines.end(), [](const std::string& l) { return l.rfind("  => ", 0) == 0; });
    REQUIRE(verdict != lines.end());
    CHECK(*verdict == row.cpu);
    CHECK(seams.workflow.outputs.empty());
  }
}

TEST_CASE("gate: list-files writes every list to a file in RUNNER_TEMP, named by its content") {
  auto run = [](FakeSeams& seams, const std::string& list) {
    seams.env.set("RUNNER_TEMP", "/tmp/runner");
    seams.files.files["/list.txt"] = list;
    auto o = with_rules(kRules);
    o.files = "/list.txt";
    o.list_files = "json";
    auto context = seams.context();
    CHECK(run_gate(o, context) == ExitCode::pass);
    return seams.workflow.outputs["list-files-path"];
  };
  FakeSeams first, again, other;
  const auto path = run(first, "src/kernels/a.cu\n");
  CHECK(path.rfind("/tmp/runner/path-gate-files-", 0) == 0);
  CHECK(path.size() == std::string("/tmp/runner/path-gate-files-").size() + 16 + 5);
  REQUIRE(first.files.files.count(path) == 1);
  CHECK(first.files.files[path] == R"({"cpu":["src/kernels/a.cu"],"gpu":["src/kernels/a.cu"]})");
  CHECK(first.workflow.outputs["gpu_files"] == R"(["src/kernels/a.cu"])");
  CHECK(run(again, "src/kernels/a.cu\n") == path);
  CHECK(run(other, "src/kernels/b.cu\n") != path);
}

TEST_CASE("match-batch: records from the input stream, answers on the output stream") {
  struct Row {
    std::string dialect;
    std::string input;
    std::string output;
  };
  const std::vector<Row> rows = {
      {"", "src/**\tsrc/a/b.c\nsrc/*\tsrc/a/b.c\nno tab here\n", "1\n0\nE no tab\n"},
      {"github", "[\tx\n", "E '[' is not closed by ']'\n"},
      {"picomatch", std::string("*.md\tREADME.md\0*.md\tdocs/x.md\0", 30), "1\n0\n"},
  };
  for (const auto& row : rows) {
    INFO(row.input);
    FakeSeams seams;
    seams.in.str(row.input);
    Options o;
    o.dialect = row.dialect;
    o.match_batch = true;
    auto context = seams.context();
    CHECK(run_match_batch(o, context) == ExitCode::pass);
    CHECK(seams.out.str() == row.output);
  }
}

TEST_CASE("match-batch with rules: the filters a one-file pull request makes relevant, per path") {
  FakeSeams seams;
  // cpu is a deny list with an `always`; gpu an allow list; README.md is excluded by gpu's '!**.md'.
  seams.in.str("src/kernels/a.cu\n.github/ci.yml\n.github/workflows/cpu-tests.yml\nsrc/kernels/README.md\n./src/kernels/b.cu\n");
  Options o;
  o.rules_text = kRules;
  o.match_batch = true;
  auto context = seams.context();
  CHECK(run_match_batch(o, context) == ExitCode::pass);
  CHECK(seams.out.str() == "cpu=1 gpu=1\ncpu=0 gpu=0\ncpu=1 gpu=0\ncpu=1 gpu=0\ncpu=1 gpu=1\n");

  FakeSeams nul;
  const char records[] = "src/kernels/a\nb.cu\0docs/x.md\0";
  nul.in.str(std::string(records, sizeof records - 1));
  auto nul_context = nul.context();
  CHECK(run_match_batch(o, nul_context) == ExitCode::pass);
  CHECK(nul.out.str() == "cpu=1 gpu=1\ncpu=1 gpu=0\n");

  FakeSeams bad;
  Options invalid;
  invalid.rules_text = "filters: [1]\n";
  invalid.match_batch = true;
  auto bad_context = bad.context();
  CHECK_THROWS_AS(run_match_batch(invalid, bad_context), Failure);
}
