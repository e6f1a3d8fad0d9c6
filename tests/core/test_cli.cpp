#include <iostream>
#include <sstream>

#include "catch.hpp"
#include "gatekit/cli.hpp"

using namespace gatekit;

namespace {

struct Captured {
  int code;
  std::string out;
  std::string err;
};

Captured run(std::vector<const char*> argv, std::function<ExitCode(CLI::App&)> act) {
  std::ostringstream out, err;
  auto* old_out = std::cout.rdbuf(out.rdbuf());
  auto* old_err = std::cerr.rdbuf(err.rdbuf());
  std::string name;
  int code = run_tool(
      {"demo-tool", "A demo."}, static_cast<int>(argv.size()), argv.data(),
      [&](CLI::App& app) { app.add_option("--name", name, "A name"); }, act);
  std::cout.rdbuf(old_out);
  std::cerr.rdbuf(old_err);
  return {code, out.str(), err.str()};
}

ExitCode pass(CLI::App&) { return ExitCode::pass; }

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

TEST_CASE("unknown options exit 2 with a message naming the tool") {
  auto r = run({"demo-tool", "--bogus"}, pass);
  CHECK(r.code == 2);
  CHECK(r.err == "demo-tool: error: The following argument was not expected: --bogus\n"
                 "Run 'demo-tool --help' for usage.\n");
}

TEST_CASE("a ToolError is printed once and decides the exit code") {
  auto r = run({"demo-tool"}, [](CLI::App&) -> ExitCode {
    throw ToolError{ExitCode::could_not_evaluate, "no input"};
  });
  CHECK(r.code == 3);
  CHECK(r.err == "demo-tool: error: no input\n");
}

TEST_CASE("an unexpected exception is 'could not evaluate', never a pass") {
  auto r = run({"demo-tool"}, [](CLI::App&) -> ExitCode { throw std::runtime_error("bad"); });
  CHECK(r.code == 3);
  CHECK(r.err == "demo-tool: error: bad\n");
}
