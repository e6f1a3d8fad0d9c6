#pragma once
// A whole aggregate run over the core's fakes (FakeSeams): `needs` in an environment
// variable, file or the input stream; the run's legs served by a fake jobs API.
#include <iostream>
#include <memory>
#include <sstream>
#include <optional>
#include <string>
#include <vector>

#include "gatekit/cli.hpp"
#include "gatekit/fake_context.hpp"
#include "gatekit/github.hpp"
#include "gatekit/json.hpp"
#include "legs.hpp"
#include "matrix-aggregator.hpp"

namespace gatekit::testing {

// GET /repos/o/r/actions/runs/42/jobs: the legs as the jobs API lists them, or `status`.
class JobsApi final : public github::HttpTransport {
 public:
  std::vector<matrix_aggregator::Leg> legs;
  std::optional<std::string> body;  // served instead of the legs when set
  int status = 200;
  std::vector<github::HttpRequest> requests;

  std::variant<github::HttpResponse, github::TransportError> send(const github::HttpRequest& request) override {
    requests.push_back(request);
    github::HttpResponse r;
    r.status = status;
    r.headers = {{"content-type", "application/json"}};
    if (status != 200) {
      r.body = R"({"message":"Not Found"})";
      return r;
    }
    if (body) {
      r.body = *body;
      return r;
    }
    boost::json::array jobs;
    std::int64_t id = 0;
    for (const auto& leg : legs) {
      boost::json::object job{{"id", ++id}, {"name", leg.name}, {"status", leg.status}, {"html_url", leg.url}};
      job["conclusion"] = leg.conclusion.empty() ? boost::json::value(nullptr) : boost::json::value(leg.conclusion);
      jobs.push_back(std::move(job));
    }
    r.body = boost::json::serialize(boost::json::object{{"total_count", jobs.size()}, {"jobs", jobs}});
    return r;
  }
};

// The run's identity and a token, and every connection answered by `api`.
inline void serve_legs(FakeSeams& seams, JobsApi& api) {
  seams.env.set("GITHUB_TOKEN", "t0ken");
  seams.run.repository = "o/r";
  seams.run.run_id = "42";
  struct Forward final : github::HttpTransport {
    explicit Forward(JobsApi& a) : target(a) {}
    std::variant<github::HttpResponse, github::TransportError> send(const github::HttpRequest& r) override {
      return target.send(r);
    }
    JobsApi& target;
  };
  seams.make_transport = [&api] { return std::make_unique<Forward>(api); };
}

// What run_aggregate returned, or the error it stopped with.
struct Ran {
  ExitCode code = ExitCode::pass;
  std::optional<Error> error;
  std::string err;  // what the frame printed
};

// The tool's frame (gatekit/cli.hpp) over `context`, with matrix-aggregator's no verdict and
// `configure`'s options: what a run without a verdict leaves is the frame's and the hook's.
inline Ran run_framed(const matrix_aggregator::Options& options, Context context, std::vector<const char*> argv,
                      const Configure& configure) {
  Ran ran;
  const NoVerdict no_verdict{true, [&](const Error& error, Context& c) {
                               ran.error = error;
                               matrix_aggregator::report_no_verdict(options, error, c);
                             }};
  std::ostringstream err;
  auto* old_err = std::cerr.rdbuf(err.rdbuf());
  const int code = run_tool({"matrix-aggregator", "", no_verdict}, static_cast<int>(argv.size()), argv.data(), context,
                            configure,
                            [&](Context& c) { return matrix_aggregator::run_aggregate(options, c); });
  std::cerr.rdbuf(old_err);
  ran.code = static_cast<ExitCode>(code);
  ran.err = err.str();
  return ran;
}

inline Ran aggregate(const matrix_aggregator::Options& options, Context context) {
  return run_framed(options, context, {"matrix-aggregator"}, [](gatekit::CliCommand&) {});
}
inline Ran aggregate(const matrix_aggregator::Options& options, FakeSeams& seams) {
  return aggregate(options, seams.context());
}

}  // namespace gatekit::testing
