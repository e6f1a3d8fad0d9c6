#include <fstream>
#include <sstream>

#include "catch.hpp"
#include "gatekit/workflow.hpp"
#include "temp_dir.hpp"

using namespace gatekit;

namespace {
std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
}  // namespace

TEST_CASE("command data escapes percent, CR and LF only") {
  CHECK(escape_command_data("50% done\r\nnext: a,b") == "50%25 done%0D%0Anext: a,b");
}

TEST_CASE("command properties also escape colon and comma") {
  CHECK(escape_command_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A");
}

TEST_CASE("annotation command carries file, line, column and title") {
  Annotation a{Severity::error, "bad\npattern", "path-gate: rule", "gate.yml", 12, 5};
  CHECK(format_annotation_command(a) ==
        "::error file=gate.yml,line=12,col=5,title=path-gate%3A rule::bad%0Apattern");
  CHECK(format_annotation_command({Severity::notice, "hi", "", "", 0, 0}) == "::notice::hi");
}

TEST_CASE("single-line outputs use name=value, multi-line ones a heredoc") {
  CHECK(format_output_entry("cpu", "true", "D") == "cpu=true\n");
  CHECK(format_output_entry("trace", "a\nb", "D") == "trace<<D\na\nb\nD\n");
  CHECK(format_output_entry("trace", "a\n", "D") == "trace<<D\na\nD\n");
}

TEST_CASE("output delimiter never occurs in the value") {
  for (int i = 0; i < 50; ++i) {
    auto d = make_output_delimiter("x");
    CHECK(d.rfind("ghadelimiter_", 0) == 0);
    CHECK(std::string("x").find(d) == std::string::npos);
    std::string value = "line\n" + d + "\nmore";
    CHECK(value.find(make_output_delimiter(value)) == std::string::npos);
  }
}

TEST_CASE("actions mode writes GITHUB_OUTPUT, the summary and workflow commands") {
  testing::TempDir tmp;
  MapEnvironment env({{"GITHUB_ACTIONS", "true"},
                      {"GITHUB_OUTPUT", (tmp / "out").string()},
                      {"GITHUB_STEP_SUMMARY", (tmp / "sum").string()}});
  std::ostringstream log;
  auto wf = make_workflow(env, log);
  wf->mask("s3cret");
  wf->set_output("cpu", "true");
  wf->set_output("trace", "one\ntwo");
  wf->append_summary("| a |\n");
  wf->begin_group("Listing files");
  wf->log("token is s3cret");
  wf->end_group();
  wf->annotate({Severity::warning, "could not list files", "", "", 0, 0});

  CHECK(log.str() ==
        "::add-mask::s3cret\n::group::Listing files\ntoken is ***\n::endgroup::\n"
        "::warning::could not list files\n");
  auto out = slurp(tmp / "out");
  CHECK(out.rfind("cpu=true\ntrace<<ghadelimiter_", 0) == 0);
  CHECK(out.find("\none\ntwo\nghadelimiter_") != std::string::npos);
  CHECK(slurp(tmp / "sum") == "| a |\n");
  CHECK(wf->write_errors().empty());
}

TEST_CASE("terminal mode prints readable text and no workflow commands") {
  MapEnvironment env;
  std::ostringstream log;
  auto wf = make_workflow(env, log);
  wf->mask("tok");
  wf->set_output("gpu", "false");
  wf->annotate({Severity::error, "bad tok", "rule", "f.yml", 3, 0});
  wf->begin_group("Step");
  wf->end_group();
  CHECK(log.str() == "output gpu = false\nerror: f.yml:3: rule: bad ***\n── Step\n");
}

TEST_CASE("an unwritable GITHUB_OUTPUT is recorded, not ignored") {
  MapEnvironment env;
  env.set("GITHUB_OUTPUT", "/nonexistent-dir/out");
  std::ostringstream log;
  auto wf = make_workflow(env, log);
  wf->set_output("x", "1");
  REQUIRE(wf->write_errors().size() == 1);
  CHECK(wf->write_errors()[0] == "cannot write /nonexistent-dir/out");
}

TEST_CASE("the recording fake keeps everything for assertions") {
  RecordingWorkflow wf;
  wf.set_output("a", "1");
  wf.append_summary("x");
  wf.append_summary("y");
  wf.annotate({Severity::notice, "n", "", "", 0, 0});
  CHECK(wf.outputs.at("a") == "1");
  CHECK(wf.summary == "xy");
  CHECK(wf.annotations.size() == 1);
}

TEST_CASE("paused commands wrap foreign output in stop-commands with a fresh token") {
  MapEnvironment env({{"GITHUB_ACTIONS", "true"}});
  std::ostringstream log;
  auto wf = make_workflow(env, log);
  wf->pause_commands();
  wf->pause_commands();  // not nested: one token
  log << "::error::from a smoke\n";
  wf->resume_commands();
  wf->resume_commands();
  const auto lines = log.str();
  const auto first_end = lines.find('\n');
  const auto start = lines.substr(0, first_end);
  REQUIRE(start.rfind("::stop-commands::ghadelimiter_", 0) == 0);
  const auto token = start.substr(std::string("::stop-commands::").size());
  CHECK(lines == start + "\n::error::from a smoke\n::" + token + "::\n");

  std::ostringstream terminal;
  MapEnvironment plain;
  auto twf = make_workflow(plain, terminal);
  twf->pause_commands();
  twf->resume_commands();
  CHECK(terminal.str().empty());
}
