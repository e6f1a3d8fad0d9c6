#pragma once
// The pure pieces of the GitHub client, exposed for table-driven tests: Link header
// parsing, URL building, the retry / rate-limit policy, token redaction and errors. Tools
// use gatekit/github.hpp; nothing here performs I/O or reads a clock. JSON decoding is in
// gatekit/github_decode.hpp, so this header needs no JSON library.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "gatekit/clock.hpp"
#include "gatekit/github.hpp"
#include "gatekit/text.hpp"
#include "gatekit/result.hpp"

namespace gatekit::github::detail {

// ---- Link header and URLs (github_link.cpp) -------------------------------------------

struct LinkEntry {
  std::string url;
  std::string rel;  // one entry per rel when a link lists several ("next last")
};

// RFC 8288 subset GitHub emits: `<url>; rel="next", <url>; rel="last"`. Malformed entries
// are skipped, never guessed at.
std::vector<LinkEntry> parse_link_header(std::string_view value);
std::optional<std::string> next_link(std::string_view value);

// RFC 3986: every byte but unreserved characters is %XX-encoded.
std::string percent_encode(std::string_view text);
// Encodes each '/'-separated segment of a path ("o/r", "heads/main") and keeps the slashes.
std::string encode_segments(std::string_view path);
// base "https://h/api/v3" + "/repos/x" -> "https://h/api/v3/repos/x"; an absolute URL is kept.
std::string join_url(std::string_view base, std::string_view path_or_url);
// Appends key=value (value percent-encoded) with '?' or '&'.
std::string add_query(std::string_view url, std::string_view key, std::string_view value);
bool has_query_param(std::string_view url, std::string_view key);
// "https://h:8080/x?y" -> "https://h:8080"; "" when the URL has no scheme.
std::string origin_of(std::string_view url);
// "https://h/api/v3/repos/x?y" -> "/api/v3/repos/x?y".
std::string path_of(std::string_view url);

// ---- Retry policy (github_retry.cpp) --------------------------------------------------

struct RetryPolicy {
  std::chrono::milliseconds base_delay{1'000};  // first backoff, doubled per attempt
  std::chrono::milliseconds max_delay{30'000};  // backoff cap
  std::chrono::milliseconds secondary_wait{60'000};  // secondary limit without Retry-After
  std::chrono::milliseconds reset_margin{1'000};     // added to x-ratelimit-reset waits
};

enum class Verdict {
  deliver,        // a usable answer (2xx/3xx) or a final error status (most 4xx)
  retry_backoff,  // transient: connection error, timeout, 5xx
  retry_wait,     // rate limited: wait exactly `wait`, then retry
  fail,           // not retryable and not an HTTP answer (e.g. TLS verification failed)
};

struct Assessment {
  Verdict verdict = Verdict::deliver;
  std::chrono::milliseconds wait{0};        // retry_wait only
  std::optional<std::int64_t> reset_epoch;  // primary rate limit: when it resets (epoch s)
  std::string reason;                       // "HTTP 502", "rate limit exceeded", ...
};

// now: the current time (for x-ratelimit-reset, which is absolute).
Assessment assess_response(const HttpResponse& response, Clock::time_point now,
                           const RetryPolicy& policy = {});
Assessment assess_transport_error(const TransportError& error);

// Exponential backoff with "equal jitter": half the doubled delay fixed, half scaled by
// jitter01 in [0, 1). attempt counts from 1.
std::chrono::milliseconds backoff_delay(int attempt, double jitter01, const RetryPolicy& policy = {});

enum class StepAction { deliver, wait_and_retry, give_up_attempts, give_up_budget, fail };
struct Step {
  StepAction action = StepAction::deliver;
  std::chrono::milliseconds wait{0};
};
// What to do after `attempt` (1-based) was assessed, given the budget still left.
Step next_step(const Assessment& assessment, int attempt, int max_attempts,
               std::chrono::milliseconds budget_left, double jitter01,
               const RetryPolicy& policy = {});

// Rate-limit resets are shown with gatekit::format_utc (gatekit/text.hpp).
using gatekit::format_utc;

// ---- Token redaction (github_redact.cpp) ----------------------------------------------

// The forms in which a server may echo the token back: as is, percent-encoded, JSON-escaped
// and base64-encoded (also inside a longer base64 text, at each of the three byte
// alignments, as GitHub's runner masks secrets). Forms shorter than 6 characters are left
// out (they would blank unrelated text); an empty token has no forms.
std::vector<std::string> secret_forms(std::string_view token);
// Every occurrence of any form replaced by "***".
std::string redact_secrets(std::string_view text, const std::vector<std::string>& forms);

// ---- Errors (github_decode.cpp) --------------------------------------------------------

// A failed call as the one Error (kind could_not_evaluate):
//   "METHOD /path?query: reason (documentation_url)"
// http_status: the status of the answer the call failed on, 0 when there was none.
Error api_error(std::string_view method, std::string_view url, std::string_view reason,
                std::string_view documentation_url = "", int http_status = 0);

// GitHub's error body ({message, documentation_url, errors[]}) turned into an Error with
// http_status set; a non-JSON body is summarised by its first printable characters. `suffix`
// is appended to the reason (" (gave up after 3 attempts)").
Error error_from_response(const HttpResponse& response, const std::string& method, const std::string& url,
                          std::string_view suffix = "");

}  // namespace gatekit::github::detail
