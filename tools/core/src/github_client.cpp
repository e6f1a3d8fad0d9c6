// The client's engine: one logical call = one or more pages, each page one or more
// attempts, all inside one time budget measured on the injected clock.
#include <cstdio>
#include <random>
#include <set>

#include "gatekit/github_detail.hpp"
#include "github_impl.hpp"
#include "gatekit/version.hpp"

namespace gatekit::github {

using namespace std::chrono_literals;

std::string_view to_string(ApiErrorKind kind) {
  switch (kind) {
    case ApiErrorKind::network: return "network";
    case ApiErrorKind::http_status: return "http_status";
    case ApiErrorKind::decode: return "decode";
    case ApiErrorKind::budget_exhausted: return "budget_exhausted";
  }
  return "unknown";
}

std::string ApiError::describe() const {
  std::string out = method + " " + detail::path_of(url) + ": " + message;
  if (!documentation_url.empty()) out += " (" + documentation_url + ")";
  return out;
}

ClientOptions options_from_environment(const Environment& env, const std::string& explicit_token) {
  ClientOptions options;
  if (auto url = env.get_nonempty("GITHUB_API_URL")) {
    options.base_url = *url;
    while (!options.base_url.empty() && options.base_url.back() == '/') options.base_url.pop_back();
  }
  if (!explicit_token.empty()) {
    options.token = explicit_token;
  } else if (auto token = env.get_nonempty("GITHUB_TOKEN")) {
    options.token = *token;
  } else if (auto gh = env.get_nonempty("GH_TOKEN")) {
    options.token = *gh;
  }
  return options;
}

Client::Client(ClientOptions options, HttpTransport& transport, Clock& clock, Workflow* workflow,
               std::uint64_t jitter_seed)
    : impl_(std::make_shared<Impl>(std::move(options), transport, clock, jitter_seed)) {
  impl_->workflow = workflow;
  if (workflow != nullptr && !impl_->options.token.empty()) workflow->mask(impl_->options.token);
}

int Client::requests_sent() const { return impl_->requests_sent; }

Client::Impl::Impl(ClientOptions o, HttpTransport& t, Clock& c, std::uint64_t seed)
    : options(std::move(o)), transport(t), clock(c), rng(seed != 0 ? seed : std::random_device{}()) {
  if (options.total_budget > 0ms) total_deadline = clock.now() + options.total_budget;
  secret_forms = detail::secret_forms(options.token);
}

Client::Impl::Deadline Client::Impl::start_call() const {
  auto deadline = clock.now() + options.budget;
  if (total_deadline && *total_deadline < deadline) deadline = *total_deadline;
  return deadline;
}

namespace {

std::string seconds_text(std::chrono::milliseconds d) {
  if (d.count() % 1000 == 0) return std::to_string(d.count() / 1000) + " s";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f s", static_cast<double>(d.count()) / 1000.0);
  return buffer;
}

}  // namespace

std::string Client::Impl::budget_text(Deadline deadline) const {
  if (total_deadline && deadline == *total_deadline)
    return "the time budget of " + seconds_text(options.total_budget) + " for all calls";
  return "the time budget of " + seconds_text(options.budget);
}

void Client::Impl::redact(HttpResponse& response) const {
  if (secret_forms.empty()) return;
  response.body = detail::redact_secrets(response.body, secret_forms);
  for (auto& header : response.headers) header.second = detail::redact_secrets(header.second, secret_forms);
}

void Client::Impl::redact(TransportError& error) const {
  if (!secret_forms.empty()) error.message = detail::redact_secrets(error.message, secret_forms);
}

HttpRequest Client::Impl::make_request(const std::string& method, const std::string& url,
                                       const std::string& body) const {
  HttpRequest request;
  request.method = method;
  request.url = url;
  request.timeout = options.request_timeout;
  request.headers = {{"Accept", "application/vnd.github+json"},
                     {"X-GitHub-Api-Version", options.api_version},
                     {"User-Agent", std::string("gatekit/") + kVersion}};
  if (!options.token.empty()) request.headers.emplace_back("Authorization", "Bearer " + options.token);
  if (!body.empty()) request.headers.emplace_back("Content-Type", "application/json");
  request.body = body;
  return request;
}

ApiResult<HttpResponse> Client::Impl::exchange(const std::string& method, const std::string& url,
                                               const std::string& body, Deadline deadline) {
  auto request = make_request(method, url, body);
  std::uniform_real_distribution<double> jitter(0.0, 1.0);
  auto fail = [&](ApiErrorKind kind, std::string message) {
    ApiError e;
    e.kind = kind;
    e.method = method;
    e.url = url;
    e.message = std::move(message);
    return e;
  };
  for (int attempt = 1;; ++attempt) {
    // Slow pages count too: no request starts after the budget is spent.
    const auto now = clock.now();
    if (now >= deadline) return fail(ApiErrorKind::budget_exhausted, budget_text(deadline) + " is spent");
    // A request in flight ends at the deadline too: a slow server cannot stretch the budget.
    request.timeout = std::min(options.request_timeout, std::max(std::chrono::milliseconds(deadline - now), 1ms));
    ++requests_sent;
    auto result = transport.send(request);
    if (auto* answer = std::get_if<HttpResponse>(&result)) redact(*answer);
    else redact(std::get<TransportError>(result));
    const auto* response = std::get_if<HttpResponse>(&result);
    auto assessment = response != nullptr ? detail::assess_response(*response, clock.now())
                                          : detail::assess_transport_error(std::get<TransportError>(result));
    auto left = std::max(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock.now()), 0ms);
    const bool retryable = assessment.verdict == detail::Verdict::retry_backoff ||
                           assessment.verdict == detail::Verdict::retry_wait;
    if (retryable && left == 0ms) {
      auto error = fail(ApiErrorKind::budget_exhausted,
                        budget_text(deadline) + " is spent (last attempt: " + assessment.reason + ")");
      if (response != nullptr) error.status = response->status;
      return error;
    }
    auto step = detail::next_step(assessment, attempt, options.max_attempts, left, jitter(rng));
    switch (step.action) {
      case detail::StepAction::deliver:
        return *response;
      case detail::StepAction::wait_and_retry:
        clock.sleep_for(step.wait);
        continue;
      case detail::StepAction::fail:
        return fail(ApiErrorKind::network, assessment.reason);
      case detail::StepAction::give_up_attempts: {
        std::string suffix = " (gave up after " + std::to_string(attempt) + " attempts)";
        if (response == nullptr) return fail(ApiErrorKind::network, assessment.reason + suffix);
        auto error = detail::error_from_response(*response, method, url);
        error.message += suffix;
        return error;
      }
      case detail::StepAction::give_up_budget: {
        std::string message = assessment.reason + "; waiting " + std::to_string(step.wait.count() / 1000) +
                              " s more would exceed " + budget_text(deadline);
        if (assessment.reset_epoch) message += "; the rate limit resets at " + detail::format_utc(*assessment.reset_epoch);
        auto error = fail(ApiErrorKind::budget_exhausted, message);
        if (response != nullptr) error.status = response->status;
        return error;
      }
    }
  }
}

ApiResult<boost::json::value> Client::Impl::call(const std::string& method, const std::string& url,
                                                 const std::string& body, Deadline deadline) {
  auto exchanged = exchange(method, url, body, deadline);
  if (auto* error = std::get_if<ApiError>(&exchanged)) return *error;
  const auto& response = std::get<HttpResponse>(exchanged);
  if (response.status >= 400) return detail::error_from_response(response, method, url);
  auto parsed = detail::parse_body(response);
  if (!parsed) return decode_error(method, url, parsed.error().message);
  return std::move(*parsed);
}

ApiError Client::Impl::decode_error(const std::string& method, const std::string& url, std::string message) {
  ApiError e;
  e.kind = ApiErrorKind::decode;
  e.method = method;
  e.url = url;
  e.message = std::move(message);
  return e;
}

ApiResult<Client::Impl::Page> Client::Impl::paginate(const std::string& url_in, std::size_t limit,
                                                     Deadline deadline) {
  const std::string origin = detail::origin_of(detail::join_url(options.base_url, "/"));
  std::string url = url_in;
  if (!detail::has_query_param(url, "per_page")) url = detail::add_query(url, "per_page", "100");
  Page page;
  std::set<std::string> seen;
  while (true) {
    seen.insert(url);
    auto exchanged = exchange("GET", url, "", deadline);
    if (auto* error = std::get_if<ApiError>(&exchanged)) return *error;
    const auto& response = std::get<HttpResponse>(exchanged);
    if (response.status >= 400) return detail::error_from_response(response, "GET", url);
    auto parsed = detail::parse_body(response);
    if (!parsed) return decode_error("GET", url, parsed.error().message);
    // A listing is an array, or an object wrapping one under a known key.
    boost::json::array* items = parsed->if_array();
    if (items == nullptr && parsed->is_object()) {
      for (const char* key : {"items", "workflow_runs", "jobs", "artifacts", "statuses"}) {
        if (auto* v = parsed->get_object().if_contains(key); v != nullptr && v->is_array()) {
          items = &v->get_array();
          if (page.wrapper_key.empty()) page.wrapper_key = key;
          break;
        }
      }
    }
    if (items == nullptr) return decode_error("GET", url, "expected a JSON array or a wrapped listing");
    if (page.first.is_null()) page.first = *parsed;
    for (auto& item : *items) page.items.push_back(std::move(item));
    if (limit != 0 && page.items.size() >= limit) {
      page.items.resize(limit);
      return page;
    }
    auto next = detail::next_link(response.header("link").value_or(""));
    if (!next) return page;
    // The token must never travel to another host: only same-origin pages are followed.
    if (detail::origin_of(*next) != origin)
      return decode_error("GET", url, "refusing to follow a Link rel=next to another host: " + detail::origin_of(*next));
    if (seen.count(*next) != 0) return decode_error("GET", url, "Link rel=next points back to a page already read");
    // A long listing shows progress: one line per further page (a 3000-file PR is 30 pages).
    if (workflow != nullptr)
      workflow->log("  GET " + detail::path_of(url_in) + ": page " + std::to_string(seen.size() + 1) + " (" +
                    std::to_string(page.items.size()) + " items so far)");
    url = *next;
  }
}

ApiResult<boost::json::value> Client::request(const std::string& method, const std::string& path,
                                              const std::optional<boost::json::value>& body, bool paginate) {
  const auto deadline = impl_->start_call();
  const auto url = detail::join_url(impl_->options.base_url, path);
  if (!paginate || method != "GET") {
    return impl_->call(method, url, body ? boost::json::serialize(*body) : std::string(), deadline);
  }
  auto listing = impl_->paginate(url, 0, deadline);
  if (auto* error = std::get_if<ApiError>(&listing)) return *error;
  auto& page = std::get<Impl::Page>(listing);
  if (page.wrapper_key.empty()) return boost::json::value(std::move(page.items));
  // Wrapped listings keep the first page's other fields (total_count, ...).
  auto out = page.first;
  out.get_object()[page.wrapper_key] = std::move(page.items);
  return out;
}

}  // namespace gatekit::github
