#pragma once
// The property both the libFuzzer target (fuzz/github_decode.cpp) and the deterministic CTest
// (tests/core/test_github_decode_fuzz.cpp) check for the GitHub client's decoding of response
// bodies and headers, which come from a server gatekit does not control:
// - parse_body accepts exactly the bodies Boost.JSON parses (under a JSON content type), and
//   every refusal says why;
// - each decoder either refuses with a message naming the field (or the array item), or
//   returns a value that decodes to the same value again after being written back as JSON;
// - an error response always becomes "METHOD PATH: HTTP <status>" plus GitHub's text, a
//   could-not-evaluate Error carrying the status;
// - the Link header parser only returns entries with a URL and a rel, and next_link is the
//   URL of an entry whose rel is "next" (in any case).
// The first byte chooses the decoder and the status; the rest is the body (and Link header).
#include <string>
#include <string_view>

#include "entry.hpp"
#include "gatekit/github_decode.hpp"
#include "gatekit/json.hpp"

namespace gatekit::fuzzing {

namespace gh = gatekit::github;
namespace ghd = gatekit::github::detail;

inline boost::json::value to_json(const gh::PullFile& f) {
  boost::json::object o{{"filename", f.filename}, {"status", f.status}};
  if (!f.previous_filename.empty()) o["previous_filename"] = f.previous_filename;
  return o;
}
inline bool same(const gh::PullFile& a, const gh::PullFile& b) {
  return a.filename == b.filename && a.status == b.status && a.previous_filename == b.previous_filename;
}
inline boost::json::value to_json(const gh::PullRequest& p) {
  boost::json::object o{{"number", p.number},
                        {"state", p.state},
                        {"head", {{"sha", p.head_sha}, {"ref", p.head_ref}}},
                        {"base", {{"sha", p.base_sha}, {"ref", p.base_ref}}}};
  if (p.changed_files >= 0) o["changed_files"] = p.changed_files;
  return o;
}
inline bool same(const gh::PullRequest& a, const gh::PullRequest& b) {
  return a.number == b.number && a.state == b.state && a.head_sha == b.head_sha && a.base_sha == b.base_sha &&
         a.head_ref == b.head_ref && a.base_ref == b.base_ref && a.changed_files == b.changed_files;
}
inline boost::json::value to_json(const gh::WorkflowJob& j) {
  return boost::json::object{{"id", j.id},         {"name", j.name},         {"status", j.status},
                             {"conclusion", j.conclusion}, {"html_url", j.html_url},
                             {"started_at", j.started_at}, {"completed_at", j.completed_at}};
}
inline bool same(const gh::WorkflowJob& a, const gh::WorkflowJob& b) {
  return a.id == b.id && a.name == b.name && a.status == b.status && a.conclusion == b.conclusion &&
         a.html_url == b.html_url && a.started_at == b.started_at && a.completed_at == b.completed_at;
}
inline boost::json::value to_json(const gh::Artifact& a) {
  return boost::json::object{{"id", a.id},
                             {"name", a.name},
                             {"size_in_bytes", a.size_in_bytes},
                             {"expired", a.expired},
                             {"archive_download_url", a.archive_download_url}};
}
inline bool same(const gh::Artifact& a, const gh::Artifact& b) {
  return a.id == b.id && a.name == b.name && a.size_in_bytes == b.size_in_bytes && a.expired == b.expired &&
         a.archive_download_url == b.archive_download_url;
}

inline bool names_a_field(const std::string& message) {
  return message.rfind("field `", 0) == 0 || message == "expected a JSON object" ||
         message == "expected a JSON array" || message.rfind("item ", 0) == 0;
}

// Decodes `value` as an array of T (or one T), and checks the refusal or the round trip.
template <class T, class Decode>
std::string decode_violation(const boost::json::value& value, bool as_array, Decode decode) {
  if (as_array) {
    auto many = ghd::decode_array<T>(value, decode);
    if (!many) return names_a_field(many.error().message) ? "" : "a refusal not naming the field: " + many.error().message;
    for (const auto& one : *many) {
      auto again = decode(to_json(one));
      if (!again) return "round trip refused: " + again.error().message;
      if (!same(one, *again)) return "round trip changed an item";
    }
    return "";
  }
  auto one = decode(value);
  if (!one) return names_a_field(one.error().message) ? "" : "a refusal not naming the field: " + one.error().message;
  auto again = decode(to_json(*one));
  if (!again) return "round trip refused: " + again.error().message;
  return same(*one, *again) ? "" : "round trip changed the value";
}

inline std::string link_violation(std::string_view header) {
  const auto entries = ghd::parse_link_header(header);
  for (const auto& e : entries) {
    if (e.url.empty() || e.rel.empty()) return "a Link entry without URL or rel";
  }
  if (auto next = ghd::next_link(header)) {
    for (const auto& e : entries) {
      if (e.url != *next) continue;
      std::string rel = e.rel;  // relation types compare case-insensitively (RFC 8288)
      for (auto& c : rel) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
      if (rel == "next") return "";
    }
    return "next_link returned a URL no rel=\"next\" entry has";
  }
  return "";
}

inline std::string github_decode_property_violation(std::string_view input) {
  const unsigned char pick = selector(input);
  gh::HttpResponse response;
  response.status = 200 + (pick >> 3) * 10;  // 200..510
  response.headers = {{"content-type", (pick & 4) ? "application/json; charset=utf-8" : "text/html"}};
  response.body = std::string(after_selector(input));

  if (auto v = link_violation(response.body); !v.empty()) return v;
  const auto error = ghd::error_from_response(response, "GET", "https://api.test/x");
  const std::string head = "GET /x: HTTP " + std::to_string(response.status);
  if (error.message.rfind(head, 0) != 0) return "an error response not starting with '" + head + "'";
  if (error.kind != ErrorKind::could_not_evaluate || error.http_status != response.status)
    return "an error response of the wrong kind or status";

  auto body = ghd::parse_body(response);
  boost::system::error_code ec;
  const bool parses = response.body.empty() || (boost::json::parse(response.body, ec), !ec);
  const bool json_type = response.body.empty() || (pick & 4) != 0;
  if (body.ok() != (parses && json_type)) return "parse_body disagrees with Boost.JSON on the body";
  if (!body) return body.error().message.empty() ? "a refusal without a message" : "";
  const bool as_array = (pick & 1) != 0;
  switch (pick & 0x0a) {
    case 0x00: return decode_violation<gh::PullFile>(*body, as_array, ghd::decode_pull_file);
    case 0x02: return decode_violation<gh::PullRequest>(*body, as_array, ghd::decode_pull_request);
    case 0x08: return decode_violation<gh::WorkflowJob>(*body, as_array, ghd::decode_job);
    default: return decode_violation<gh::Artifact>(*body, as_array, ghd::decode_artifact);
  }
}

}  // namespace gatekit::fuzzing
