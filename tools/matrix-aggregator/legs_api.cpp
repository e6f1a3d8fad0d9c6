#include <charconv>

#include "aggregate.hpp"
#include "gatekit/clock.hpp"
#include "gatekit/github.hpp"
#include "legs_api.hpp"

namespace gatekit::aggregator {

LegView list_legs(const Environment& env, Workflow& workflow, github::HttpTransport& transport, Clock& clock) {
  LegView view;
  auto options = github::options_from_environment(env);
  if (options.token.empty()) {
    view.unavailable_reason = "no token (set the action's token input, or GITHUB_TOKEN)";
    return view;
  }
  auto repo = env.get_nonempty("GITHUB_REPOSITORY");
  auto run = env.get_nonempty("GITHUB_RUN_ID");
  if (!repo || !run) {
    view.unavailable_reason = "GITHUB_REPOSITORY or GITHUB_RUN_ID is not set (not running in GitHub Actions?)";
    return view;
  }
  std::int64_t run_id = 0;
  auto [end, ec] = std::from_chars(run->data(), run->data() + run->size(), run_id);
  if (ec != std::errc{} || end != run->data() + run->size() || run_id <= 0) {
    view.unavailable_reason = "GITHUB_RUN_ID '" + *run + "' is not a run id";
    return view;
  }
  options.budget = std::chrono::milliseconds(60'000);  // one aggregator step; retries included
  github::Client client(options, transport, clock, &workflow);
  auto jobs = client.list_run_jobs(*repo, run_id);
  if (const auto* error = std::get_if<github::ApiError>(&jobs)) {
    view.unavailable_reason = "jobs API: " + error->describe();
    return view;
  }
  for (const auto& job : std::get<std::vector<github::WorkflowJob>>(jobs))
    view.legs.push_back({job.name, job.status, job.conclusion, job.html_url});
  view.available = true;
  return view;
}

namespace {

class ApiLegSource final : public LegSource {
 public:
  LegView list(const Environment& env, Workflow& workflow) override {
    auto transport = github::make_curl_transport();
    SystemClock clock;
    return list_legs(env, workflow, *transport, clock);
  }
};

}  // namespace

std::unique_ptr<LegSource> make_api_leg_source() { return std::make_unique<ApiLegSource>(); }

}  // namespace gatekit::aggregator
