#pragma once
// Private state of github::Client, shared by github_client.cpp (the engine) and
// github_calls.cpp (the typed calls).
#include <random>
#include <set>

#include "gatekit/github.hpp"
#include "gatekit/json.hpp"

namespace gatekit::github {

class ResponseCache;  // gatekit/github_cache.hpp

struct Client::Impl {
  using Deadline = Clock::duration;  // a reading of the monotonic clock (Clock::monotonic)

  // A listing read page by page: the items of every page, each once, and the first page as
  // it came (for wrapped listings such as {"total_count": n, "workflow_runs": [...]}).
  struct Page {
    boost::json::array items;
    boost::json::value first;
    std::string wrapper_key;  // "" for plain arrays
    // De-duplication by the listing's id field (id_key): an item whose id came before is
    // dropped and counted. An item without the field (or id_key "") is keyed by its whole JSON.
    std::string id_key = "id";
    std::set<std::string> ids;
    std::size_t repeated = 0;
  };

  Impl(ClientOptions o, HttpTransport& t, Clock& c, std::uint64_t seed);

  // The deadline of a call starting now: its own budget, or the client's total deadline
  // when that comes first.
  Deadline start_call() const;
  // "the time budget of 120 s" or, at the total deadline, "the time budget of 2 s for all calls".
  std::string budget_text(Deadline deadline) const;
  // API text enters here: the token's forms become "***".
  void redact(HttpResponse& response) const;
  void redact(TransportError& error) const;
  HttpRequest make_request(const std::string& method, const std::string& url, const std::string& body) const;
  // One request with retries and rate-limit waits; any HTTP answer that is not retried
  // (including 4xx) comes back as a response.
  Result<HttpResponse> exchange(const std::string& method, const std::string& url, const std::string& body,
                                   Deadline deadline);
  // exchange + error statuses as Errors + the body parsed as JSON (null when empty).
  Result<boost::json::value> call(const std::string& method, const std::string& url, const std::string& body,
                                     Deadline deadline);
  // GET every page by Link rel=next (per_page=100 added when absent); limit 0 = all. An item
  // listed again (the same `id_key`: a listing that changed while it was read repeats items
  // across pages) is kept once, and the repeats are reported as a warning on the workflow.
  Result<Page> paginate(const std::string& url, std::size_t limit, Deadline deadline, std::string id_key = "id");
  // One page of a listing: its items appended to `page`; the next page's URL, or "" at the end.
  Result<std::string> read_page(const std::string& url, Deadline deadline, Page& page);
  // The same error statuses and decoding for one answer: the body as JSON.
  static Result<boost::json::value> body_of(const HttpResponse& response, const std::string& method,
                                            const std::string& url);

  ClientOptions options;
  HttpTransport& transport;
  std::unique_ptr<HttpTransport> owned_transport;  // set when the client owns its connection (connect)
  Clock& clock;
  std::mt19937_64 rng;
  int requests_sent = 0;
  std::optional<Deadline> total_deadline;  // options.total_budget from construction
  std::vector<std::string> secret_forms;   // of options.token
  Workflow* workflow = nullptr;  // progress lines for long listings; may be null
  ResponseCache* cache = nullptr;  // conditional GETs (use_cache); may be null
};

// The raw call (gatekit/github_json.hpp) reaches the engine through this friend of Client.
struct JsonAccess {
  static Client::Impl& impl(Client& client) { return *client.impl_; }
};

}  // namespace gatekit::github
