// Maps argv to gatekit_api::Options and calls run_call.
#include "gatekit-api.hpp"
#include "gatekit/cli.hpp"

int gatekit_api_main(int argc, const char* const* argv) {
  using namespace gatekit;
  gatekit_api::Options options;
  ToolInfo info{"gatekit-api", "Makes one GitHub REST API call with gatekit's client and prints the JSON answer."};
  // stdout carries the answer alone (callers pipe it to a JSON reader): the client's masks
  // and retry lines go to stderr.
  info.data_on_stdout = true;
  return run_tool(
      info, argc, argv,
      [&](gatekit::CliCommand& app) {
        app.option("method", options.method, "GET, POST, PATCH, PUT or DELETE").required();
        app.option("path", options.path, "path below GITHUB_API_URL, e.g. /repos/o/r/pulls/1/files").required();
        app.flag("--paginate", options.paginate, "follow Link rel=next and print all items as one array");
        app.option("-f,--raw-field", options.raw_fields, "key=value, a string (query for GET, body otherwise)");
        app.option("-F,--field", options.typed_fields, "key=value; true/false/null/numbers keep their JSON type");
        app.option("--input", options.input, "a file with the JSON request body, '-' for stdin");
        app.option("--token", options.token, "token (default: GITHUB_TOKEN, then GH_TOKEN)");
        app.option("--budget", options.budget_s, "seconds for the whole call, retries and waits included")
            .positive_number();
        app.option("--timeout", options.timeout_s, "seconds per HTTP request").positive_number();
        app.option("--max-attempts", options.max_attempts, "attempts per request").range(1, 20);
      },
      [&](Context& context) { return gatekit_api::run_call(options, context); });
}
