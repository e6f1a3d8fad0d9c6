// The tool frame (gatekit/cli.hpp) over FakeSeams: argv parsing, --help/--version, the one
// catch site and its kind -> exit code mapping, and the rule that a result which could not
// be reported is never a pass; the option binding (CliCommand, CliOption): every field type and
// every check the tools bind, with CLI11's messages verbatim.
#include <csignal>
#include <iostream>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "catch.hpp"
#include "gatekit/cli.hpp"
#include "gatekit/fake_context.hpp"
#include "gatekit/termination.hpp"

using namespace gatekit;

namespace {

struct Captured {
  int code;
  std::string out;  // context.out
  std::string err;  // context.err (stderr)
};

// Runs the frame with a --name option over `seams`; `act` is the tool's action.
Captured run(FakeSeams& seams, std::vector<const char*> argv, const Act& act,
             const ToolInfo& info = {"demo-tool", "A demo."}) {
  std::string name;
  auto context = seams.context();
  const int code = run_tool(
      info, static_cast<int>(argv.size()), argv.data(), context,
      [&](CliCommand& app) { app.option("--name", name, "A name"); }, act);
  return {code, seams.out.str(), seams.err.str()};
}

Captured run(std::vector<const char*> argv, const Act& act) {
  FakeSeams seams;
  return run(seams, std::move(argv), act);
}

ExitCode pass(Context&) { return ExitCode::pass; }

}  // namespace

TEST_CASE("the version flag prints the tool and gatekit version") {
  auto r = run({"demo-tool", "--version"}, pass);
  CHECK(r.code == 0);
  CHECK(r.out.rfind("demo-tool (gatekit) ", 0) == 0);
}

TEST_CASE("the help flag exits 0 and lists options") {
  auto r = run({"demo-tool", "--help"}, pass);
  CHECK(r.code == 0);
  CHECK(r.out.find("--name") != std::string::npos);
}

TEST_CASE("unknown options exit 2 with a message naming the tool, and the rejected-argv hook sees it") {
  FakeSeams seams;
  std::vector<std::string> hooked;
  ToolInfo info{"demo-tool", "A demo."};
  info.no_verdict = {true, [&](const Error& error, Context&) { hooked.push_back("failure: " + error.message); }};
  info.rejected_argv = NoVerdict{true, [&](const Error& error, Context& context) {
                                   hooked.push_back("rejected: " + error.message);
                                   context.workflow.append_summary("usage error");
                                 }};
  auto r = run(seams, {"demo-tool", "--bogus"}, pass, info);
  CHECK(r.code == 2);
  CHECK(r.err == "demo-tool: error: The following argument was not expected: --bogus\n"
                 "Run 'demo-tool --help' for usage.\n");
  CHECK(hooked == std::vector<std::string>{"rejected: The following argument was not expected: --bogus"});
  CHECK(seams.workflow.outputs.at("result") == "error");
  CHECK(seams.workflow.summary == "usage error");

  // A failure of the parsed run is the tool's no_verdict, not the rejected argv's.
  FakeSeams failed;
  hooked.clear();
  r = run(failed, {"demo-tool"}, [](Context&) -> ExitCode { fail_bad_input("m.yaml:1:1: bad"); }, info);
  CHECK(r.code == 2);
  CHECK(hooked == std::vector<std::string>{"failure: m.yaml:1:1: bad"});
  CHECK(failed.workflow.outputs.at("result") == "error");
  CHECK(failed.workflow.summary.empty());
}

TEST_CASE("report_no_verdict: `result` says what the NoVerdict says (error unless told), then the hook") {
  FakeSeams seams;
  auto context = seams.context();
  std::string seen;
  const NoVerdict cancelled{true,
                            [&](const Error& error, Context& c) {
                              seen = c.workflow.write_errors().empty() ? error.message : "unwritten";
                              c.workflow.set_output("passed", "0");
                            },
                            "cancelled"};
  report_no_verdict(cancelled, could_not_evaluate("cancelled: the runner received SIGINT"), context);
  CHECK(seams.workflow.outputs.at("result") == "cancelled");
  CHECK(seams.workflow.outputs.at("passed") == "0");
  CHECK(seen == "cancelled: the runner received SIGINT");
  FakeSeams plain;
  auto plain_context = plain.context();
  report_no_verdict(NoVerdict{true}, bad_input("x"), plain_context);
  CHECK(plain.workflow.outputs.at("result") == "error");
  FakeSeams none;
  auto none_context = none.context();
  report_no_verdict(NoVerdict{}, bad_input("x"), none_context);
  CHECK(none.workflow.outputs.empty());
}

TEST_CASE("a tool whose stdout is data: the frame's workflow writes to stderr, the run's data to stdout") {
  std::ostringstream out;
  std::ostringstream err;
  auto* const cout_buffer = std::cout.rdbuf(out.rdbuf());
  auto* const cerr_buffer = std::cerr.rdbuf(err.rdbuf());
  ToolInfo info{"demo-tool", "A demo."};
  info.data_on_stdout = true;
  const char* argv[] = {"demo-tool"};
  const int code = run_tool(info, 1, argv, [](CliCommand&) {}, [](Context& context) {
    context.workflow.log("retrying in 1 s");
    context.out << "{\"answer\":42}\n";
    return ExitCode::pass;
  });
  std::cout.rdbuf(cout_buffer);
  std::cerr.rdbuf(cerr_buffer);
  CHECK(code == 0);
  CHECK(out.str() == "{\"answer\":42}\n");
  CHECK(err.str() == "retrying in 1 s\n");
}

TEST_CASE("the action gets the parsed options and the seams, and its exit code is the tool's") {
  FakeSeams seams;
  seams.files.files["in.txt"] = "hello";
  auto context = seams.context();
  std::string name;
  const std::vector<const char*> argv = {"demo-tool", "--name", "x"};
  const int code = run_tool(
      {"demo-tool", "A demo."}, static_cast<int>(argv.size()), argv.data(), context,
      [&](CliCommand& app) { app.option("--name", name, "A name"); },
      [&](Context& c) {
        CHECK(name == "x");
        c.workflow.set_output("read", value_or_throw(c.files.read("in.txt")));
        return ExitCode::verdict_fail;
      });
  CHECK(code == 1);
  CHECK(seams.err.str().empty());
  CHECK(seams.workflow.outputs.at("read") == "hello");
}

TEST_CASE("a Failure is printed once as '<tool>: error:' and its kind decides the exit code") {
  struct Case {
    Error error;
    int code;
  };
  const Case cases[] = {
      {bad_input("rules.yml:3:5: rules[0].paths: expected a list"), 2},
      {could_not_evaluate("git diff failed: exit code 128"), 3},
      {Error{ErrorKind::could_not_evaluate, "GET /repos/o/r: HTTP 404: Not Found", 404}, 3},
  };
  for (const auto& c : cases) {
    auto r = run({"demo-tool"}, [&](Context&) -> ExitCode { fail(c.error); });
    CHECK(r.code == c.code);
    CHECK(r.err == "demo-tool: error: " + c.error.message + "\n");
  }
}

TEST_CASE("value_or_throw and throw_if_error reach the frame as Failures") {
  auto r = run({"demo-tool"}, [](Context& context) -> ExitCode {
    (void)value_or_throw(as_bad_input(context.files.read("missing.yml")));
    return ExitCode::pass;
  });
  CHECK(r.code == 2);
  CHECK(r.err == "demo-tool: error: cannot read missing.yml: No such file or directory\n");
  r = run({"demo-tool"}, [](Context&) -> ExitCode {
    throw_if_error(Status(could_not_evaluate("no input")));
    return ExitCode::pass;
  });
  CHECK(r.code == 3);
  CHECK(r.err == "demo-tool: error: no input\n");
}

TEST_CASE("an unexpected exception is 'could not evaluate', never a pass") {
  auto r = run({"demo-tool"}, [](Context&) -> ExitCode { throw std::runtime_error("bad"); });
  CHECK(r.code == 3);
  CHECK(r.err == "demo-tool: error: bad\n");
}

TEST_CASE("a step that fails after SIGINT/SIGTERM is reported as cancelled, exit 3, with what stopped") {
  reset_termination_for_testing();
  request_termination(SIGINT);
  struct Case {
    Error error;
    std::string said;
  };
  const Case cases[] = {
      {could_not_evaluate("git push origin failed: killed by signal 15 (SIGTERM)"),
       "cancelled: demo-tool received SIGINT before it finished: git push origin failed: killed by signal 15 (SIGTERM)"},
      {bad_input("rules.yml:3:5: rules[0].paths: expected a list"),
       "cancelled: demo-tool received SIGINT before it finished: rules.yml:3:5: rules[0].paths: expected a list"},
      // The tool's own word on its cancellation stands.
      {could_not_evaluate("cancelled: demo-tool received SIGINT during the pass; nothing is recorded"),
       "cancelled: demo-tool received SIGINT during the pass; nothing is recorded"},
      // Outside text that starts like one (a file named so) is not the tool's word: exit 3 still.
      {bad_input("cancelled: x.yml:1:1: expected a map"),
       "cancelled: demo-tool received SIGINT before it finished: cancelled: x.yml:1:1: expected a map"},
  };
  for (const auto& c : cases) {
    std::string hooked;
    ToolInfo info{"demo-tool", "A demo."};
    info.no_verdict = NoVerdict{true, [&hooked](const Error& error, Context&) { hooked = error.message; }};
    FakeSeams seams;
    const auto r = run(seams, {"demo-tool"}, [&](Context&) -> ExitCode { fail(c.error); }, info);
    CHECK(r.code == 3);
    CHECK(r.err == "demo-tool: error: " + c.said + "\n");
    CHECK(hooked == c.said);  // the no-verdict hook hears the same
    CHECK(seams.workflow.outputs.at("result") == "error");
  }
  auto r = run({"demo-tool"}, [](Context&) -> ExitCode { throw std::runtime_error("bad"); });
  CHECK(r.code == 3);
  CHECK(r.err == "demo-tool: error: cancelled: demo-tool received SIGINT before it finished: bad\n");
  // A run that returns its own exit code is left alone: the tool reported what it did.
  r = run({"demo-tool"}, [](Context&) -> ExitCode { return ExitCode::verdict_fail; });
  CHECK(r.code == 1);
  CHECK(r.err.empty());
  reset_termination_for_testing();
  r = run({"demo-tool"}, [](Context&) -> ExitCode { throw std::runtime_error("bad"); });
  CHECK(r.err == "demo-tool: error: bad\n");
}

TEST_CASE("a result whose outputs could not be written is exit 3, never a pass") {
  for (const ExitCode verdict : {ExitCode::pass, ExitCode::verdict_fail}) {
    FakeSeams seams;
    auto r = run(seams, {"demo-tool"}, [&](Context& context) {
      context.workflow.set_output("result", "pass");
      seams.workflow.unwritten.push_back("cannot write out/github_output: No space left on device");
      return verdict;
    });
    CHECK(r.code == 3);
    CHECK(r.err == "demo-tool: error: the result could not be reported: cannot write out/github_output: No space "
                   "left on device (downstream jobs would read empty outputs)\n");
  }
  // A usage error stays a usage error: the caller must fix the call either way.
  FakeSeams seams;
  auto r = run(seams, {"demo-tool"}, [&](Context&) {
    seams.workflow.unwritten.push_back("cannot write x: y");
    return ExitCode::usage_error;
  });
  CHECK(r.code == 2);
  CHECK(r.err.empty());
}

TEST_CASE("a verdict whose summary could not be written leaves result=error, the no verdict's outputs, exit 3") {
  // The step's outputs must agree with its exit code: `result=pass` beside exit 3 would read
  // as a pass to every later step that looks at the output. The frame reports the no verdict
  // as for any exit 3: `result=error` (the runner keeps an output's last value), then the hook.
  for (const ExitCode verdict : {ExitCode::pass, ExitCode::verdict_fail}) {
    std::string hooked;
    ToolInfo info{"demo-tool", "A demo."};
    info.no_verdict = NoVerdict{true, [&hooked](const Error& error, Context& context) {
                                  hooked = error.message;
                                  context.workflow.set_output("reasons", "{}");
                                }};
    FakeSeams seams;
    auto r = run(seams, {"demo-tool"}, [&](Context& context) {
      context.workflow.set_output("result", verdict == ExitCode::pass ? "pass" : "fail");
      context.workflow.set_output("reasons", "{\"tests\": \"passed\"}");
      seams.workflow.unwritten.push_back("cannot write out/summary.md: Is a directory");
      return verdict;
    }, info);
    CHECK(r.code == 3);
    CHECK(seams.workflow.outputs.at("result") == "error");
    CHECK(seams.workflow.outputs.at("reasons") == "{}");
    CHECK(hooked == "the result could not be reported: cannot write out/summary.md: Is a directory (downstream jobs "
                    "would read empty outputs)");
  }
  // A tool whose run mode writes its own `result` (smoke-runner: no `result` in its NoVerdict):
  // the `result` it wrote is written again, as `error`.
  FakeSeams seams;
  auto r = run(seams, {"demo-tool"}, [&](Context& context) {
    context.workflow.set_output("result", "passed");
    seams.workflow.unwritten.push_back("cannot write out/summary.md: Is a directory");
    return ExitCode::pass;
  });
  CHECK(r.code == 3);
  CHECK(seams.workflow.outputs.at("result") == "error");
  // A tool with no `result` output gets none.
  FakeSeams plain;
  r = run(plain, {"demo-tool"}, [&](Context& context) {
    context.workflow.set_output("count", "3");
    plain.workflow.unwritten.push_back("cannot write out/summary.md: Is a directory");
    return ExitCode::pass;
  });
  CHECK(r.code == 3);
  CHECK(plain.workflow.outputs.count("result") == 0);
}

TEST_CASE("messages quoting outside text cannot act as workflow commands") {
  auto r = run({"demo-tool"}, [](Context&) -> ExitCode { fail_bad_input("bad name 'a\n::error::x'"); });
  CHECK(r.code == 2);
  CHECK(r.err == "demo-tool: error: bad name 'a\n\\x3a:error::x'\n");
}

TEST_CASE("an empty --name= is an empty value, never the next argument (every tool, through the frame)") {
  struct Parsed {
    int code;
    std::string name = "unset", other = "unset";
    std::vector<std::string> rest;
  };
  auto parse = [](std::vector<const char*> argv) {
    Parsed p;
    FakeSeams seams;
    auto context = seams.context();
    p.code = run_tool(
        {"demo-tool", "A demo."}, static_cast<int>(argv.size()), argv.data(), context,
        [&](CliCommand& app) {
          app.option("--name", p.name, "A name");
          app.option("--other", p.other, "Another");
          app.option("rest", p.rest, "The rest");
        },
        pass);
    return p;
  };
  auto before_an_option = parse({"demo-tool", "--name=", "--other=x"});
  CHECK(before_an_option.code == 0);
  CHECK(before_an_option.name.empty());
  CHECK(before_an_option.other == "x");
  auto before_a_positional = parse({"demo-tool", "--name=", "HEAD"});
  CHECK(before_a_positional.code == 0);
  CHECK(before_a_positional.name.empty());
  CHECK(before_a_positional.rest == std::vector<std::string>{"HEAD"});
  auto last = parse({"demo-tool", "--other=", "--name=n"});
  CHECK(last.code == 0);
  CHECK(last.other.empty());
  CHECK(last.name == "n");
  // A value with '=' in it and the arguments after `--` are left as they are.
  auto kept = parse({"demo-tool", "--name=a=", "--", "--other="});
  CHECK(kept.code == 0);
  CHECK(kept.name == "a=");
  CHECK(kept.other == "unset");
  CHECK(kept.rest == std::vector<std::string>{"--other="});
}

// ---- the subcommand table and "no verdict" ----------------------------------------------

namespace {

struct GreetOptions {
  std::string name;
};
struct CountOptions {
  int n = 0;
};

// A tool of two subcommands: `greet --name X` (a `result` output; its hook adds `greeted`)
// and `count --n N`, whose run does what `behave` says.
struct Table {
  FakeSeams seams;
  std::vector<std::string> calls;  // what ran, in order
  std::function<ExitCode(Context&)> behave = [](Context&) { return ExitCode::pass; };

  Captured run(std::vector<const char*> argv, const NoVerdict& tool = {}) {
    const std::vector<Subcommand> table = {
        subcommand<GreetOptions>(
            "greet", "Say hello",
            [](CliCommand& sub, GreetOptions& o) { sub.option("--name", o.name, "Whom").required(); },
            [this](const GreetOptions& o, Context& context) {
              calls.push_back("greet " + o.name);
              return behave(context);
            },
            true,
            [this](const GreetOptions& o, const Error& error, Context& context) {
              // The frame wrote `result` before the hook runs.
              const auto result = seams.workflow.outputs.find("result");
              calls.push_back("no verdict for " + o.name + ": " + error.message + " (result " +
                              (result == seams.workflow.outputs.end() ? "unset" : result->second) + ")");
              context.workflow.set_output("greeted", "false");
            }),
        subcommand<CountOptions>(
            "count", "Count", [](CliCommand& sub, CountOptions& o) { sub.option("--n", o.n, "How many"); },
            [this](const CountOptions& o, Context& context) {
              calls.push_back("count " + std::to_string(o.n));
              return behave(context);
            }),
    };
    auto context = seams.context();
    const int code = run_tool({"demo-tool", "A demo.", tool}, static_cast<int>(argv.size()), argv.data(), context,
                              table, [](CliCommand& app) { app.footer("The footer."); });
    return {code, seams.out.str(), seams.err.str()};
  }
};

}  // namespace

TEST_CASE("the subcommand table runs the chosen row with its own options") {
  Table t;
  auto r = t.run({"demo-tool", "count", "--n", "3"});
  CHECK(r.code == 0);
  CHECK(t.calls == std::vector<std::string>{"count 3"});
  Table g;
  r = g.run({"demo-tool", "greet", "--name", "ada"});
  CHECK(r.code == 0);
  CHECK(g.calls == std::vector<std::string>{"greet ada"});
  CHECK(g.seams.workflow.outputs.empty());
}

TEST_CASE("the subcommand table: --help lists the rows in order with the footer; a subcommand is required") {
  Table t;
  auto r = t.run({"demo-tool", "--help"});
  CHECK(r.code == 0);
  const auto greet = r.out.find("greet");
  const auto count = r.out.find("count");
  CHECK(greet != std::string::npos);
  CHECK(count != std::string::npos);
  CHECK(greet < count);
  CHECK(r.out.find("The footer.") != std::string::npos);
  Table none;
  r = none.run({"demo-tool"});
  CHECK(r.code == 2);
  CHECK(r.err == "demo-tool: error: A subcommand is required\nRun 'demo-tool --help' for usage.\n");
  CHECK(none.calls.empty());
}

TEST_CASE("no verdict: the frame writes result=error, then the subcommand's hook, for exit 2 and 3 alike") {
  struct Case {
    std::function<ExitCode(Context&)> behave;
    int code;
    std::string message;
  };
  const Case cases[] = {
      {[](Context&) -> ExitCode { fail_bad_input("suite.yml:2:3: legs: expected a map"); }, 2,
       "suite.yml:2:3: legs: expected a map"},
      {[](Context&) -> ExitCode { fail_could_not_evaluate("pytest crashed"); }, 3, "pytest crashed"},
      {[](Context&) -> ExitCode { throw std::runtime_error("bad_alloc"); }, 3, "bad_alloc"},
  };
  for (const auto& c : cases) {
    Table t;
    t.behave = c.behave;
    auto r = t.run({"demo-tool", "greet", "--name", "ada"});
    CHECK(r.code == c.code);
    CHECK(r.err == "demo-tool: error: " + c.message + "\n");
    CHECK(t.calls == std::vector<std::string>{"greet ada", "no verdict for ada: " + c.message + " (result error)"});
    CHECK(t.seams.workflow.outputs.at("result") == "error");
    CHECK(t.seams.workflow.outputs.at("greeted") == "false");
  }
}

TEST_CASE("no verdict is reported only for the subcommand that declares it, and never for a verdict") {
  Table count;
  count.behave = [](Context&) -> ExitCode { fail_could_not_evaluate("no input"); };
  auto r = count.run({"demo-tool", "count"});
  CHECK(r.code == 3);
  CHECK(count.seams.workflow.outputs.empty());
  for (const ExitCode verdict : {ExitCode::pass, ExitCode::verdict_fail}) {
    Table t;
    t.behave = [verdict](Context&) { return verdict; };
    r = t.run({"demo-tool", "greet", "--name", "ada"});
    CHECK(r.code == to_int(verdict));
    CHECK(t.calls == std::vector<std::string>{"greet ada"});
    CHECK(t.seams.workflow.outputs.empty());
  }
}

TEST_CASE("no verdict returned: a run that returns exit 2 or 3 gets result=error and its hook, and no error line") {
  for (const ExitCode code : {ExitCode::usage_error, ExitCode::could_not_evaluate}) {
    Table t;
    t.behave = [code](Context& context) {
      context.workflow.set_output("ran", "0");
      return code;
    };
    auto r = t.run({"demo-tool", "greet", "--name", "ada"});
    CHECK(r.code == to_int(code));
    CHECK(r.err.empty());  // the run reported why (its summary, an annotation)
    CHECK(t.calls == std::vector<std::string>{"greet ada", "no verdict for ada: demo-tool reached no verdict (exit " +
                                                               std::to_string(to_int(code)) + ") (result error)"});
    CHECK(t.seams.workflow.outputs.at("result") == "error");
    CHECK(t.seams.workflow.outputs.at("greeted") == "false");
  }
  Table count;
  count.behave = [](Context&) { return ExitCode::could_not_evaluate; };
  CHECK(count.run({"demo-tool", "count"}).code == 3);
  CHECK(count.seams.workflow.outputs.empty());  // no `result` output: nothing to write
}

TEST_CASE("a rejected argv reports the tool's own no verdict: result=error, then its hook with the message") {
  Table t;
  std::string hooked;
  auto r = t.run({"demo-tool", "count", "--bogus"},
                 NoVerdict{true, [&](const Error& error, Context&) { hooked = error.message; }});
  CHECK(r.code == 2);
  CHECK(t.calls.empty());
  CHECK(hooked == "The following argument was not expected: --bogus");
  CHECK(t.seams.workflow.outputs.at("result") == "error");
}

TEST_CASE("a tool without subcommands reports its no verdict when its action fails") {
  FakeSeams seams;
  std::vector<std::string> hooked;
  auto context = seams.context();
  const char* argv[] = {"demo-tool"};
  const int code = run_tool(
      {"demo-tool", "A demo.", NoVerdict{true, [&](const Error& e, Context&) { hooked.push_back(e.message); }}}, 1,
      argv, context, [](CliCommand&) {},
      [](Context&) -> ExitCode { fail_could_not_evaluate("the API did not answer"); });
  CHECK(code == 3);
  CHECK(seams.err.str() == "demo-tool: error: the API did not answer\n");
  CHECK(hooked == std::vector<std::string>{"the API did not answer"});
  CHECK(seams.workflow.outputs.at("result") == "error");
}

// The option binding (CliCommand, CliOption).
namespace {

struct BoundFields {
  std::string text = "unset";
  std::vector<std::string> list;
  int count = 3;
  long big = 0;
  long long huge = 0;
  double ratio = 0;
  std::optional<long> maybe;
  std::optional<double> maybe_ratio;
  bool on = false;
  std::string kind, format, file, given, canonical, x, y, hidden;
  std::size_t canonical_count = 0;
};

struct BindResult {
  int code;
  std::string out, err;
  BoundFields bound;
};

void bind_options(CliCommand& app, BoundFields& b, std::optional<CliOption>& canonical) {
  app.option("--text", b.text, "Text")
      .check([](const std::string& v) { return v == "bad" ? "'bad' is refused" : std::string(); }, "TEXT-RULE");
  app.option("--list", b.list, "Repeatable, one value each").expected(1).take_all().allow_extra_args(false);
  app.option("--count", b.count, "A count").range(1, 10);
  app.option("--big", b.big, "A long").range(1L, 100'000'000L);
  app.option("--huge", b.huge, "A long long");
  app.option("--ratio", b.ratio, "A ratio").positive_number();
  app.option("--maybe", b.maybe, "An optional long");
  app.option("--maybe-ratio", b.maybe_ratio, "An optional double");
  app.flag("--on", b.on, "A flag");
  app.option("--kind", b.kind, "a or b").is_member({"a", "b"});
  app.option("--format", b.format, "json or csv, any case").is_member({"json", "csv"}, true);
  app.option("--file", b.file, "An existing file").existing_file();
  app.option_function("--given", [&b](const std::string& v) { b.given = "took " + v; }, "A function");
  canonical = app.option("--canonical", b.canonical, "Upper-cased");
  canonical->transform(
      [](std::string& v) {
        for (auto& c : v) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
        return std::string();
      },
      "UPPER");
  const auto x = app.option("-x", b.x, "Not with -y");
  app.option("-y", b.y, "Not with -x").excludes(x);
  app.option("--hidden", b.hidden, "Not in --help").group("");
  app.option("rest", b.list, "Positional");
  app.footer("The footer.");
}

BindResult parse_bound(std::vector<const char*> argv) {
  argv.insert(argv.begin(), "demo-tool");
  BindResult p;
  FakeSeams seams;
  auto context = seams.context();
  std::optional<CliOption> canonical;
  p.code = run_tool(
      {"demo-tool", "A demo."}, static_cast<int>(argv.size()), argv.data(), context,
      [&](CliCommand& app) { bind_options(app, p.bound, canonical); },
      [&](Context&) {
        p.bound.canonical_count = canonical->count();
        return ExitCode::pass;
      });
  p.out = seams.out.str();
  p.err = seams.err.str();
  return p;
}

}  // namespace

TEST_CASE("cli command: values reach their fields, of every type") {
  auto p = parse_bound({"--text", "t", "--list", "a", "--list", "b", "--count", "10", "--big", "100000000", "--huge",
                  "9000000000", "--ratio", "0.5", "--maybe", "-4", "--maybe-ratio", "2.5", "--on", "--kind", "b",
                  "--format", "CSV", "--file", GATEKIT_SOURCE_DIR "/README.md", "--given", "g", "--canonical", "abc",
                  "-x", "1", "--hidden", "h"});
  INFO(p.err);
  REQUIRE(p.code == 0);
  CHECK(p.bound.text == "t");
  CHECK(p.bound.list == std::vector<std::string>{"a", "b"});
  CHECK(p.bound.count == 10);
  CHECK(p.bound.big == 100'000'000L);
  CHECK(p.bound.huge == 9'000'000'000LL);
  CHECK(p.bound.ratio == 0.5);
  CHECK(p.bound.maybe == -4L);
  CHECK(p.bound.maybe_ratio == 2.5);
  CHECK(p.bound.on);
  CHECK(p.bound.kind == "b");
  CHECK(p.bound.format == "CSV");  // a check, not a transform: the value stays as given
  CHECK(p.bound.given == "took g");
  CHECK(p.bound.canonical == "ABC");
  CHECK(p.bound.canonical_count == 1);
  CHECK(p.bound.x == "1");
  CHECK(p.bound.hidden == "h");

  auto defaults = parse_bound({});
  CHECK(defaults.code == 0);
  CHECK(defaults.bound.text == "unset");
  CHECK(defaults.bound.count == 3);
  CHECK_FALSE(defaults.bound.maybe.has_value());
  CHECK(defaults.bound.canonical_count == 0);
}

TEST_CASE("cli command: each check rejects with CLI11's message, exit 2") {
  struct Row {
    std::vector<const char*> argv;
    std::string message;
  };
  const Row rows[] = {
      {{"--text", "bad"}, "--text: 'bad' is refused"},
      {{"--count", "0"}, "--count: Value 0 not in range 1 to 10"},
      {{"--count", "3000000000"}, "--count: Value 3000000000 not in range 1 to 10"},
      {{"--big", "100000001"}, "--big: Value 100000001 not in range 1 to 100000000"},
      {{"--ratio", "0"},
       "--ratio: Value 0 not in range 0.000000 to " + std::to_string(std::numeric_limits<double>::max())},
      {{"--kind", "c"}, "--kind: c not in {a,b}"},
      {{"--file", "/nonexistent/file"}, "--file: File does not exist: /nonexistent/file"},
      {{"-x", "1", "-y", "2"}, "-x excludes -y"},
      {{"--list"}, "--list: 1 required TEXT missing"},
  };
  for (const auto& row : rows) {
    INFO(row.argv.front());
    auto p = parse_bound(row.argv);
    CHECK(p.code == 2);
    CHECK(p.err == "demo-tool: error: " + row.message + "\nRun 'demo-tool --help' for usage.\n");
  }
}

TEST_CASE("cli command: --help shows each option with its check, the footer, and not a hidden option") {
  auto p = parse_bound({"--help"});
  CHECK(p.code == 0);
  CHECK(p.out.find("  --count INT:INT in [1 - 10]=3") != std::string::npos);
  CHECK(p.out.find("  --kind TEXT:{a,b}") != std::string::npos);
  CHECK(p.out.find("  --canonical TEXT:UPPER") != std::string::npos);
  CHECK(p.out.find("  --text TEXT:TEXT-RULE=unset") != std::string::npos);
  CHECK(p.out.find("The footer.") != std::string::npos);
  CHECK(p.out.find("--hidden") == std::string::npos);
}
