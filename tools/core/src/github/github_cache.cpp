#include "gatekit/github_cache.hpp"

#include "gatekit/json.hpp"
#include "github_impl.hpp"

namespace gatekit::github {

namespace json = boost::json;

std::optional<CachedAnswer> ResponseCache::find(const std::string& url) {
  const auto found = entries_.find(url);
  if (found == entries_.end()) return std::nullopt;
  found->second.used = true;
  return found->second.answer;
}

void ResponseCache::store(const std::string& url, CachedAnswer answer) {
  auto found = entries_.find(url);
  const std::size_t old = found == entries_.end() ? 0 : found->second.answer.body.size();
  if (bytes_ - old + answer.body.size() > max_bytes_) {
    if (found != entries_.end()) {  // a stale answer must not be offered again
      bytes_ -= old;
      entries_.erase(found);
    }
    return;
  }
  bytes_ = bytes_ - old + answer.body.size();
  entries_[url] = Entry{std::move(answer), true};
}

Status ResponseCache::add_line(std::string_view line, const std::string& where) {
  if (line.find_first_not_of(" \t\r") == std::string_view::npos) return {};
  boost::system::error_code ec;
  const auto value = json::parse(line, ec);
  if (ec) return bad_input(where + "not JSON: " + ec.message());
  const auto* o = value.if_object();
  if (!header_) {
    const auto* format = o == nullptr ? nullptr : o->if_contains("gatekit_api_cache");
    if (format == nullptr || !format->is_int64() || format->get_int64() != 1)
      return bad_input(where + "expected the header {\"gatekit_api_cache\": 1}");
    header_ = true;
    return {};
  }
  if (o == nullptr) return bad_input(where + "expected an object {\"url\", \"etag\", \"link\", \"body\"}");
  CachedAnswer answer;
  std::string url;
  for (const auto& [field, target] : {std::pair<const char*, std::string*>{"url", &url}, {"etag", &answer.etag},
                                      {"link", &answer.link}, {"body", &answer.body}}) {
    const auto* v = o->if_contains(field);
    if (v == nullptr) return bad_input(where + field + ": missing");
    if (!v->is_string()) return bad_input(where + field + ": expected a string");
    *target = std::string(v->get_string());
  }
  if (url.empty() || answer.etag.empty()) return bad_input(where + (url.empty() ? "url" : "etag") + ": empty");
  if (entries_.count(url) != 0) return bad_input(where + "url: a second entry for " + url);
  if (!fits(answer.body.size())) return {};  // over the budget: read without it
  bytes_ += answer.body.size();
  entries_.emplace(std::move(url), Entry{std::move(answer), false});
  return {};
}

std::string ResponseCache::to_lines(bool keep_unused) const {
  std::string out = "{\"gatekit_api_cache\":1}\n";
  for (const auto& [url, entry] : entries_)
    if (entry.used || keep_unused)
      out += json::serialize(json::object{{"url", url},
                                          {"etag", entry.answer.etag},
                                          {"link", entry.answer.link},
                                          {"body", entry.answer.body}}) +
             "\n";
  return out;
}

void use_cache(Client& client, ResponseCache* cache) { JsonAccess::impl(client).cache = cache; }

}  // namespace gatekit::github
