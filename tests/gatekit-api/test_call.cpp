// The whole command (call.cpp) over FakeSeams: the request built from the options and the
// --input body (a file in MemoryFiles, or the input stream), the answer printed to the output
// stream, and GitHub's refusals as could_not_evaluate errors.
#include <memory>
#include <string>
#include <vector>

#include "build_call.hpp"
#include "catch.hpp"
#include "gatekit/fake_context.hpp"
#include "gatekit/github.hpp"

using namespace gatekit;
using namespace gatekit::gatekit_api;

namespace {

// Answers every request with `status` and `body`, recording the requests.
class Canned final : public github::HttpTransport {
 public:
  int status = 200;
  std::string body = R"({"ok":true})";
  std::vector<github::HttpRequest> requests;
  std::variant<github::HttpResponse, github::TransportError> send(const github::HttpRequest& request) override {
    requests.push_back(request);
    github::HttpResponse r;
    r.status = status;
    r.headers = {{"content-type", "application/json"}};
    r.body = body;
    return r;
  }
};

void serve(FakeSeams& seams, Canned& canned) {
  seams.run.api_url = "https://api.github.test";
  seams.env.set("GITHUB_TOKEN", "s3cret");
  struct Forward final : github::HttpTransport {
    explicit Forward(Canned& c) : target(c) {}
    std::variant<github::HttpResponse, github::TransportError> send(const github::HttpRequest& r) override {
      return target.send(r);
    }
    Canned& target;
  };
  seams.make_transport = [&canned] { return std::make_unique<Forward>(canned); };
}

Options call(std::string method, std::string path, std::string input = "") {
  Options o;
  o.method = std::move(method);
  o.path = std::move(path);
  o.input = std::move(input);
  o.max_attempts = 1;
  return o;
}

std::optional<Error> failure_of(const Options& options, FakeSeams& seams) {
  auto context = seams.context();
  try {
    (void)run_call(options, context);
  } catch (const Failure& f) {
    return f.error();
  }
  return std::nullopt;
}

}  // namespace

TEST_CASE("call: the answer is printed as one line; the token is masked through the workflow") {
  FakeSeams seams;
  Canned api;
  api.body = R"({"number":1,"title":"::error::x"})";
  serve(seams, api);
  auto context = seams.context();
  CHECK(run_call(call("get", "/repos/o/r/pulls/1"), context) == ExitCode::pass);
  CHECK(seams.out.str() == "{\"number\":1,\"title\":\"::error::x\"}\n");
  REQUIRE(api.requests.size() == 1);
  CHECK(api.requests[0].method == "GET");
  CHECK(api.requests[0].url == "https://api.github.test/repos/o/r/pulls/1");
  CHECK(seams.workflow.masked == std::vector<std::string>{"s3cret"});
}

TEST_CASE("call: --input is the body, from a file or from stdin") {
  for (const std::string input : {"/body.json", "-"}) {
    INFO(input);
    FakeSeams seams;
    Canned api;
    serve(seams, api);
    if (input == "-") seams.in.str(R"({"name":"bug"})");
    else seams.files.files[input] = R"({"name":"bug"})";
    auto context = seams.context();
    CHECK(run_call(call("POST", "/repos/o/r/labels", input), context) == ExitCode::pass);
    REQUIRE(api.requests.size() == 1);
    CHECK(api.requests[0].body == R"({"name":"bug"})");
  }
}

TEST_CASE("call: an empty answer prints nothing") {
  FakeSeams seams;
  Canned api;
  api.status = 204;
  api.body = "";
  serve(seams, api);
  auto context = seams.context();
  CHECK(run_call(call("DELETE", "/repos/o/r/labels/x"), context) == ExitCode::pass);
  CHECK(seams.out.str().empty());
}

TEST_CASE("call: bad input and refused calls stop with an Error naming the cause") {
  struct Row {
    const char* name;
    Options options;
    int status;
    ErrorKind kind;
    std::string message;
  };
  const std::vector<Row> rows = {
      {"unreadable --input", call("POST", "/x", "/absent.json"), 200, ErrorKind::bad_input,
       "cannot read /absent.json: No such file or directory"},
      {"unknown method", call("FETCH", "/x"), 200, ErrorKind::bad_input,
       "unknown method 'FETCH'; use GET, POST, PATCH, PUT or DELETE"},
      {"GitHub refuses", call("GET", "/repos/o/r"), 404, ErrorKind::could_not_evaluate,
       "GET /repos/o/r: HTTP 404: boom"},
  };
  for (const auto& row : rows) {
    INFO(row.name);
    FakeSeams seams;
    Canned api;
    api.status = row.status;
    api.body = R"({"message":"boom"})";
    serve(seams, api);
    auto error = failure_of(row.options, seams);
    REQUIRE(error);
    CHECK(error->kind == row.kind);
    CHECK(error->message == row.message);
    CHECK(error->http_status == (row.status == 200 ? 0 : row.status));
    CHECK(seams.out.str().empty());
  }
}
