#include "legs_api.hpp"

#include <charconv>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "gatekit/run_info.hpp"
#include "gatekit/github.hpp"

namespace gatekit::matrix_aggregator {

namespace {

// GITHUB_RUN_ID as a run id, or nullopt.
std::optional<std::int64_t> run_id_of(const std::string& text) {
  std::int64_t id = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (ec != std::errc{} || end != text.data() + text.size() || id <= 0) return std::nullopt;
  return id;
}

}  // namespace

LegView list_legs(Context& context) {
  LegView view;
  auto options = github::options_for(context);
  if (options.token.empty()) {
    view.unavailable_reason = "no token (set the action's token input, or GITHUB_TOKEN)";
    return view;
  }
  const std::string& repo = context.run.repository;
  const std::string& run = context.run.run_id;
  if (repo.empty() || run.empty()) {
    view.unavailable_reason = "GITHUB_REPOSITORY or GITHUB_RUN_ID is not set (not running in GitHub Actions?)";
    return view;
  }
  const auto run_id = run_id_of(run);
  if (!run_id) {
    view.unavailable_reason = "GITHUB_RUN_ID '" + run + "' is not a run id";
    return view;
  }
  options.budget = std::chrono::milliseconds(60'000);  // one aggregator step; retries included
  auto client = github::connect(context, options);
  if (!client) {
    view.unavailable_reason = client.error().message;
    return view;
  }
  auto jobs = client->list_run_jobs(repo, *run_id);
  if (!jobs) {
    view.unavailable_reason = "jobs API: " + jobs.error().message;
    return view;
  }
  for (const auto& job : *jobs)
    view.legs.push_back({job.name, job.status, job.conclusion, job.html_url});
  view.available = true;
  return view;
}

}  // namespace gatekit::matrix_aggregator
