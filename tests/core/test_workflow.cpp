#include <fstream>
#include <sstream>

#include "catch.hpp"
#include "gatekit/files.hpp"
#include "gatekit/workflow.hpp"
#include "temp_dir.hpp"

using namespace gatekit;

namespace {
SystemFiles disk;  // the workflow's files are real files in these tests

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
  // The runner drops the line break before the delimiter: a trailing one must survive.
  CHECK(format_output_entry("trace", "a\n", "D") == "trace<<D\na\n\nD\n");
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
  auto wf = make_workflow(env, log, disk);
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
  auto wf = make_workflow(env, log, disk);
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
  auto wf = make_workflow(env, log, disk);
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
  auto wf = make_workflow(env, log, disk);
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
  auto twf = make_workflow(plain, terminal, disk);
  twf->pause_commands();
  twf->resume_commands();
  CHECK(terminal.str().empty());
}

TEST_CASE("inert_line: outside text stays one line and starts no workflow command") {
  struct Case {
    std::string text, line;
  };
  const std::vector<Case> cases{
      {"src/a.py", "src/a.py"},
      {"a\n::error::pwned", "a\\n::error::pwned"},
      {"b\r::stop-commands::x", "b\\r::stop-commands::x"},
      {"::error::x", "\\x3a:error::x"},
      {"  \t::warning file=a::b", "  \t\\x3a:warning file=a::b"},
      {"\xc2\xa0::error::nbsp", "\xc2\xa0\\x3a:error::nbsp"},            // the runner trims Unicode spaces
      {"\xe2\x80\x8b::error::zwsp", "\xe2\x80\x8b\\x3a:error::zwsp"},    // and may skip zero-width ones
      {"\x01::error::ctl", "\\x01::error::ctl"},                         // a control becomes text first
      {"path/##[error]x.cu", "path/##\\x5berror]x.cu"},                  // the legacy form, anywhere
      {"#\xe2\x80\x8b#[warning]x", "#\xe2\x80\x8b#\\x5bwarning]x"},
      {"#\x01#[warning]x", "#\\x01#[warning]x"},
      {"# [not] ## a [command]", "# [not] ## a [command]"},
      {"src/pkg/module/deep/name##[", "src/pkg/module/deep/name##\\x5b"},  // plain text: `##[` at its end
      {"x\xc2\x85y\xe2\x80\xa8z\x7f", "x\\u0085y\\u2028z\\x7f"},
      {"tab\tkept", "tab\tkept"},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    CHECK(inert_line(c.text) == c.line);
  }
  CHECK(inert_lines("one\n::error::two\r\nthree") == "one\n\\x3a:error::two\nthree");
  CHECK(inert_lines("x\n") == "x\n");
}

TEST_CASE("annotations keep outside text inside their data and properties") {
  // `##[` in data could act should the runner fall back to the legacy parser.
  CHECK(format_annotation_command({Severity::error, "x ##[warning]y", "##[t]", "a##[b", 0, 0}) ==
        "::error file=a##\\x5bb,title=##\\x5bt]::x ##\\x5bwarning]y");
  // A combining mark right after `::` would hide the separator: data starting with a
  // non-ASCII character gets a space; a last property ending with one gets a trailing space.
  CHECK(format_annotation_command({Severity::warning, "\xcc\x81x", "t\xd8\x80", "", 0, 0}) ==
        "::warning title=t\xd8\x80 :: \xcc\x81x");
  CHECK(format_annotation_command({Severity::notice, "a\r\n::error::b", "t:1,2", "f", 4, 0}) ==
        "::notice file=f,line=4,title=t%3A1%2C2::a%0D%0A::error::b");
}

TEST_CASE("a masked secret is redacted from every sink") {
  testing::TempDir tmp;
  MapEnvironment env({{"GITHUB_ACTIONS", "true"},
                      {"GITHUB_OUTPUT", (tmp / "out").string()},
                      {"GITHUB_STEP_SUMMARY", (tmp / "sum").string()}});
  std::ostringstream log;
  auto wf = make_workflow(env, log, disk);
  wf->mask("tok3n\nline2");
  wf->annotate({Severity::error, "m tok3n", "t tok3n", "f/tok3n", 1, 0});
  wf->begin_group("g line2");
  wf->end_group();
  wf->log("l tok3n\nline2");
  wf->set_output("decision", "{\"why\":\"tok3n\"}");
  wf->append_summary("s line2\n");
  CHECK(log.str() ==
        "::add-mask::tok3n\n::add-mask::line2\n::error file=f/***,line=1,title=t ***::m ***\n::group::g ***\n"
        "::endgroup::\nl ***\n");
  CHECK(slurp(tmp / "out") == "decision={\"why\":\"***\"}\n");
  CHECK(slurp(tmp / "sum") == "s ***\n");
}

TEST_CASE("terminal mode prints outside text inert too") {
  MapEnvironment env;
  std::ostringstream log;
  auto wf = make_workflow(env, log, disk);
  wf->log("::error::x");
  wf->annotate({Severity::warning, "m\n::error::y", "", "a\nb", 2, 0});
  wf->begin_group("\n::warning::z");
  wf->set_output("v", "1\n::notice::w");
  CHECK(log.str() ==
        "\\x3a:error::x\nwarning: a\\nb:2: m\\n::error::y\n── \\n::warning::z\noutput v = 1\\n::notice::w\n");
}

TEST_CASE("an output name GITHUB_OUTPUT cannot carry is a write error, not a corrupt file") {
  testing::TempDir tmp;
  MapEnvironment env({{"GITHUB_OUTPUT", (tmp / "out").string()}});
  std::ostringstream log;
  auto wf = make_workflow(env, log, disk);
  wf->set_output("a=b", "1");
  wf->set_output("x\ny", "1");
  wf->set_output("ok-name_2", "1");
  REQUIRE(wf->write_errors().size() == 2);
  CHECK(wf->write_errors()[0] == "invalid output name 'a=b'");
  CHECK(wf->write_errors()[1] == "invalid output name 'x\\ny'");
  CHECK(slurp(tmp / "out") == "ok-name_2=1\n");
}

TEST_CASE("has_output: the outputs set, through either call, written or not") {
  MapEnvironment env({{"GITHUB_OUTPUT", "/nonexistent-dir/out"}});
  std::ostringstream log;
  auto wf = make_workflow(env, log, disk);
  CHECK_FALSE(wf->has_output("result"));
  wf->set_output("result", "pass");
  wf->set_outputs({{"count", "2"}});
  CHECK(wf->has_output("result"));
  CHECK(wf->has_output("count"));
  CHECK_FALSE(wf->has_output("posted"));
  CHECK(wf->write_errors().size() == 2);  // set all the same: the frame overwrites a verdict it cannot trust
}

TEST_CASE("set_outputs writes what set_output writes for each, in one append") {
  // The same outputs (a plain one, a multi-line one, a masked value, a name GITHUB_OUTPUT
  // cannot carry) through both calls: the same file, the same write errors.
  const std::vector<std::pair<std::string, std::string>> outputs{
      {"cpu", "true"}, {"trace", "one\ntwo"}, {"a=b", "1"}, {"token", "x-s3cret-y"}, {"empty", ""}};
  testing::TempDir tmp;
  MapEnvironment one_env({{"GITHUB_OUTPUT", (tmp / "one").string()}});
  MapEnvironment all_env({{"GITHUB_OUTPUT", (tmp / "all").string()}});
  std::ostringstream log;
  auto one = make_workflow(one_env, log, disk);
  auto all = make_workflow(all_env, log, disk);
  one->mask("s3cret");
  all->mask("s3cret");
  for (const auto& [name, value] : outputs) one->set_output(name, value);
  all->set_outputs(outputs);
  // Each heredoc delimiter is random: compared as a placeholder.
  const auto same_delimiter = [](std::string text) {
    const std::string mark = "ghadelimiter_";
    for (auto at = text.find(mark); at != std::string::npos; at = text.find(mark, at + 1))
      text.replace(at, mark.size() + 16, "DELIMITER");
    return text;
  };
  CHECK(same_delimiter(slurp(tmp / "all")) == same_delimiter(slurp(tmp / "one")));
  CHECK(same_delimiter(slurp(tmp / "all")) ==
        "cpu=true\ntrace<<DELIMITER\none\ntwo\nDELIMITER\ntoken=x-***-y\nempty=\n");
  CHECK(all->write_errors() == one->write_errors());
  CHECK(all->write_errors() == std::vector<std::string>{"invalid output name 'a=b'"});
  // With nothing to write, the file is not touched: a missing folder is no write error.
  MapEnvironment bad_env({{"GITHUB_OUTPUT", "/nonexistent-dir/out"}});
  auto none = make_workflow(bad_env, log, disk);
  none->set_outputs({});
  CHECK(none->write_errors().empty());
  none->set_outputs({{"x", "1"}});
  CHECK(none->write_errors() == std::vector<std::string>{"cannot write /nonexistent-dir/out"});
}

TEST_CASE("set_outputs without GITHUB_OUTPUT prints each output, as set_output does") {
  MapEnvironment env;
  std::ostringstream one_log, all_log;
  auto one = make_workflow(env, one_log, disk);
  auto all = make_workflow(env, all_log, disk);
  const std::vector<std::pair<std::string, std::string>> outputs{{"cpu", "true"}, {"gpu", "false"}};
  for (const auto& [name, value] : outputs) one->set_output(name, value);
  all->set_outputs(outputs);
  CHECK(all_log.str() == one_log.str());
  CHECK(all_log.str().find("cpu") != std::string::npos);
}
