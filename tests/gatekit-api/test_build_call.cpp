// build_call (build_call.cpp): the options and the --input body turned into one request, and
// every malformed option refused as bad input with its message.
#include <optional>
#include <string>
#include <vector>

#include "build_call.hpp"
#include "catch.hpp"

using namespace gatekit;
using namespace gatekit::gatekit_api;

namespace {

Options opts(std::string method, std::string path, std::vector<std::string> raw = {},
             std::vector<std::string> typed = {}) {
  Options o;
  o.method = std::move(method);
  o.path = std::move(path);
  o.raw_fields = std::move(raw);
  o.typed_fields = std::move(typed);
  return o;
}

}  // namespace

TEST_CASE("build_call: GET and DELETE fields are the query, other methods' fields a JSON body") {
  struct Row {
    Options options;
    std::optional<std::string> input;
    std::string method, path, body;  // body "": none
  };
  const std::vector<Row> rows = {
      {opts("get", "/repos/o/r/issues", {"labels=flaky"}, {"per_page=5"}), {}, "GET",
       "/repos/o/r/issues?labels=flaky&per_page=5", ""},
      {opts("DELETE", "/x", {"a=b c"}), {}, "DELETE", "/x?a=b%20c", ""},
      {opts("patch", "/repos/o/r/issues/1", {"state=closed", "n=1"}, {"locked=true", "count=2", "none=null"}), {},
       "PATCH", "/repos/o/r/issues/1", R"({"state":"closed","n":"1","locked":true,"count":2,"none":null})"},
      {opts("POST", "/repos/o/r/labels"), R"({"name":"bug"})", "POST", "/repos/o/r/labels", R"({"name":"bug"})"},
      {opts("POST", "https://api.github.test/x"), {}, "POST", "https://api.github.test/x", ""},
  };
  for (const auto& row : rows) {
    INFO(row.path);
    auto call = build_call(row.options, row.input);
    REQUIRE(call);
    CHECK(call->method == row.method);
    CHECK(call->path == row.path);
    CHECK((call->body ? boost::json::serialize(*call->body) : std::string()) == row.body);
  }
}

TEST_CASE("build_call: malformed options are bad input naming the problem") {
  auto paginated_post = opts("POST", "/x");
  paginated_post.paginate = true;
  struct Row {
    Options options;
    std::optional<std::string> input;
    std::string message;
  };
  const std::vector<Row> rows = {
      {opts("FETCH", "/x"), {}, "unknown method 'FETCH'; use GET, POST, PATCH, PUT or DELETE"},
      {opts("GET", "repos/o/r"), {}, "the path must start with '/' (e.g. /repos/o/r/pulls/1), got 'repos/o/r'"},
      {paginated_post, {}, "--paginate needs GET"},
      {opts("POST", "/x", {"novalue"}), {}, "field 'novalue' is not key=value"},
      {opts("POST", "/x", {}, {"=v"}), {}, "field '=v' is not key=value"},
      {opts("POST", "/x", {"a=b"}), "{}", "--input and -f/-F cannot be combined"},
      {opts("POST", "/x"), "{nope", "--input is not valid JSON: "},
  };
  for (const auto& row : rows) {
    INFO(row.message);
    auto call = build_call(row.options, row.input);
    REQUIRE_FALSE(call);
    CHECK(call.error().kind == ErrorKind::bad_input);
    CHECK(call.error().message.rfind(row.message, 0) == 0);
    if (row.message.back() != ' ') CHECK(call.error().message == row.message);
  }
}
