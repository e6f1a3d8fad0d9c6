// The retry and rate-limit policy: which answers are retried, how long to wait, and when
// the budget says stop. Pure functions of the answer, the attempt and the time left.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <ctime>

#include "gatekit/github_detail.hpp"

namespace gatekit::github::detail {
namespace {

using std::chrono::milliseconds;

std::optional<std::int64_t> parse_int(const std::optional<std::string>& text) {
  if (!text) return std::nullopt;
  std::int64_t value = 0;
  const char* first = text->data();
  const char* last = first + text->size();
  while (first < last && *first == ' ') ++first;
  auto [ptr, ec] = std::from_chars(first, last, value);
  if (ec != std::errc() || ptr == first) return std::nullopt;
  return value;
}

bool mentions_secondary_limit(const std::string& body) {
  std::string lower(body.size(), ' ');
  std::transform(body.begin(), body.end(), lower.begin(),
                 [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); });
  return lower.find("secondary rate limit") != std::string::npos;
}

}  // namespace

Assessment assess_response(const HttpResponse& response, Clock::time_point now, const RetryPolicy& policy) {
  const int status = response.status;
  if (status >= 500) return {Verdict::retry_backoff, milliseconds{0}, std::nullopt, "HTTP " + std::to_string(status)};
  if (status != 403 && status != 429) return {Verdict::deliver, milliseconds{0}, std::nullopt, ""};

  const bool secondary = mentions_secondary_limit(response.body);
  const std::string kind = secondary ? "secondary rate limit" : "rate limit";
  if (auto retry_after = parse_int(response.header("retry-after")); retry_after && *retry_after >= 0) {
    return {Verdict::retry_wait, milliseconds{*retry_after * 1000}, std::nullopt,
            "HTTP " + std::to_string(status) + ": " + kind + " (Retry-After: " + std::to_string(*retry_after) + " s)"};
  }
  auto remaining = parse_int(response.header("x-ratelimit-remaining"));
  auto reset = parse_int(response.header("x-ratelimit-reset"));
  if (remaining && *remaining == 0 && reset) {
    const Clock::time_point reset_at{std::chrono::seconds{*reset}};
    auto wait = std::max(milliseconds{reset_at - now}, milliseconds{0}) + policy.reset_margin;
    return {Verdict::retry_wait, wait, *reset,
            "HTTP " + std::to_string(status) + ": " + kind + " exceeded (x-ratelimit-remaining: 0)"};
  }
  if (secondary || status == 429) {
    return {Verdict::retry_wait, policy.secondary_wait, std::nullopt,
            "HTTP " + std::to_string(status) + ": " + kind + " exceeded"};
  }
  return {Verdict::deliver, milliseconds{0}, std::nullopt, ""};  // a plain 403: permissions
}

Assessment assess_transport_error(const TransportError& error) {
  switch (error.kind) {
    case TransportErrorKind::connect:
      return {Verdict::retry_backoff, milliseconds{0}, std::nullopt, "could not connect: " + error.message};
    case TransportErrorKind::timeout:
      return {Verdict::retry_backoff, milliseconds{0}, std::nullopt, "timed out: " + error.message};
    case TransportErrorKind::dropped:
      return {Verdict::retry_backoff, milliseconds{0}, std::nullopt, "connection dropped: " + error.message};
    case TransportErrorKind::other:
      break;
  }
  return {Verdict::fail, milliseconds{0}, std::nullopt, error.message};
}

milliseconds backoff_delay(int attempt, double jitter01, const RetryPolicy& policy) {
  const int doublings = std::clamp(attempt - 1, 0, 20);
  auto delay = std::min(policy.base_delay * (std::int64_t{1} << doublings), policy.max_delay);
  const double jitter = std::clamp(jitter01, 0.0, 1.0);
  auto half = delay / 2;
  return half + milliseconds{static_cast<std::int64_t>(static_cast<double>(half.count()) * jitter)};
}

Step next_step(const Assessment& assessment, int attempt, int max_attempts, milliseconds budget_left,
               double jitter01, const RetryPolicy& policy) {
  switch (assessment.verdict) {
    case Verdict::deliver: return {StepAction::deliver, milliseconds{0}};
    case Verdict::fail: return {StepAction::fail, milliseconds{0}};
    case Verdict::retry_backoff:
    case Verdict::retry_wait: break;
  }
  const auto wait = assessment.verdict == Verdict::retry_wait ? assessment.wait
                                                               : backoff_delay(attempt, jitter01, policy);
  if (wait > budget_left) return {StepAction::give_up_budget, wait};
  if (attempt >= max_attempts) return {StepAction::give_up_attempts, wait};
  return {StepAction::wait_and_retry, wait};
}

}  // namespace gatekit::github::detail
