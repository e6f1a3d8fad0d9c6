// The client's engine: one logical call = one or more pages, each page one or more
// attempts, all inside one time budget measured on the injected clock.
#include <cstdio>
#include <random>
#include <set>

#include "gatekit/github_cache.hpp"
#include "gatekit/github_decode.hpp"
#include "gatekit/github_json.hpp"
#include "github_impl.hpp"
#include "gatekit/version.hpp"

namespace gatekit::github {

using namespace std::chrono_literals;

ClientOptions options_for(const RunInfo& run, const Environment& env, const std::string& explicit_token) {
  ClientOptions options;
  if (!run.api_url.empty()) {
    options.base_url = run.api_url;
    while (!options.base_url.empty() && options.base_url.back() == '/') options.base_url.pop_back();
  }
  // The token is a credential, not the run's identity: read here, where the connection is
  // made, and nowhere else (docs/architecture.md, "Design rules": the run's identity is read once).
  if (!explicit_token.empty()) {
    options.token = explicit_token;
  } else if (auto token = env.get_nonempty("GITHUB_TOKEN")) {
    options.token = *token;
  } else if (auto gh = env.get_nonempty("GH_TOKEN")) {
    options.token = *gh;
  }
  return options;
}

ClientOptions options_for(const Context& context, const std::string& explicit_token) {
  return options_for(context.run, context.env, explicit_token);
}

Client::Client(ClientOptions options, HttpTransport& transport, Clock& clock, Workflow* workflow,
               std::uint64_t jitter_seed)
    : impl_(std::make_shared<Impl>(std::move(options), transport, clock, jitter_seed)) {
  impl_->workflow = workflow;
  if (workflow != nullptr && !impl_->options.token.empty()) workflow->mask(impl_->options.token);
}

Client::Client(ClientOptions options, std::unique_ptr<HttpTransport> transport, Clock& clock, Workflow* workflow)
    : Client(std::move(options), *transport, clock, workflow) {
  impl_->owned_transport = std::move(transport);
}

Result<Client> connect(Context& context, ClientOptions options) {
  if (!context.make_transport) return could_not_evaluate("no HTTP transport to reach GitHub");
  auto transport = context.make_transport();
  if (!transport) return could_not_evaluate("no HTTP transport to reach GitHub");
  return Client(std::move(options), std::move(transport), context.clock, &context.workflow);
}

Result<Client> connect(Context& context) { return connect(context, options_for(context)); }

int Client::requests_sent() const { return impl_->requests_sent; }

Client::Impl::Impl(ClientOptions o, HttpTransport& t, Clock& c, std::uint64_t seed)
    : options(std::move(o)), transport(t), clock(c), rng(seed != 0 ? seed : std::random_device{}()) {
  if (options.total_budget > 0ms) total_deadline = clock.monotonic() + options.total_budget;
  secret_forms = detail::secret_forms(options.token);
}

Client::Impl::Deadline Client::Impl::start_call() const {
  auto deadline = clock.monotonic() + options.budget;
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

namespace {

// A 304 to a conditional GET is the kept answer again, as a 200 with its Link header; a 200
// with an ETag is kept. Anything else passes unchanged.
HttpResponse through_cache(HttpResponse response, const std::string& url, ResponseCache& cache,
                           const std::optional<CachedAnswer>& sent) {
  if (response.status == 304 && sent) {
    cache.count_not_modified();
    HttpResponse out;
    out.status = 200;
    for (auto& header : response.headers)
      if (header.first != "link" && header.first != "content-type") out.headers.push_back(std::move(header));
    if (!sent->link.empty()) out.headers.emplace_back("link", sent->link);
    out.headers.emplace_back("content-type", "application/json; charset=utf-8");  // kept only from JSON answers
    out.body = sent->body;
    return out;
  }
  const bool json = response.header("content-type").value_or("").find("json") != std::string::npos;
  if (response.status == 200 && json)
    if (auto etag = response.header("etag"); etag && !etag->empty())
      cache.store(url, {*etag, response.header("link").value_or(""), response.body});
  return response;
}

}  // namespace

Result<HttpResponse> Client::Impl::exchange(const std::string& method, const std::string& url,
                                            const std::string& body, Deadline deadline) {
  auto request = make_request(method, url, body);
  // A conditional GET: GitHub answers 304 (free of the rate limit) when the kept answer is current.
  std::optional<CachedAnswer> sent;
  if (cache != nullptr && method == "GET") sent = cache->find(url);
  if (sent) request.headers.emplace_back("If-None-Match", sent->etag);
  std::uniform_real_distribution<double> jitter(0.0, 1.0);
  auto fail = [&](const std::string& reason, int status = 0) {
    return detail::api_error(method, url, reason, "", status);
  };
  for (int attempt = 1;; ++attempt) {
    // Slow pages count too: no request starts after the budget is spent.
    const auto now = clock.monotonic();
    if (now >= deadline) return fail(budget_text(deadline) + " is spent");
    // A request in flight ends at the deadline too: a slow server cannot stretch the budget.
    request.timeout = std::min(options.request_timeout, std::max(std::chrono::milliseconds(deadline - now), 1ms));
    ++requests_sent;
    auto result = transport.send(request);
    if (auto* answer = std::get_if<HttpResponse>(&result)) redact(*answer);
    else redact(std::get<TransportError>(result));
    const auto* response = std::get_if<HttpResponse>(&result);
    const int status = response != nullptr ? response->status : 0;
    auto assessment = response != nullptr ? detail::assess_response(*response, clock.now())
                                          : detail::assess_transport_error(std::get<TransportError>(result));
    auto left = std::max(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock.monotonic()), 0ms);
    const bool retryable = assessment.verdict == detail::Verdict::retry_backoff ||
                           assessment.verdict == detail::Verdict::retry_wait;
    if (retryable && left == 0ms)
      return fail(budget_text(deadline) + " is spent (last attempt: " + assessment.reason + ")", status);
    auto step = detail::next_step(assessment, attempt, options.max_attempts, left, jitter(rng));
    switch (step.action) {
      case detail::StepAction::deliver:
        if (cache != nullptr && method == "GET") return through_cache(*response, url, *cache, sent);
        return *response;
      case detail::StepAction::wait_and_retry:
        clock.sleep_for(step.wait);
        continue;
      case detail::StepAction::fail:
        return fail(assessment.reason);
      case detail::StepAction::give_up_attempts: {
        std::string suffix = " (gave up after " + std::to_string(attempt) + " attempts)";
        if (response == nullptr) return fail(assessment.reason + suffix);
        return detail::error_from_response(*response, method, url, suffix);
      }
      case detail::StepAction::give_up_budget: {
        std::string message = assessment.reason + "; waiting " + std::to_string(step.wait.count() / 1000) +
                              " s more would exceed " + budget_text(deadline);
        if (assessment.reset_epoch) message += "; the rate limit resets at " + detail::format_utc(*assessment.reset_epoch);
        return fail(message, status);
      }
    }
  }
}

Result<boost::json::value> Client::Impl::body_of(const HttpResponse& response, const std::string& method,
                                                 const std::string& url) {
  if (response.status >= 400) return detail::error_from_response(response, method, url);
  auto parsed = detail::parse_body(response);
  if (!parsed) {
    Error error = detail::api_error(method, url, parsed.error().message);
    error.unreadable_answer = true;
    return error;
  }
  return std::move(*parsed);
}

Result<boost::json::value> Client::Impl::call(const std::string& method, const std::string& url,
                                              const std::string& body, Deadline deadline) {
  auto exchanged = exchange(method, url, body, deadline);
  if (!exchanged) return exchanged.error();
  return body_of(*exchanged, method, url);
}

namespace {

// A listing is an array, or an object wrapping one under a known key ("" for a plain array).
boost::json::array* listing_items(boost::json::value& body, std::string& wrapper_key) {
  if (auto* items = body.if_array()) return items;
  if (!body.is_object()) return nullptr;
  for (const char* key : {"items", "workflow_runs", "jobs", "artifacts", "statuses", "environments", "branch_policies",
                          "variables", "secrets"}) {
    if (auto* v = body.get_object().if_contains(key); v != nullptr && v->is_array()) {
      wrapper_key = key;
      return &v->get_array();
    }
  }
  return nullptr;
}

}  // namespace

Result<std::string> Client::Impl::read_page(const std::string& url, Deadline deadline, Page& page) {
  auto exchanged = exchange("GET", url, "", deadline);
  if (!exchanged) return exchanged.error();
  auto parsed = body_of(*exchanged, "GET", url);
  if (!parsed) return parsed.error();
  std::string wrapper_key;
  auto* items = listing_items(*parsed, wrapper_key);
  if (items == nullptr) {
    Error error = detail::api_error("GET", url, "expected a JSON array or a wrapped listing");
    error.unreadable_answer = true;
    return error;
  }
  if (page.wrapper_key.empty()) page.wrapper_key = wrapper_key;
  if (page.first.is_null()) page.first = *parsed;
  for (auto& item : *items) {
    const auto* object = item.if_object();
    const auto* id = object != nullptr && !page.id_key.empty() ? object->if_contains(page.id_key) : nullptr;
    // "i" and "j" keep an id apart from a whole item that happens to serialize alike.
    if (!page.ids.insert(id != nullptr ? "i" + boost::json::serialize(*id) : "j" + boost::json::serialize(item)).second) {
      ++page.repeated;
      continue;
    }
    page.items.push_back(std::move(item));
  }
  return detail::next_link(exchanged->header("link").value_or("")).value_or("");
}

namespace {

// One warning per listing that repeated items: they are counted once, and the reader knows
// the listing changed while it was read (an item may also have been missed).
void warn_repeated(Workflow* workflow, std::size_t repeated, const std::string& id_key, const std::string& url) {
  if (workflow == nullptr || repeated == 0) return;
  const std::string by = id_key.empty() ? "content" : id_key;
  const std::string path = detail::path_of(url);
  workflow->annotate({Severity::warning,
                      "GET " + path.substr(0, path.find('?')) + ": GitHub listed " + std::to_string(repeated) +
                          " item(s) again on a later page (the same " + by +
                          "; the listing changed while it was read); each is counted once",
                      "GitHub listing repeated items"});
}

}  // namespace

Result<Client::Impl::Page> Client::Impl::paginate(const std::string& url_in, std::size_t limit, Deadline deadline,
                                                  std::string id_key) {
  const std::string origin = detail::origin_of(detail::join_url(options.base_url, "/"));
  std::string url = url_in;
  if (!detail::has_query_param(url, "per_page")) url = detail::add_query(url, "per_page", "100");
  Page page;
  page.id_key = std::move(id_key);
  std::set<std::string> seen;
  while (true) {
    seen.insert(url);
    auto next = read_page(url, deadline, page);
    if (!next) return next.error();
    if (limit != 0 && page.items.size() >= limit) {
      page.items.resize(limit);
      warn_repeated(workflow, page.repeated, page.id_key, url_in);
      return page;
    }
    if (next->empty()) {
      warn_repeated(workflow, page.repeated, page.id_key, url_in);
      return page;
    }
    // The token must never travel to another host: only same-origin pages are followed.
    if (detail::origin_of(*next) != origin)
      return detail::api_error("GET", url, "refusing to follow a Link rel=next to another host: " + detail::origin_of(*next));
    if (seen.count(*next) != 0) return detail::api_error("GET", url, "Link rel=next points back to a page already read");
    // A long listing shows progress: one line per further page (a 3000-file PR is 30 pages).
    if (workflow != nullptr)
      workflow->log("  GET " + detail::path_of(url_in) + ": page " + std::to_string(seen.size() + 1) + " (" +
                    std::to_string(page.items.size()) + " items so far)");
    url = *next;
  }
}

Result<boost::json::value> request(Client& client, const std::string& method, const std::string& path,
                                   const std::optional<boost::json::value>& body, bool paginate) {
  auto& impl = JsonAccess::impl(client);
  const auto deadline = impl.start_call();
  const auto url = detail::join_url(impl.options.base_url, path);
  if (!paginate || method != "GET") {
    return impl.call(method, url, body ? boost::json::serialize(*body) : std::string(), deadline);
  }
  auto page = impl.paginate(url, 0, deadline);
  if (!page) return page.error();
  if (page->wrapper_key.empty()) return boost::json::value(std::move(page->items));
  // Wrapped listings keep the first page's other fields (total_count, ...).
  auto out = page->first;
  out.get_object()[page->wrapper_key] = std::move(page->items);
  return out;
}

}  // namespace gatekit::github
